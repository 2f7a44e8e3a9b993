// SPDX-License-Identifier: Apache-2.0
// 2D convolution by FFT (kernels/stencil_convolution_fft.cl): the image,
// extended by its boundary, and the mask are each zero-padded to a smooth
// grid and transformed real-to-complex; their product (the mask's
// spectrum conjugated: the correlation form) goes back complex-to-real and
// the output is the grid's corner. The grid is large enough that the
// circular correlation never wraps into an output cell.
#include <memory>
#include <tuple>
#include <utility>

#include "portacl/fft.hpp"
#include "portacl/stencil.hpp"

#include "../kernel_call.hpp"
#include "mask_spectrum.hpp"
#include "kernels/kernel_traits.hpp"
#include "kernels/stencil/tunables.hpp"
#include "plans.hpp"
#include "rules/coverage_rules.hpp"
#include "rules/fft_rules.hpp"
#include "rules/stencil_rules.hpp"

namespace portacl {

KernelTraits convolution_fft_traits(ElementType element) {
  // The pointwise steps around the transforms: an element read and written.
  return kernel_traits("convolution_fft", element, 1, traits::scalar, {2.0 * double(size_of(element)), 0},
                       &convolution_fft_tunables());
}

const TuningSpace& convolution_fft_tunables() {
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256, 512})}, nullptr};
  return space;
}

ConvolutionFftGrid convolution_fft_grid(std::size_t rows, std::size_t cols, std::size_t mask_rows,
                                        std::size_t mask_cols, Boundary boundary) {
  ConvolutionFftGrid g;
  const bool valid = boundary == Boundary::valid;
  g.ext_rows = valid ? rows : rows + mask_rows - 1;
  g.ext_cols = valid ? cols : cols + mask_cols - 1;
  g.anchor_y = valid ? 0 : (mask_rows - 1) / 2;
  g.anchor_x = valid ? 0 : (mask_cols - 1) / 2;
  // 5-smooth: the radices of 8, 4, 2, 3 and 5 run fastest (a grid of
  // 1029 = 3 x 7^3 took twice 1080's on PoCL).
  g.rows = rows > 1 || mask_rows > 1 ? fft_smooth_at_least(g.ext_rows, 5) : 1;
  g.cols = fft_smooth_at_least(g.ext_cols, 5);
  return g;
}

template <class T>
ConvolutionFftLaunches plan_convolution_fft(const Planner& planner, std::size_t rows, std::size_t cols,
                                            std::size_t mask_rows, std::size_t mask_cols, Boundary boundary) {
  ConvolutionFftLaunches l;
  l.grid = convolution_fft_grid(rows, cols, mask_rows, mask_cols, boundary);
  const auto [out_rows, out_cols] = convolution_output_size(rows, cols, mask_rows, mask_cols, boundary);
  const KernelTraits traits = convolution_fft_traits(element_of<T>::value);
  const std::size_t cells = l.grid.rows * l.grid.cols, values = l.grid.rows * (l.grid.cols / 2 + 1);
  const auto pass = [&](std::size_t items) {
    LaunchPlan p = planner.plan(traits, ProblemSize(std::max<std::size_t>(items, 1)));
    cover_items(p, std::max<std::size_t>(items, 1), 1, "elements");
    return p;
  };
  l.extend = pass(cells);
  l.multiply = pass(values);
  l.crop = pass(out_rows * out_cols);
  return l;
}

template ConvolutionFftLaunches plan_convolution_fft<float>(const Planner&, std::size_t, std::size_t, std::size_t,
                                                            std::size_t, Boundary);
template ConvolutionFftLaunches plan_convolution_fft<double>(const Planner&, std::size_t, std::size_t, std::size_t,
                                                             std::size_t, Boundary);

template <class T>
LaunchPlan convolve_by_fft(Context& ctx, const Buffer<T>& in, std::size_t rows, std::size_t cols,
                           const ConvolutionMask<T>& mask, Buffer<T>& out, const ConvolutionOptions& o,
                           const Decision& algorithm) {
  const ConvolutionFftLaunches l =
      plan_convolution_fft<T>(live_planner(ctx, o.plan), rows, cols, mask.rows(), mask.cols(), o.boundary);
  const ConvolutionFftGrid& g = l.grid;
  const auto [out_rows, out_cols] = convolution_output_size(rows, cols, mask.rows(), mask.cols(), o.boundary);
  const std::vector<std::size_t> shape =
      g.rows == 1 ? std::vector<std::size_t>{g.cols} : std::vector<std::size_t>{g.rows, g.cols};
  const auto transforms = [&](const PlanOptions& with) {
    FftOptions forward, back;
    forward.kind = FftKind::r2c;
    back.kind = FftKind::c2r;
    forward.plan = back.plan = with;
    return std::make_pair(std::make_shared<const BasicFft<T>>(ctx, shape, forward),
                          std::make_shared<const BasicFft<T>>(ctx, shape, back));
  };
  // The grid and the image's spectrum are the context's scratch memory,
  // kept for the next call; the mask keeps its spectrum and the grid's
  // transforms as the rules plan them.
  auto held = ctx.hold_scratch();
  const std::size_t values = 2 * g.rows * (g.cols / 2 + 1);
  Buffer<T> grid(ctx, ctx.scratch("convolution_fft.grid", g.rows * g.cols * sizeof(T)), g.rows * g.cols),
      spectrum(ctx, ctx.scratch("convolution_fft.spectrum", values * sizeof(T)), values);
  const PreparedKernel extend = ctx.prepare(KernelRef{"stencil_convolution_fft.cl", "conv_fft_extend", ""}, l.extend);
  const auto extend_into_grid = [&](const Buffer<T>& from, std::size_t from_rows, std::size_t from_cols,
                                    std::size_t ext_rows, std::size_t ext_cols, std::size_t ay, std::size_t ax,
                                    bool clamp_edges) {
    kernel_call::launch(ctx, extend, cl_ulong(from_rows), cl_ulong(from_cols), cl_ulong(ext_rows), cl_ulong(ext_cols),
                        cl_ulong(g.rows), cl_ulong(g.cols), cl_long(ay), cl_long(ax), cl_uint(clamp_edges), from, grid);
  };
  const MaskFft<T> kept = MaskSpectra::of<T>(mask, g.rows, g.cols, [&] {
    MaskFft<T> made{nullptr, nullptr, Buffer<T>(ctx, values)};
    std::tie(made.r2c, made.c2r) = transforms(PlanOptions{});
    extend_into_grid(mask.buffer(), mask.rows(), mask.cols(), mask.rows(), mask.cols(), 0, 0, false);
    made.r2c->forward(grid, made.spectrum);
    return made;
  });
  const auto [r2c, c2r] = o.plan.leaves_plan_to_device() ? std::make_pair(kept.r2c, kept.c2r) : [&] {
    PlanOptions fft_plan = o.plan;
    fft_plan.override_values.reset();  // the pointwise steps' knobs are not the FFT's
    return transforms(fft_plan);
  }();
  extend_into_grid(in, rows, cols, g.ext_rows, g.ext_cols, g.anchor_y, g.anchor_x, o.boundary == Boundary::clamp);
  r2c->forward(grid, spectrum);
  const T scale = T(1) / (T(g.rows) * T(g.cols));
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"stencil_convolution_fft.cl", "conv_fft_multiply", ""}, l.multiply),
                      cl_ulong(spectrum.size() / 2), scale, spectrum, kept.spectrum);
  c2r->inverse(spectrum, grid);
  const PreparedKernel crop = ctx.prepare(KernelRef{"stencil_convolution_fft.cl", "conv_fft_crop", ""}, l.crop);
  kernel_call::launch(ctx, crop, cl_ulong(out_rows), cl_ulong(out_cols), cl_ulong(g.cols), grid, out);
  LaunchPlan plan = crop.plan;
  plan.decide(algorithm.what, algorithm.value, algorithm.rule, algorithm.why);
  decide_convolution_fft_grid(plan, g.rows, g.cols, g.ext_rows, g.ext_cols);
  return plan;
}

template LaunchPlan convolve_by_fft<float>(Context&, const Buffer<float>&, std::size_t, std::size_t,
                                           const ConvolutionMask<float>&, Buffer<float>&, const ConvolutionOptions&,
                                           const Decision&);
template LaunchPlan convolve_by_fft<double>(Context&, const Buffer<double>&, std::size_t, std::size_t,
                                            const ConvolutionMask<double>&, Buffer<double>&, const ConvolutionOptions&,
                                            const Decision&);

}  // namespace portacl
