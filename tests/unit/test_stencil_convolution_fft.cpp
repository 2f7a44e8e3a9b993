// SPDX-License-Identifier: Apache-2.0
// 2D and 1D convolution by FFT against the double-precision host
// reference (the direct sum) on random images of awkward sizes, every
// boundary, float and double, every device class's plan, outputs
// poisoned before each launch; a one-cell shift of the result fails the
// check; rule convolution.fft takes the FFT for a large mask and the
// direct form for a small one, and the caller's choice wins.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "portacl/stencil.hpp"
#include "../../src/tuning/fft_reference.hpp"
#include "../../src/tuning/stencil_reference.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

// How far the FFT's outputs may stand from the exact correlation of the
// extended image e (the image as the boundary reads it, zero-padded to
// the grid the plan names, 1 row for a 1D convolution) with the mask m,
// as a 2-norm over every output (and so for each one):
// reference::fft_correlation_bound, which derives it, of |e|_2 |m|_1.
template <class T>
double fft_convolution_bound(const std::vector<T>& image, std::size_t rows, std::size_t cols,
                             const std::vector<T>& mask, std::size_t mr, std::size_t mc, Boundary b,
                             const LaunchPlan& plan) {
  const bool valid = b == Boundary::valid;
  const std::size_t er = valid ? rows : rows + mr - 1, ec = valid ? cols : cols + mc - 1;
  const long ay = valid ? 0 : long(mr - 1) / 2, ax = valid ? 0 : long(mc - 1) / 2;
  double e2 = 0;
  for (std::size_t y = 0; y < er; ++y)
    for (std::size_t x = 0; x < ec; ++x) {
      long sy = long(y) - ay, sx = long(x) - ax;
      if (b == Boundary::clamp) {
        sy = std::min(std::max(sy, 0L), long(rows) - 1);
        sx = std::min(std::max(sx, 0L), long(cols) - 1);
      }
      if (sy >= 0 && sx >= 0 && sy < long(rows) && sx < long(cols)) {
        const double v = double(image[std::size_t(sy) * cols + std::size_t(sx)]);
        e2 += v * v;
      }
    }
  double m1 = 0;
  for (T w : mask) m1 += std::fabs(double(w));
  const std::vector<std::size_t> grid = reference::fft_grid_named(plan.decision("fft_grid")->value);
  REQUIRE(grid.back() >= ec);
  REQUIRE((grid.size() == 2 ? grid[0] : 1) >= (rows > 1 || mr > 1 ? er : 1));
  return reference::fft_correlation_bound(grid, std::numeric_limits<T>::epsilon() / 2, std::sqrt(e2) * m1);
}

// The 2-norm of got - want, and whether every output is within `bound`.
double error_norm(const std::vector<double>& got, const std::vector<double>& want) {
  double s = 0;
  for (std::size_t k = 0; k < got.size(); ++k) s += (got[k] - want[k]) * (got[k] - want[k]);
  return std::sqrt(s);
}

template <class T>
void check_fft_convolution(Context& ctx, std::size_t rows, std::size_t cols, const ConvolutionMask<T>& mask, Boundary b,
                           const PlanOptions& plan = {}) {
  const std::size_t mr = mask.rows(), mc = mask.cols();
  const std::vector<T> image = test::random_vector<T>(rows * cols);
  const std::vector<double> want = reference::convolve2d(image, rows, cols, mask.weights(), mr, mc, b);
  Buffer<T> in(ctx, image);
  Buffer<T> out(ctx, std::vector<T>(want.size(), std::numeric_limits<T>::quiet_NaN()));
  ConvolutionOptions o;
  o.boundary = b;
  o.fft = true;
  o.plan = plan;
  const LaunchPlan used = convolve2d(ctx, in, rows, cols, mask, out, o);
  INFO(rows << " x " << cols << " image, " << mr << " x " << mc << " mask, boundary " << to_string(b) << "\n"
            << used.explain());
  REQUIRE(used.decision("algorithm") != nullptr);
  CHECK(used.decision("algorithm")->value == "fft");
  REQUIRE(used.decision("fft_grid") != nullptr);
  const double bound = fft_convolution_bound(image, rows, cols, mask.weights(), mr, mc, b, used);
  INFO("bound " << bound);
  const std::vector<T> raw = out.download();
  const std::vector<double> got(raw.begin(), raw.end());
  std::size_t bad = 0, first = got.size();
  for (std::size_t k = 0; k < got.size(); ++k)
    if (!(std::fabs(got[k] - want[k]) <= bound) && bad++ == 0) first = k;
  INFO("first bad output " << first
                           << (first < got.size()
                                   ? ": " + std::to_string(got[first]) + " against " + std::to_string(want[first])
                                   : std::string()));
  CHECK(bad == 0);
  CHECK(error_norm(got, want) <= bound);
  // The bound sees the result moved by one cell along its rows.
  if (got.size() > 1 && mc > 1) {
    std::vector<double> shifted(got.begin() + 1, got.end());
    shifted.push_back(got.front());
    CHECK_FALSE(error_norm(shifted, want) <= bound);
  }
}

template <class T>
void check_fft_convolution(Context& ctx, std::size_t rows, std::size_t cols, std::size_t mr, std::size_t mc, Boundary b,
                           const PlanOptions& plan = {}) {
  check_fft_convolution<T>(ctx, rows, cols, ConvolutionMask<T>(ctx, test::random_vector<T>(mr * mc, 0.1, 1.0), mr, mc),
                           b, plan);
}

}  // namespace

TEMPLATE_TEST_CASE("convolution by FFT matches the direct host sum for every boundary at awkward sizes",
                   "[convolution][convolution_fft]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // Images of 1, primes and odd sizes against masks of 1 x 1 up to 17 x 13,
  // even and odd, wider and taller than the image in the extended forms.
  const std::pair<std::size_t, std::size_t> images[] = {{1, 1}, {2, 3}, {13, 17}, {37, 101}, {129, 31}, {97, 89}};
  const std::pair<std::size_t, std::size_t> masks[] = {{1, 1}, {3, 3}, {2, 4}, {7, 1}, {17, 13}};
  for (auto [rows, cols] : images)
    for (auto [mr, mc] : masks)
      for (Boundary b : {Boundary::valid, Boundary::zero, Boundary::clamp})
        if (b != Boundary::valid || (mr <= rows && mc <= cols)) check_fft_convolution<T>(ctx, rows, cols, mr, mc, b);
}

TEST_CASE("1D convolution by FFT matches the host at awkward lengths", "[convolution][convolution_fft]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : {1, 2, 7, 97, 1009, 4099})
    for (std::size_t mc : {1, 5, 64})
      for (Boundary b : {Boundary::valid, Boundary::zero, Boundary::clamp})
        if (b != Boundary::valid || mc <= n) check_fft_convolution<float>(ctx, 1, n, 1, mc, b);
}

TEMPLATE_TEST_CASE("convolution by FFT runs under every device class's plan", "[convolution][convolution_fft]", float,
                   double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const Boundary boundaries[] = {Boundary::valid, Boundary::zero, Boundary::clamp};
  std::size_t turn = 0;
  for (const auto& [f, opt] : test::class_plans(element_of<T>::value)) {
    INFO(f);
    check_fft_convolution<T>(ctx, 67, 53, 9, 11, boundaries[turn++ % 3], opt);
  }
}

TEST_CASE("rule convolution.fft: the FFT for a large mask, directly for a small one, the caller's choice wins",
          "[convolution][convolution_fft]") {
  Context& ctx = test::cpu_context();
  const std::size_t rows = 200, cols = 300;
  Buffer<float> in(ctx, test::random_vector<float>(rows * cols)), out(ctx, rows * cols);
  const auto algorithm = [&](std::size_t m, std::optional<bool> forced) {
    const ConvolutionMask<float> mask(ctx, test::random_vector<float>(m * m, 0.1, 1.0), m, m);
    ConvolutionOptions o;
    o.fft = forced;
    const LaunchPlan plan = convolve2d(ctx, in, rows, cols, mask, out, o);
    REQUIRE(plan.decision("algorithm") != nullptr);
    INFO(plan.explain());
    CHECK(plan.decision("algorithm")->rule == (forced ? "caller.choice" : "convolution.fft"));
    return plan.decision("algorithm")->value;
  };
  CHECK(algorithm(3, std::nullopt) == "direct");
  CHECK(algorithm(61, std::nullopt) == "fft");
  CHECK(algorithm(3, true) == "fft");
  CHECK(algorithm(61, false) == "direct");
}

TEST_CASE("convolution by FFT keeps the mask's spectrum for its grid and remakes it for another",
          "[convolution][convolution_fft]") {
  Context& ctx = test::cpu_context();
  const ConvolutionMask<float> mask(ctx, test::random_vector<float>(7 * 5, 0.1, 1.0), 7, 5);
  const ConvolutionMask<float> copy = mask;  // shares what the mask keeps
  // Grids 60 x 54, then 36 x 36, then the first again; the copy on both.
  check_fft_convolution<float>(ctx, 54, 50, mask, Boundary::zero);
  check_fft_convolution<float>(ctx, 54, 50, mask, Boundary::clamp);
  check_fft_convolution<float>(ctx, 30, 32, copy, Boundary::zero);
  check_fft_convolution<float>(ctx, 54, 50, copy, Boundary::valid);
  check_fft_convolution<float>(ctx, 54, 50, mask, Boundary::zero);
}
