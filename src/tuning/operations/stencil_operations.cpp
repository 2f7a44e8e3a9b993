// SPDX-License-Identifier: Apache-2.0
// The stencil family, for the tuner: 16 heat steps (so that steps per
// launch can matter) on a square grid of about n cells, a 5 x 5 convolution (zero boundary) of a square image of
// about n pixels, the 3D star of radius 4 on a cube of about n cells, and
// NCC of a 16 x 16 template over an 8-bit square image of about n pixels.
// Inputs come from the workload's values; each family member keeps its
// buffers in the workload. portacl-bench's stencil section measures them
// (--stencils), so none is in the streaming table.
#include <cmath>
#include <cstdint>
#include <limits>

#include "../host_reference.hpp"
#include "family_parts.hpp"
#include "../stencil_reference.hpp"
#include "portacl/stencil.hpp"
#include "kernels/stencil/tunables.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

std::size_t side_2d(std::size_t n) { return std::max<std::size_t>(16, static_cast<std::size_t>(std::sqrt(double(n)))); }
std::size_t side_3d(std::size_t n) { return std::max<std::size_t>(12, static_cast<std::size_t>(std::cbrt(double(n)))); }

// The workload's first `count` values (repeated if it holds fewer).
std::vector<float> values(const Workload& w, std::size_t count, std::size_t from = 0) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = w.hx[(from + i) % w.hx.size()];
  return v;
}

struct GridCase {
  GridCase(Context& ctx, std::vector<float> in, std::size_t outputs)
      : host(std::move(in)), a(ctx, host), b(ctx, outputs) {}
  std::vector<float> host;
  Buffer<float> a, b;
};

template <class Case, class Make>
Case& kept(Workload& w, const std::string& key, Make make) {
  auto& slot = w.derived[key];
  if (!slot) slot = make();
  return *std::static_pointer_cast<Case>(slot);
}

GridCase& heat_case(Workload& w) {
  const std::size_t s = side_2d(w.n);
  return kept<GridCase>(w, "stencil.heat", [&] { return std::make_shared<GridCase>(w.ctx, values(w, s * s), 0); });
}

// 16 steps: every steps-per-launch value of the space (1 to 8) makes an
// even number of launches of it, so none pays the copy back into the
// caller's buffer that ends an odd count (with 4 steps, 4 per launch paid
// it and the tuner chose 2, 27% slower over 1000 steps on the H100).
constexpr std::size_t heat_steps = 16;

LaunchPlan run_heat(Workload& w, Options o) {
  const std::size_t s = side_2d(w.n);
  HeatOptions<float> h;
  h.r = 0.2f;
  h.steps = heat_steps;
  h.plan = o;
  return heat2d(w.ctx, heat_case(w).a, s, s, h);
}

std::string check_heat(Workload& w, Options o) {
  GridCase& c = heat_case(w);
  c.a.upload(c.host);
  run_heat(w, o);
  const std::size_t s = side_2d(w.n);
  return reference::within(c.a.download(), reference::heat2d(c.host, s, s, 0.2, heat_steps),
                           8 * double(heat_steps) * 4 * std::numeric_limits<float>::epsilon());  // |u| < 4
}

const ConvolutionMask<float>& conv_mask(Workload& w) {
  return kept<ConvolutionMask<float>>(
      w, "stencil.mask", [&] { return std::make_shared<ConvolutionMask<float>>(w.ctx, values(w, 25, 7), 5, 5); });
}

GridCase& conv_case(Workload& w) {
  const std::size_t s = side_2d(w.n);
  return kept<GridCase>(w, "stencil.conv", [&] { return std::make_shared<GridCase>(w.ctx, values(w, s * s), s * s); });
}

// Convolution by FFT's mask (33 x 33, forced: the rule takes the FFT only
// for large images); the tuner reaches its pointwise steps' knobs (the
// transforms keep the FFT's plan).
const ConvolutionMask<float>& fft_mask(Workload& w) {
  return kept<ConvolutionMask<float>>(w, "stencil.fft_mask", [&] {
    return std::make_shared<ConvolutionMask<float>>(w.ctx, values(w, 33 * 33, 11), 33, 33);
  });
}

// The workload's image convolved directly with the 5 x 5 mask, or by FFT
// with the 33 x 33 one, into a poisoned output.
LaunchPlan convolve(Workload& w, Options o, bool fft) {
  const std::size_t s = side_2d(w.n);
  ConvolutionOptions c;
  c.plan = o;
  if (fft) c.fft = true;
  GridCase& g = conv_case(w);
  return convolve2d(w.ctx, g.a, s, s, fft ? fft_mask(w) : conv_mask(w), g.b, c);
}

LaunchPlan run_conv(Workload& w, Options o) { return convolve(w, o, false); }
LaunchPlan run_conv_fft(Workload& w, Options o) { return convolve(w, o, true); }

// The output against the double reference: within each output's rounding
// (direct) or the FFT's derived bound.
std::string check_convolution(Workload& w, Options o, bool fft) {
  GridCase& g = conv_case(w);
  const std::size_t s = side_2d(w.n);
  g.b.upload(std::vector<float>(s * s, std::numeric_limits<float>::quiet_NaN()));
  const LaunchPlan used = convolve(w, o, fft);
  const auto& m = fft ? fft_mask(w) : conv_mask(w);
  const double bound = fft ? reference::fft_convolution_bound(used, g.host, m.weights())
                           : 4.0 * 26 * 4 * std::numeric_limits<float>::epsilon();
  return reference::within(g.b.download(),
                           reference::convolve2d(g.host, s, s, m.weights(), m.rows(), m.cols(), Boundary::zero), bound);
}

std::string check_conv(Workload& w, Options o) { return check_convolution(w, o, false); }
std::string check_conv_fft(Workload& w, Options o) { return check_convolution(w, o, true); }

const std::vector<float> star_weights{-3.0f, 0.5f, 0.25f, 0.125f, 0.0625f};

GridCase& star_case(Workload& w) {
  const std::size_t s = side_3d(w.n);
  return kept<GridCase>(w, "stencil.star",
                        [&] { return std::make_shared<GridCase>(w.ctx, values(w, s * s * s), s * s * s); });
}

LaunchPlan run_star(Workload& w, Options o) {
  const std::size_t s = side_3d(w.n);
  Stencil3dOptions so;
  so.plan = o;
  GridCase& g = star_case(w);
  const StarWeights<float>& prepared = kept<StarWeights<float>>(
      w, "stencil.star.weights", [&] { return std::make_shared<StarWeights<float>>(w.ctx, star_weights); });
  return star_stencil3d(w.ctx, g.a, {s, s, s}, prepared, g.b, so);
}

std::string check_star(Workload& w, Options o) {
  GridCase& g = star_case(w);
  const std::size_t s = side_3d(w.n);
  g.b.upload(std::vector<float>(s * s * s, std::numeric_limits<float>::quiet_NaN()));
  run_star(w, o);
  return reference::within(
      g.b.download(), reference::stencil3d(g.host, s, s, s, reference::star_points(star_weights), 4, Boundary::zero),
      8.0 * 25 * 4 * std::numeric_limits<float>::epsilon());
}

struct NccCase {
  NccCase(Context& ctx, std::vector<std::uint8_t> image, std::vector<std::uint8_t> t, std::size_t offsets)
      : host(std::move(image)), templ(std::move(t)), a(ctx, host), map(ctx, offsets), prepared(ctx, templ, 16, 16) {}
  std::vector<std::uint8_t> host, templ;
  Buffer<std::uint8_t> a;
  Buffer<float> map;
  NccTemplate<std::uint8_t> prepared;  // formed once, as for many frames
};

NccCase& ncc_case(Workload& w) {
  const std::size_t s = side_2d(w.n);
  return kept<NccCase>(w, "stencil.ncc", [&] {
    std::vector<std::uint8_t> image(s * s), t(16 * 16);
    for (std::size_t i = 0; i < image.size(); ++i)
      image[i] = static_cast<std::uint8_t>(std::fabs(w.hx[i % w.hx.size()]) * 97.0f);
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t j = 0; j < 16; ++j) t[i * 16 + j] = image[(i + s / 3) * s + j + s / 2];
    return std::make_shared<NccCase>(w.ctx, std::move(image), std::move(t), (s - 15) * (s - 15));
  });
}

LaunchPlan run_ncc(Workload& w, Options o) {
  const std::size_t s = side_2d(w.n);
  NccOptions n;
  n.plan = o;
  NccCase& c = ncc_case(w);
  return ncc(w.ctx, c.a, s, s, c.prepared, c.map, n);
}

std::string check_ncc(Workload& w, Options o) {
  NccCase& c = ncc_case(w);
  const std::size_t s = side_2d(w.n);
  c.map.upload(std::vector<float>((s - 15) * (s - 15), std::numeric_limits<float>::quiet_NaN()));
  run_ncc(w, o);
  return reference::within(c.map.download(), reference::ncc(c.host, s, s, c.templ, 16, 16), 1e-6);
}

Operation stencil_operation(const char* name, double bytes, double flops, const TuningSpace& space,
                            LaunchPlan (*run)(Workload&, Options), std::string (*check)(Workload&, Options)) {
  Operation op;
  op.name = name;
  op.bytes_per_element = bytes;
  op.flops_per_element = flops;
  op.space = &space;
  op.run = run;
  op.check = check;
  op.streaming = false;  // portacl-bench's stencil section measures it (--stencils)
  return op;
}

}  // namespace

std::vector<Operation> stencil_operations() {
  return {stencil_operation("heat2d step", heat_steps * 8, heat_steps * 6, heat2d_tunables(), run_heat, check_heat),
          stencil_operation("conv2d 5x5", 8, 50, convolution_tunables(), run_conv, check_conv),
          stencil_operation("conv2d fft 33x33", 8, 0, convolution_fft_tunables(), run_conv_fft, check_conv_fft),
          stencil_operation("star3d r4", 8, 50, stencil3d_tunables(), run_star, check_star),
          stencil_operation("ncc 16x16", 5, 6 * 256, ncc_tunables(), run_ncc, check_ncc)};
}

}  // namespace portacl
