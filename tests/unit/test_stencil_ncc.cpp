// SPDX-License-Identifier: Apache-2.0
// Normalised cross-correlation against the double-precision host reference
// on random 8-bit, float and double images of awkward sizes, both variants, several
// offsets per work-item and every device class's plan, maps poisoned
// before each launch; a template cut from the image matches itself with
// 1 at its origin (templates of 8, 16, 28 and 52 pixels square) and is the
// best match; flat windows and flat templates give 0; a template so large
// that its 8-bit sums need 64 bits; bad input refused.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "portacl/stencil.hpp"
#include "../../src/tuning/stencil_reference.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

template <class P>
std::vector<P> random_pixels(std::size_t n) {
  std::vector<P> v(n);
  if constexpr (std::is_same<P, std::uint8_t>::value) {
    std::uniform_int_distribution<int> d(0, 255);
    for (auto& e : v) e = static_cast<P>(d(test::rng()));
  } else {
    std::uniform_real_distribution<P> d(-1, 1);
    for (auto& e : v) e = d(test::rng());
  }
  return v;
}

// How far reference::ncc's double coefficient at window (y, x) may stand
// from the exact one. Its means carry the sum's roundings (none for
// 8-bit pixels, whose sums are exact) and the division's: d_m, d_t. As
// the deviations from the exact means sum to 0, the computed means move
// cross only by n d_m d_t and squares only by n d_m^2. Each of the n
// terms takes two subtractions and a product, the n-term sum up to n - 1
// roundings of its running value: (n + 2) u of the sum of the terms'
// magnitudes, an absolute error of cross that matters when the
// coefficient is near 0, and a relative one of squares and t_squares;
// then their product, root and the division.
template <class P>
double reference_error(const std::vector<P>& image, std::size_t cols, const std::vector<P>& templ, std::size_t tr,
                       std::size_t tc, std::size_t y, std::size_t x, double want) {
  const double n = double(tr * tc), u = test::kDoubleU;
  const bool exact_sums = std::is_same<P, std::uint8_t>::value;
  double t_mean = 0, t_abs = 0, mean = 0, abs = 0;
  for (std::size_t i = 0; i < tr; ++i)
    for (std::size_t j = 0; j < tc; ++j) {
      const double v = double(image[(y + i) * cols + x + j]), t = double(templ[i * tc + j]);
      mean += v, abs += std::fabs(v), t_mean += t, t_abs += std::fabs(t);
    }
  mean /= n, t_mean /= n;
  const double d_m = (exact_sums ? 0 : (n - 1) * u * abs / n) + u * std::fabs(mean);
  const double d_t = (exact_sums ? 0 : (n - 1) * u * t_abs / n) + u * std::fabs(t_mean);
  double terms = 0, squares = 0, t_squares = 0;
  for (std::size_t i = 0; i < tr; ++i)
    for (std::size_t j = 0; j < tc; ++j) {
      const double v = double(image[(y + i) * cols + x + j]) - mean, t = double(templ[i * tc + j]) - t_mean;
      terms += std::fabs(v * t), squares += v * v, t_squares += t * t;
    }
  if (!(squares > 0) || !(t_squares > 0)) return 0;
  const double scale = std::sqrt(squares * t_squares);
  return ((n + 2) * u * terms + n * d_m * d_t) / scale +
         std::fabs(want) * ((n + 2) * u + n * d_m * d_m / (2 * squares) + n * d_t * d_t / (2 * t_squares) + 3 * u);
}

// How far the device's coefficient at window (y, x) may stand from the
// double reference's `want`, following ncc_coefficient and NCC_ROW_SUMS
// under `plan` (REAL: double where the device has it, else float). 8-bit:
// the sums are exact, so only the coefficient's arithmetic remains: in
// float, three conversions (half of two of them in the roots), two roots,
// a product and a division; in double, the roots, product and division
// correctly rounded; then one rounding to float. Float images: each
// window sum carries a rounding of its running value per add (the row's
// tc adds, two per slide of the row sums over up to OUTPUTS_X - 1 earlier
// columns, the tr rows, and the products for s_ii and s_it); the template,
// less its mean, rounded to float once on the host; the variance's
// product, division and subtraction; then the coefficient as above.
// Both add the double reference's own error (reference_error): its
// absolute part decides when the coefficient is near 0.
template <class P>
double ncc_margin(const std::vector<P>& image, std::size_t cols, const std::vector<P>& templ, std::size_t tr,
                  std::size_t tc, std::size_t y, std::size_t x, double want, const LaunchPlan& plan) {
  const bool wide = plan.macros.at("REAL") == "double";
  const double u = wide ? test::kDoubleU : test::kFloatU;
  const double root_u = wide ? 1 : test::kSqrtU, divide_u = wide ? 1 : test::kDivisionU;
  const double c = std::fabs(want);
  if constexpr (std::is_same<P, std::uint8_t>::value) {
    return ((wide ? 0 : 2) + 2 * root_u + 1 + divide_u) * u * c + test::kFloatU * c +
           reference_error(image, cols, templ, tr, tc, y, x, want);
  } else {
    const double n = double(tr * tc), slides = std::stod(plan.macros.at("OUTPUTS_X")) - 1;
    double t_mean = 0;
    for (P v : templ) t_mean += double(v);
    t_mean /= n;
    double t_var = 0;
    for (P v : templ) t_var += (double(v) - t_mean) * (double(v) - t_mean);
    double s_i = 0, s_ii = 0, span_i = 0, span_ii = 0, cross = 0;
    const std::size_t first = x > std::size_t(slides) ? x - std::size_t(slides) : 0;
    for (std::size_t i = 0; i < tr; ++i) {
      for (std::size_t j = first; j < x + tc; ++j) {
        const double v = double(image[(y + i) * cols + j]);
        span_i += std::fabs(v);
        span_ii += v * v;
        if (j >= x) {
          s_i += v;
          s_ii += v * v;
          cross += std::fabs(v) * std::fabs(double(templ[i * tc + j - x]) - t_mean);
        }
      }
    }
    const double var = s_ii - s_i * s_i / n;
    if (!(var > 1e-12 * s_ii) || t_var == 0) return test::kFloatU * c;
    const double adds = double(tc) + 2 * slides + double(tr);
    const double d_i = adds * u * span_i, d_ii = (adds + 1) * u * span_ii;
    // The template less its mean is rounded to the pixels' type once on the host.
    const double pixel_u = std::is_same<P, double>::value ? test::kDoubleU : test::kFloatU;
    const double d_it = (double(tc + tr) + 1) * u * cross + pixel_u * cross;
    const double d_var = d_ii + 2 * std::fabs(s_i) * d_i / n + u * (2 * s_i * s_i / n + s_ii);
    const double scale = std::sqrt(var * t_var);
    return d_it / scale +
           c * (d_var / (2 * var) + ((wide ? 0 : 0.5) + 0.5 + root_u + 1 + divide_u) * u + test::kFloatU) +
           test::kFloatU * c + reference_error(image, cols, templ, tr, tc, y, x, want);
  }
}

// The map in a NaN-poisoned buffer, compared with the host within
// ncc_margin at every offset.
template <class P>
void check_ncc(Context& ctx, const std::vector<P>& image, std::size_t rows, std::size_t cols,
               const std::vector<P>& templ, std::size_t tr, std::size_t tc, const NccOptions& o) {
  const std::vector<double> want = reference::ncc(image, rows, cols, templ, tr, tc);
  Buffer<P> in(ctx, image);
  Buffer<float> map(ctx, std::vector<float>(want.size(), std::numeric_limits<float>::quiet_NaN()));
  const LaunchPlan used = ncc(ctx, in, rows, cols, templ, tr, tc, map, o);
  INFO(rows << " x " << cols << " image, " << tr << " x " << tc << " template, "
            << (std::is_same<P, float>::value ? "float" : "8-bit") << ", tile "
            << (o.local_tile ? (*o.local_tile ? "on" : "off") : "rules") << "\n"
            << used.explain());
  const std::vector<float> got = map.download();
  const std::size_t mc = cols - tc + 1;
  std::size_t bad = 0, first = got.size();
  for (std::size_t k = 0; k < got.size(); ++k)
    if (!(std::fabs(double(got[k]) - want[k]) <=
          ncc_margin(image, cols, templ, tr, tc, k / mc, k % mc, want[k], used)) &&
        bad++ == 0)
      first = k;
  INFO("first bad offset " << first
                           << (first < got.size()
                                   ? ": " + std::to_string(got[first]) + " against " + std::to_string(want[first])
                                   : std::string()));
  CHECK(bad == 0);
  // The margin sees an offset's coefficient off by 10^-4 (of the range
  // [-1, 1]).
  if (!got.empty())
    CHECK_FALSE(std::fabs(double(got[0]) + 1e-4 - want[0]) <=
                ncc_margin(image, cols, templ, tr, tc, 0, 0, want[0], used));
}

template <class P>
std::vector<P> cut(const std::vector<P>& image, std::size_t cols, std::size_t r0, std::size_t c0, std::size_t tr,
                   std::size_t tc) {
  std::vector<P> t(tr * tc);
  for (std::size_t i = 0; i < tr; ++i)
    for (std::size_t j = 0; j < tc; ++j) t[i * tc + j] = image[(r0 + i) * cols + c0 + j];
  return t;
}

}  // namespace

TEMPLATE_TEST_CASE("NCC matches the host on random images in both variants", "[ncc]", std::uint8_t, float, double) {
  using P = TestType;
  Context& ctx = test::cpu_context();
  struct Case {
    std::size_t rows, cols, tr, tc;
  };
  for (const Case c : std::vector<Case>{{1, 1, 1, 1}, {2, 3, 2, 2}, {17, 23, 3, 5}, {61, 67, 8, 8}, {53, 97, 16, 16}})
    for (std::optional<bool> tile : {std::optional<bool>(), std::optional<bool>(true), std::optional<bool>(false)}) {
      NccOptions o;
      o.local_tile = tile;
      check_ncc<P>(ctx, random_pixels<P>(c.rows * c.cols), c.rows, c.cols, random_pixels<P>(c.tr * c.tc), c.tr, c.tc,
                   o);
    }
  for (std::size_t outputs : {1, 3, 8}) {
    NccOptions o;
    o.outputs_per_work_item = outputs;
    o.local_tile = outputs != 3;
    o.constant_template = outputs != 1;  // the template in global memory once, as beyond the constant buffer
    check_ncc<P>(ctx, random_pixels<P>(41 * 59), 41, 59, random_pixels<P>(7 * 6), 7, 6, o);
  }
}

TEMPLATE_TEST_CASE("NCC runs under every device class's plan", "[ncc]", std::uint8_t, float, double) {
  Context& ctx = test::cpu_context();
  // Double images: the classes' devices that have fp64.
  for (const auto& [f, opt] :
       test::class_plans(std::is_same<TestType, double>::value ? ElementType::f64 : ElementType::f32)) {
    INFO(f);
    NccOptions o;
    o.plan = opt;
    check_ncc<TestType>(ctx, random_pixels<TestType>(45 * 71), 45, 71, random_pixels<TestType>(9 * 11), 9, 11, o);
  }
}

TEMPLATE_TEST_CASE("NCC: a template cut from the image matches itself with 1 and is the best match", "[ncc]",
                   std::uint8_t, float, double) {
  using P = TestType;
  Context& ctx = test::cpu_context();
  const std::size_t rows = 131, cols = 149;
  const std::vector<P> image = random_pixels<P>(rows * cols);
  Buffer<P> in(ctx, image);
  for (std::size_t side : {8, 16, 28, 52}) {
    const std::size_t r0 = 37, c0 = 61;
    const auto [mr, mc] = ncc_map_size(rows, cols, side, side);
    for (bool tile : {false, true}) {
      INFO("template " << side << " x " << side << ", tile " << tile);
      Buffer<float> map(ctx, std::vector<float>(mr * mc, std::numeric_limits<float>::quiet_NaN()));
      NccOptions o;
      o.local_tile = tile;
      const LaunchPlan used = ncc(ctx, in, rows, cols, cut(image, cols, r0, c0, side, side), side, side, map, o);
      const float at = map.download()[r0 * mc + c0];
      CHECK(std::fabs(double(at) - 1.0) <=
            ncc_margin(image, cols, cut(image, cols, r0, c0, side, side), side, side, r0, c0, 1.0, used));
      const NccMatch best = ncc_best_match(ctx, map, mr, mc);
      CHECK(best.row == r0);
      CHECK(best.col == c0);
      CHECK(best.score == at);
    }
  }
}

TEMPLATE_TEST_CASE("NCC: flat windows and flat templates give 0", "[ncc]", std::uint8_t, float, double) {
  using P = TestType;
  Context& ctx = test::cpu_context();
  const std::size_t rows = 40, cols = 50, side = 6;
  std::vector<P> image = random_pixels<P>(rows * cols);
  for (std::size_t y = 10; y < 30; ++y)
    for (std::size_t x = 5; x < 35; ++x) image[y * cols + x] = P(100);  // a flat patch
  const auto [mr, mc] = ncc_map_size(rows, cols, side, side);
  Buffer<P> in(ctx, image);
  Buffer<float> map(ctx, mr * mc);
  ncc(ctx, in, rows, cols, random_pixels<P>(side * side), side, side, map);
  const std::vector<float> got = map.download();
  for (std::size_t y = 10; y + side <= 30; ++y)
    for (std::size_t x = 5; x + side <= 35; ++x) CHECK(got[y * mc + x] == 0.0f);
  check_ncc<P>(ctx, image, rows, cols, random_pixels<P>(side * side), side, side, {});  // around the patch too
  ncc(ctx, in, rows, cols, std::vector<P>(side * side, P(7)), side, side, map);
  for (float v : map.download()) CHECK(v == 0.0f);
}

TEST_CASE("NCC: an 8-bit template of 258^2 bright pixels, whose sums need 64 bits, matches the host", "[ncc]") {
  Context& ctx = test::cpu_context();
  const std::size_t rows = 263, cols = 266, side = 258;
  // Pixels of 254 and 255: a window's sum of squares is about 4.31e9, past
  // 32 bits.
  std::vector<std::uint8_t> image(rows * cols);
  std::bernoulli_distribution bit(0.5);
  for (auto& v : image) v = bit(test::rng()) ? 255 : 254;
  const std::vector<std::uint8_t> templ = cut(image, cols, 3, 5, side, side);
  check_ncc<std::uint8_t>(ctx, image, rows, cols, templ, side, side, {});
  Buffer<std::uint8_t> in(ctx, image);
  Buffer<float> map(ctx, 6 * 9);
  const LaunchPlan used = ncc(ctx, in, rows, cols, templ, side, side, map);
  CHECK(std::fabs(double(map.download()[3 * 9 + 5]) - 1.0) <=
        ncc_margin(image, cols, templ, side, side, 3, 5, 1.0, used));
}

TEMPLATE_TEST_CASE("NCC: a prepared template serves many images, as the one-call form does", "[ncc]", std::uint8_t,
                   float, double) {
  using P = TestType;
  Context& ctx = test::cpu_context();
  const std::size_t rows = 41, cols = 53, tr = 9, tc = 11;
  const std::vector<P> pixels = random_pixels<P>(tr * tc);
  const NccTemplate<P> prepared(ctx, pixels, tr, tc);
  CHECK(prepared.rows() == tr);
  CHECK(prepared.cols() == tc);
  const auto [mr, mc] = ncc_map_size(rows, cols, tr, tc);
  for (int frame = 0; frame < 3; ++frame) {
    INFO("frame " << frame);
    const std::vector<P> image = random_pixels<P>(rows * cols);
    Buffer<P> in(ctx, image);
    Buffer<float> once(ctx, std::vector<float>(mr * mc, std::numeric_limits<float>::quiet_NaN()));
    Buffer<float> again(ctx, std::vector<float>(mr * mc, std::numeric_limits<float>::quiet_NaN()));
    ncc(ctx, in, rows, cols, prepared, once);
    ncc(ctx, in, rows, cols, pixels, tr, tc, again);
    CHECK(once.download() == again.download());  // the same kernel and sums: identical maps
    check_ncc<P>(ctx, image, rows, cols, pixels, tr, tc, {});
  }
  Context& other = test::another_context();
  const NccTemplate<P> foreign(other, pixels, tr, tc);
  Buffer<P> in(ctx, random_pixels<P>(rows * cols));
  Buffer<float> map(ctx, mr * mc);
  CHECK_THROWS_WITH(ncc(ctx, in, rows, cols, foreign, map), Catch::Contains("template belongs to another context"));
}

TEST_CASE("NCC refuses bad input before any launch", "[ncc]") {
  Context& ctx = test::cpu_context();
  Buffer<std::uint8_t> image(ctx, 10 * 12);
  Buffer<float> map(ctx, 8 * 10), small(ctx, 3);
  const std::vector<std::uint8_t> t(9, 1);
  CHECK_THROWS_WITH(ncc(ctx, image, 10, 12, t, 3, 3, small), Catch::Contains("map has 3 elements"));
  CHECK_THROWS_WITH(ncc(ctx, image, 11, 12, t, 3, 3, map), Catch::Contains("image buffer has 120 pixels"));
  CHECK_THROWS_WITH(ncc(ctx, image, 10, 12, std::vector<std::uint8_t>(8, 1), 3, 3, map),
                    Catch::Contains("8 template pixels"));
  CHECK_THROWS_WITH(ncc(ctx, image, 10, 12, std::vector<std::uint8_t>(11 * 3, 1), 11, 3, map),
                    Catch::Contains("does not fit"));
  CHECK_THROWS_WITH(ncc(ctx, image, 10, 12, std::vector<std::uint8_t>{}, 0, 3, map), Catch::Contains("empty"));
  NccOptions many;
  many.outputs_per_work_item = 0;
  CHECK_THROWS_WITH(ncc(ctx, image, 10, 12, t, 3, 3, map, many), Catch::Contains("outputs_per_work_item"));
  Buffer<float> fimage(ctx, 10 * 12);
  std::vector<float> nan(9, 1.0f);
  nan[2] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH(ncc(ctx, fimage, 10, 12, nan, 3, 3, map), Catch::Contains("template pixel 2"));
  CHECK_THROWS_WITH(ncc_best_match(ctx, map, 7, 10), Catch::Contains("not 7 x 10"));
}
