// SPDX-License-Identifier: Apache-2.0
// 1D and 2D convolution against the double-precision host reference on
// random images of awkward sizes, every boundary, every variant and every
// device class's plan, outputs poisoned before each launch; an impulse
// gives the mask back mirrored, a constant image the mask's sum; separable
// masks give the direct result in two passes; the mask in constant or
// global memory agrees; bad input is refused before any launch.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>

#include "portacl/stencil.hpp"
#include "../../src/tuning/stencil_reference.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

struct MaskShape {
  std::size_t rows, cols;
};

// Runs the convolution into a NaN-poisoned output and compares with the
// host: each output sums rows x cols products of magnitudes below 2 x 2.
template <class T>
void check_convolution(Context& ctx, std::size_t rows, std::size_t cols, const ConvolutionMask<T>& mask,
                       const ConvolutionOptions& o) {
  const std::vector<T> image = test::random_vector<T>(rows * cols);
  const std::vector<double> want =
      reference::convolve2d(image, rows, cols, mask.weights(), mask.rows(), mask.cols(), o.boundary);
  Buffer<T> in(ctx, image);
  Buffer<T> out(ctx, std::vector<T>(want.size(), std::numeric_limits<T>::quiet_NaN()));
  const LaunchPlan used = convolve2d(ctx, in, rows, cols, mask, out, o);
  INFO(rows << " x " << cols << " image, " << mask.rows() << " x " << mask.cols() << " mask, boundary "
            << to_string(o.boundary) << ", tile " << (o.local_tile ? (*o.local_tile ? "on" : "off") : "rules")
            << ", outputs " << (o.outputs_per_work_item ? std::to_string(*o.outputs_per_work_item) : "rules") << "\n"
            << used.explain());
  const std::vector<T> got = out.download();
  const double bound = 4.0 * double(mask.rows() * mask.cols() + 1) * 4.0 * std::numeric_limits<T>::epsilon();
  std::size_t bad = 0, first = got.size();
  for (std::size_t k = 0; k < got.size(); ++k)
    if (!(std::fabs(double(got[k]) - want[k]) <= bound) && bad++ == 0) first = k;
  INFO("first bad output " << first
                           << (first < got.size() ? ": " + std::to_string(double(got[first])) + " against " +
                                                        std::to_string(want[first])
                                                  : std::string()));
  CHECK(bad == 0);
}

template <class T>
ConvolutionMask<T> random_mask(Context& ctx, std::size_t rows, std::size_t cols) {
  return ConvolutionMask<T>(ctx, test::random_vector<T>(rows * cols, 0.1, 1.0), rows, cols);
}

// A Gaussian-like separable mask: the outer product of two binomial rows.
template <class T>
std::vector<T> binomial_outer(std::size_t rows, std::size_t cols) {
  auto binomial = [](std::size_t n) {
    std::vector<double> b(n, 0);
    b[0] = 1;
    for (std::size_t k = 1; k < n; ++k)
      for (std::size_t j = k; j > 0; --j) b[j] += b[j - 1];
    return b;
  };
  const std::vector<double> a = binomial(rows), b = binomial(cols);
  std::vector<T> m(rows * cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      m[i * cols + j] = static_cast<T>(a[i] * b[j] / double(1u << (rows + cols - 2)));
  return m;
}

const std::vector<std::pair<std::size_t, std::size_t>> awkward_images{{1, 1},   {2, 2},    {1, 7},   {7, 1},
                                                                      {13, 17}, {37, 101}, {129, 31}};
const std::vector<MaskShape> masks{{1, 1}, {3, 3}, {5, 5}, {2, 4}, {7, 1}};

}  // namespace

TEMPLATE_TEST_CASE("2D convolution matches the host for every boundary and variant at awkward sizes", "[convolution]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // Each variant meets every mask and every boundary (not every triple: each
  // combination is a program to build).
  const std::optional<bool> variants[] = {std::nullopt, true, false};
  std::size_t turn = 0;
  for (const MaskShape m : masks) {
    const ConvolutionMask<T> mask = random_mask<T>(ctx, m.rows, m.cols);
    for (Boundary b : {Boundary::valid, Boundary::zero, Boundary::clamp}) {
      ConvolutionOptions o;
      o.boundary = b;
      o.local_tile = variants[turn++ % 3];
      for (auto [rows, cols] : awkward_images)
        if (b != Boundary::valid || (m.rows <= rows && m.cols <= cols)) check_convolution<T>(ctx, rows, cols, mask, o);
    }
  }
}

// Float only: the element type changes nothing here that the other cases
// do not cover in double, and each combination is a program to build.
TEST_CASE("2D convolution with several outputs per work-item and either mask memory", "[convolution]") {
  using T = float;
  Context& ctx = test::cpu_context();
  const ConvolutionMask<T> mask = random_mask<T>(ctx, 5, 5);
  bool constant = false;
  for (std::size_t outputs : {1, 3, 4, 8})
    for (bool tile : {false, true}) {
      ConvolutionOptions o;
      o.boundary = Boundary::clamp;
      o.local_tile = tile;
      o.outputs_per_work_item = outputs;
      o.constant_mask = constant = !constant;      // each variant meets both memories
      check_convolution<T>(ctx, 41, 67, mask, o);  // 67 columns: a remainder for every count
    }
}

// Rows that are multiples of a work-item's outputs take aligned vector
// reads (and writes where the output rows are multiples too); the windows
// at the image's edges keep the scalar reads. 3 x 7: a halo of 3 columns.
TEMPLATE_TEST_CASE("2D convolution with aligned vector rows where the columns allow", "[convolution]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const Boundary boundaries[] = {Boundary::valid, Boundary::zero, Boundary::clamp};
  std::size_t turn = 0;
  for (const MaskShape m : std::vector<MaskShape>{{5, 5}, {3, 7}}) {
    const ConvolutionMask<T> mask = random_mask<T>(ctx, m.rows, m.cols);
    for (std::size_t outputs : {2, 4, 8}) {
      if (sizeof(T) == 8 && outputs != 4) continue;  // double: one width is enough to build
      ConvolutionOptions o;
      o.boundary = boundaries[turn++ % 3];
      o.local_tile = false;
      o.outputs_per_work_item = outputs;
      o.output_rows_per_work_item = outputs == 8 ? 3 : 2;
      for (auto [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{{41, 64}, {9, 24}, {7, 8}})
        check_convolution<T>(ctx, rows, cols, mask, o);
    }
  }
}

TEMPLATE_TEST_CASE("2D convolution runs under every device class's plan", "[convolution]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const ConvolutionMask<T> mask = random_mask<T>(ctx, 5, 5);
  // Each class meets one boundary in turn, with the rules' variant and the tile.
  const Boundary boundaries[] = {Boundary::valid, Boundary::zero, Boundary::clamp};
  std::size_t turn = 0;
  for (const auto& [f, opt] : test::class_plans(element_of<T>::value)) {
    INFO(f);
    for (std::optional<bool> tile : {std::optional<bool>(), std::optional<bool>(true)}) {
      ConvolutionOptions o;
      o.boundary = boundaries[turn % 3];
      o.local_tile = tile;
      o.plan = opt;
      check_convolution<T>(ctx, 53, 71, mask, o);
    }
    ++turn;
  }
}

TEMPLATE_TEST_CASE("convolution: an impulse gives the mask back mirrored, a constant image the mask's sum",
                   "[convolution]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const std::size_t rows = 19, cols = 23, mr = 5, mc = 3;
  const ConvolutionMask<T> mask = random_mask<T>(ctx, mr, mc);
  std::vector<T> impulse(rows * cols, T(0));
  const std::size_t py = 9, px = 11;
  impulse[py * cols + px] = T(1);
  Buffer<T> in(ctx, impulse), out(ctx, rows * cols);
  convolve2d(ctx, in, rows, cols, mask, out);
  const std::vector<T> got = out.download();
  for (std::size_t y = 0; y < rows; ++y)
    for (std::size_t x = 0; x < cols; ++x) {
      // out[y][x] takes mask[i][j] from in[y + i - 2][x + j - 1]: i = py - y + 2.
      const long i = long(py) - long(y) + 2, j = long(px) - long(x) + 1;
      const bool inside = i >= 0 && j >= 0 && i < long(mr) && j < long(mc);
      CHECK(got[y * cols + x] == (inside ? mask.weights()[std::size_t(i) * mc + std::size_t(j)] : T(0)));
    }
  double sum = 0;
  for (T w : mask.weights()) sum += double(w);
  Buffer<T> flat(ctx, std::vector<T>(rows * cols, T(3)));
  ConvolutionOptions clamp;
  clamp.boundary = Boundary::clamp;
  convolve2d(ctx, flat, rows, cols, mask, out, clamp);
  for (T v : out.download()) CHECK(std::fabs(double(v) - 3 * sum) <= 64 * std::numeric_limits<T>::epsilon());
}

// Float only here: the passes are the same kernels in double, which the
// cases above cover.
TEST_CASE("separable masks: two passes equal the direct convolution", "[convolution]") {
  using T = float;
  Context& ctx = test::cpu_context();
  for (std::size_t side : {5, 11}) {
    const ConvolutionMask<T> mask(ctx, binomial_outer<T>(side, side + 2), side, side + 2, true);
    REQUIRE(mask.separable());
    // The 5 x 7 mask meets every boundary; the 11 x 13 one (two passes by
    // the rules) the clamped one.
    for (Boundary b : side == 5 ? std::vector<Boundary>{Boundary::valid, Boundary::zero, Boundary::clamp}
                                : std::vector<Boundary>{Boundary::clamp}) {
      ConvolutionOptions o;
      o.boundary = b;
      check_convolution<T>(ctx, 61, 47, mask, o);  // the rules' choice of passes
      const std::vector<T> image = test::random_vector<T>(61 * 47);
      const auto [orows, ocols] = convolution_output_size(61, 47, side, side + 2, b);
      Buffer<T> in(ctx, image), direct(ctx, orows * ocols), split(ctx, orows * ocols);
      ConvolutionOptions one = o;
      one.use_separable = false;
      const LaunchPlan p1 = convolve2d(ctx, in, 61, 47, mask, direct, one);
      CHECK(p1.decision("passes") == nullptr);
      const std::vector<T> a = direct.download();
      // The rules decide the passes; the forced comparison goes through the factors.
      Buffer<T> mid(ctx, convolution_output_size(61, 47, side, 1, b).first * 47);
      convolve2d(ctx, in, 61, 47, *mask.column_factor(), mid, o);
      convolve2d(ctx, mid, convolution_output_size(61, 47, side, 1, b).first, 47, *mask.row_factor(), split, o);
      const std::vector<T> c = split.download();
      for (std::size_t k = 0; k < a.size(); ++k)
        CHECK(std::fabs(double(a[k]) - double(c[k])) <= 64 * std::numeric_limits<T>::epsilon());
    }
  }
  const ConvolutionMask<T> random = random_mask<T>(ctx, 5, 5);
  const ConvolutionMask<T> checked(ctx, random.weights(), 5, 5, true);
  CHECK_FALSE(checked.separable());
}

TEST_CASE("1D convolution matches the host at awkward lengths", "[convolution]") {
  using T = float;  // the 2D cases cover double; a 1D convolution is their one-row case
  Context& ctx = test::cpu_context();
  for (std::size_t taps : {1, 4, 7})
    for (std::size_t n : {1, 7, 4099, 100003})
      for (Boundary b : {Boundary::valid, Boundary::zero, Boundary::clamp}) {
        if (b == Boundary::valid && taps > n) continue;
        const ConvolutionMask<T> mask = random_mask<T>(ctx, 1, taps);
        const std::vector<T> signal = test::random_vector<T>(n);
        const std::vector<double> want = reference::convolve2d(signal, 1, n, mask.weights(), 1, taps, b);
        for (std::optional<bool> tile : {std::optional<bool>(), std::optional<bool>(b == Boundary::zero)}) {
          INFO(n << " samples, " << taps << " taps, boundary " << to_string(b));
          Buffer<T> in(ctx, signal), out(ctx, std::vector<T>(want.size(), std::numeric_limits<T>::quiet_NaN()));
          ConvolutionOptions o;
          o.boundary = b;
          o.local_tile = tile;
          convolve1d(ctx, in, n, mask, out, o);
          const std::vector<T> got = out.download();
          std::size_t bad = 0;
          for (std::size_t k = 0; k < got.size(); ++k)
            if (!(std::fabs(double(got[k]) - want[k]) <= 8.0 * (taps + 1) * std::numeric_limits<T>::epsilon())) ++bad;
          CHECK(bad == 0);
        }
      }
}

TEST_CASE("convolution refuses bad input before any launch", "[convolution]") {
  Context& ctx = test::cpu_context();
  const ConvolutionMask<float> mask(ctx, std::vector<float>(9, 1.0f), 3, 3);
  Buffer<float> in(ctx, 4 * 5), out(ctx, 4 * 5), small(ctx, 3);
  ConvolutionOptions valid;
  valid.boundary = Boundary::valid;
  Buffer<float> tiny(ctx, 2 * 2), tiny_out(ctx, 1);
  CHECK_THROWS_WITH(convolve2d(ctx, tiny, 2, 2, mask, tiny_out, valid), Catch::Contains("does not fit"));
  CHECK_THROWS_WITH(convolve2d(ctx, in, 4, 5, mask, small), Catch::Contains("out has 3 elements"));
  CHECK_THROWS_WITH(convolve2d(ctx, in, 5, 5, mask, out), Catch::Contains("in has 20 elements"));
  CHECK_THROWS_WITH(convolve2d(ctx, in, 4, 5, mask, in), Catch::Contains("same buffer"));
  ConvolutionOptions many;
  many.outputs_per_work_item = 17;
  CHECK_THROWS_WITH(convolve2d(ctx, in, 4, 5, mask, out, many), Catch::Contains("outputs_per_work_item"));
  ConvolutionOptions tall;
  tall.output_rows_per_work_item = 9;
  CHECK_THROWS_WITH(convolve2d(ctx, in, 4, 5, mask, out, tall), Catch::Contains("output_rows_per_work_item"));
  CHECK_THROWS_WITH(convolve1d(ctx, in, 20, mask, out), Catch::Contains("a 1D mask has one"));
  CHECK_THROWS_WITH(ConvolutionMask<float>(ctx, std::vector<float>(8, 1.0f), 3, 3), Catch::Contains("8 weights"));
  CHECK_THROWS_WITH(ConvolutionMask<float>(ctx, {}, 0, 3), Catch::Contains("empty"));
  std::vector<float> nan(9, 1.0f);
  nan[4] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(ConvolutionMask<float>(ctx, nan, 3, 3), Catch::Contains("weight 4 (row 1, column 1)"));
}
