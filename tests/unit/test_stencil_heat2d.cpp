// SPDX-License-Identifier: Apache-2.0
// The 2D heat equation: both variants against the double-precision host
// steps on random fields of awkward sizes, under every device class's plan;
// the analytic decay of a separable mode; a constant field is a fixed
// point; the discrete maximum principle; fixed sides, output callbacks,
// and bad input refused before any launch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "portacl/stencil.hpp"
#include "../../src/tuning/stencil_reference.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

// How far `steps` double steps of the 5-point update
// u + r (n + s + w + e - 4 u) may drift from exact ones on a field whose
// largest magnitude is `largest`: a step's three adds of the neighbours
// (partial sums up to 4 of it: 9 roundings of it), the subtraction (8),
// both carried by r, and the fused update's own rounding (1). For
// r <= 1/4 the update is a convex combination, so earlier errors are
// carried without growth.
double heat_step_margin(std::size_t steps, double r, double largest) {
  return double(steps) * (17 * r + 1) * test::kDoubleU * largest;
}

// Steps `field` on the device and compares with the host: each step adds at
// most a few roundings of values bounded by the field's largest magnitude.
template <class T>
void check_heat(Context& ctx, std::size_t rows, std::size_t cols, T r, std::size_t steps, std::optional<bool> tile,
                const PlanOptions& plan = {}, std::optional<std::size_t> per_launch = std::nullopt,
                std::optional<std::size_t> cells_x = std::nullopt, std::optional<std::size_t> cells_y = std::nullopt,
                bool fixed_sides = false) {
  auto shown = [](std::optional<std::size_t> v) { return v ? std::to_string(*v) : std::string("rules"); };
  INFO(rows << " x " << cols << ", r " << r << ", " << steps << " steps, variant "
            << (tile ? (*tile ? "tiled" : "cached") : "rules") << ", steps per launch " << shown(per_launch)
            << ", cells of a row " << shown(cells_x) << ", of a column " << shown(cells_y) << ", "
            << (fixed_sides ? "fixed sides" : "edges kept"));
  // Fixed sides: distinct values on the four sides, in the range of the
  // random field, so that a missed edge cell shows.
  const HeatSides<T> sides{T(0.75), T(-0.5), T(0.25), T(-1)};
  std::vector<T> u0 = test::random_vector<T>(rows * cols);
  Buffer<T> u(ctx, u0);
  if (fixed_sides) u0 = reference::heat2d_fixed_sides(u0, rows, cols, sides.north, sides.south, sides.west, sides.east);
  HeatOptions<T> o;
  if (fixed_sides) o.sides = sides;
  o.r = r;
  o.steps = steps;
  o.local_tile = tile;
  o.plan = plan;
  o.steps_per_launch = per_launch;
  o.cells_x = cells_x;
  o.cells_y = cells_y;
  const LaunchPlan used = heat2d(ctx, u, rows, cols, o);
  INFO(used.explain());
  const std::vector<double> want = reference::heat2d(u0, rows, cols, double(r), steps);
  const std::vector<T> got = u.download();
  const double bound = 8.0 * double(steps) * 2.0 * std::numeric_limits<T>::epsilon();  // |u| <= 2
  std::size_t bad = 0;
  for (std::size_t k = 0; k < got.size(); ++k)
    if (!(std::fabs(double(got[k]) - want[k]) <= bound)) ++bad;
  CHECK(bad == 0);
}

}  // namespace

TEMPLATE_TEST_CASE("heat 2D matches the host steps in both variants at awkward sizes", "[stencil]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  for (auto [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{
           {1, 1}, {2, 2}, {1, 7}, {7, 1}, {3, 3}, {13, 17}, {37, 101}, {64, 64}, {129, 31}})
    for (std::optional<bool> tile : {std::optional<bool>(), std::optional<bool>(true), std::optional<bool>(false)})
      check_heat<T>(ctx, rows, cols, T(0.2), 5, tile);
}

TEMPLATE_TEST_CASE("heat 2D: several cells of a row per work-item, as vectors where cols allows", "[stencil]", float,
                   double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // 8, 16 and 24 columns take 2-, 4- and 8-wide vectors (8 not for 12); 1, 7 and 101 take none.
  for (auto [rows, cols] :
       std::vector<std::pair<std::size_t, std::size_t>>{{1, 8}, {3, 7}, {5, 16}, {13, 12}, {9, 24}, {37, 101}})
    for (std::size_t cells : {1, 2, 3, 4, 8})
      if (sizeof(T) == 4 || cells == 2)  // double: one vector width (each is a program to build)
        for (bool sides : {false, true})
          check_heat<T>(ctx, rows, cols, T(0.2), 5, false, {}, std::nullopt, cells, {}, sides);
}

TEMPLATE_TEST_CASE("heat 2D with several steps per launch (temporal blocking) matches the host", "[stencil]", float,
                   double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  for (auto [rows, cols] :
       std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {2, 3}, {5, 5}, {13, 17}, {37, 101}, {67, 33}})
    for (std::size_t k : {2, 3, 4, 7})  // 7: the most a 16 x 16 work-group takes (the H100 allows no more here)
      check_heat<T>(ctx, rows, cols, T(0.21), 11, std::nullopt, {}, k, std::nullopt, std::nullopt,
                    k % 2 == 1);  // 11 steps: a remainder for every k; fixed sides for odd k
  // Strips of a column per work-item: tiles taller than the work-group.
  // Float only (each combination is a program to build); doubles take
  // strips under the GPU classes' plans below.
  if (sizeof(T) == 4)
    for (auto [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{{2, 3}, {37, 101}, {131, 29}})
      for (std::size_t k : {2, 4, 7})
        for (std::size_t cells : {2, 8, 16})
          check_heat<T>(ctx, rows, cols, T(0.21), 11, std::nullopt, {}, k, std::nullopt, cells, cells == 8);
}

TEMPLATE_TEST_CASE("heat 2D runs under every device class's plan", "[stencil]", float, double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    // Every variant with the edges kept and with fixed sides: the sides are
    // a launch of their own, whatever shape the class's step takes.
    for (bool sides : {false, true}) {
      for (std::optional<bool> tile : {std::optional<bool>(), std::optional<bool>(true), std::optional<bool>(false)})
        check_heat<TestType>(ctx, 53, 71, TestType(0.25), 4, tile, opt, std::nullopt, std::nullopt, std::nullopt,
                             sides);
      check_heat<TestType>(ctx, 53, 71, TestType(0.25), 9, std::nullopt, opt, std::size_t{4}, std::nullopt,
                           std::nullopt, sides);
      // The rules' row vectors where they apply.
      check_heat<TestType>(ctx, 29, 72, TestType(0.25), 4, false, opt, std::nullopt, std::nullopt, std::nullopt, sides);
    }
  }
}

TEST_CASE("heat 2D: a separable sine mode decays by the exact discrete factor", "[stencil]") {
  Context& ctx = test::cpu_context();
  const std::size_t m = 41, n = 67, steps = 25;
  const double r = 0.23, pi = std::acos(-1.0);
  std::vector<double> mode(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j)
      mode[i * n + j] = std::sin(pi * double(i) / double(m - 1)) * std::sin(pi * double(j) / double(n - 1));
  const double factor = 1 - 4 * r * std::pow(std::sin(pi / (2.0 * double(m - 1))), 2) -
                        4 * r * std::pow(std::sin(pi / (2.0 * double(n - 1))), 2);
  for (bool tile : {true, false}) {
    Buffer<double> u(ctx, mode);
    HeatOptions<double> o;
    o.r = r;
    o.steps = steps;
    o.local_tile = tile;
    heat2d(ctx, u, m, n, o);
    const std::vector<double> got = u.download();
    const double decay = std::pow(factor, double(steps));
    double worst = 0;
    for (std::size_t k = 0; k < got.size(); ++k) worst = std::max(worst, std::fabs(got[k] - decay * mode[k]));
    INFO("factor per step " << factor << ", worst deviation " << worst);
    // The device's steps' rounding (heat_step_margin) and the exact
    // solution's own: the mode rounded once (carried unchanged by the
    // steps), the factor by a few roundings and its power by one a step.
    CHECK(worst <= heat_step_margin(steps, r, 1.0) + (1 + 4 * double(steps) + 2) * test::kDoubleU);
  }
}

TEST_CASE("heat 2D: the boundary value everywhere is a fixed point; the maximum principle holds", "[stencil]") {
  Context& ctx = test::cpu_context();
  const std::size_t rows = 31, cols = 45;
  HeatOptions<float> o;
  o.steps = 7;
  o.sides = HeatSides<float>{0.625f, 0.625f, 0.625f, 0.625f};
  Buffer<float> flat(ctx, std::vector<float>(rows * cols, 0.625f));
  heat2d(ctx, flat, rows, cols, o);
  CHECK(test::first_difference(flat.download(), std::vector<float>(rows * cols, 0.625f)) == "equal");
  // r <= 1/4: each new value is a convex combination of old ones, so the
  // field never leaves [min, max] of the step before.
  std::vector<float> u0 = test::random_vector<float>(rows * cols);
  Buffer<float> u(ctx, u0);
  HeatOptions<float> one;
  one.r = 0.25f;
  for (int s = 0; s < 6; ++s) {
    const auto [lo, hi] = std::minmax_element(u0.begin(), u0.end());
    const float low = *lo, high = *hi;
    heat2d(ctx, u, rows, cols, one);
    u0 = u.download();
    CHECK(*std::min_element(u0.begin(), u0.end()) >= low);
    CHECK(*std::max_element(u0.begin(), u0.end()) <= high);
  }
}

TEST_CASE("heat 2D: fixed sides, output every k steps, and bad input", "[stencil]") {
  Context& ctx = test::cpu_context();
  const std::size_t rows = 9, cols = 12;
  const std::vector<double> u0 = test::random_vector<double>(rows * cols);
  Buffer<double> u(ctx, u0);
  HeatOptions<double> o;
  o.r = 0.125;
  o.steps = 10;
  o.sides = HeatSides<double>{1.0, 2.0, 3.0, 4.0};
  std::vector<std::size_t> seen;
  const std::vector<double> with_sides = reference::heat2d_fixed_sides(u0, rows, cols, 1.0, 2.0, 3.0, 4.0);
  o.output_every = 3;
  o.on_output = [&](std::size_t step, const Buffer<double>& field) {
    seen.push_back(step);
    const std::vector<double> want = reference::heat2d(with_sides, rows, cols, 0.125, step);
    const std::vector<double> got = field.download();
    double worst = 0, largest = 4;  // the sides' largest value
    for (std::size_t k = 0; k < got.size(); ++k) {
      worst = std::max(worst, std::fabs(got[k] - want[k]));
      largest = std::max(largest, std::fabs(with_sides[k]));
    }
    // Both the device and the host round their steps.
    CHECK(worst <= 2 * heat_step_margin(step, 0.125, largest));
  };
  heat2d(ctx, u, rows, cols, o);
  CHECK(seen == std::vector<std::size_t>{3, 6, 9});
  // With 4 steps per launch, no launch crosses an output step.
  seen.clear();
  u.upload(u0);
  o.steps_per_launch = 4;
  heat2d(ctx, u, rows, cols, o);
  CHECK(seen == std::vector<std::size_t>{3, 6, 9});
  const std::vector<double> final_field = u.download();
  CHECK(final_field[0] == 1.0);
  CHECK(final_field[(rows - 1) * cols + 5] == 2.0);
  CHECK(final_field[4 * cols] == 3.0);
  CHECK(final_field[4 * cols + cols - 1] == 4.0);

  HeatOptions<double> bad;
  bad.r = 0.2501;
  CHECK_THROWS_WITH(heat2d(ctx, u, rows, cols, bad), Catch::Contains("stability limit r <= 1/4"));
  bad.r = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(heat2d(ctx, u, rows, cols, bad), Catch::Contains("r must be a finite number >= 0"));
  bad.r = 0.1;
  bad.steps = 0;
  CHECK_THROWS_WITH(heat2d(ctx, u, rows, cols, bad), Catch::Contains("zero steps"));
  bad.steps = 1;
  CHECK_THROWS_WITH(heat2d(ctx, u, rows + 1, cols, bad), Catch::Contains("u has 108 elements but the grid is 10 x 12"));
  bad.output_every = 2;
  CHECK_THROWS_WITH(heat2d(ctx, u, rows, cols, bad), Catch::Contains("no on_output callback"));
  bad.output_every = 0;
  bad.steps_per_launch = 17;
  CHECK_THROWS_WITH(heat2d(ctx, u, rows, cols, bad), Catch::Contains("steps_per_launch must be 1 to 16, not 17"));
  bad.steps_per_launch.reset();
  bad.cells_x = 9;
  CHECK_THROWS_WITH(heat2d(ctx, u, rows, cols, bad), Catch::Contains("cells_x must be 1 to 8, not 9"));
  bad.cells_x.reset();
  bad.cells_y = 3;
  CHECK_THROWS_WITH(heat2d(ctx, u, rows, cols, bad), Catch::Contains("cells_y must be 1, 2, 4, 8 or 16"));
}

TEST_CASE("heat 2D: a call inside another's callback, and calls of other sizes, keep both fields right", "[stencil]") {
  // heat2d's second grid is the context's scratch memory between calls; a
  // call with a callback makes its own, so that a heat2d inside the
  // callback (scratch) cannot overwrite the outer call's field.
  Context& ctx = test::cpu_context();
  // The inner grid is the smaller, so that it would reuse the outer's
  // second grid, which after an odd step holds the outer's field.
  const std::size_t rows = 23, cols = 31, inner_rows = 9, inner_cols = 12;
  const std::vector<double> outer0 = test::random_vector<double>(rows * cols);
  const std::vector<double> inner0 = test::random_vector<double>(inner_rows * inner_cols);
  Buffer<double> outer(ctx, outer0);
  HeatOptions<double> o;
  o.r = 0.2;
  o.steps = 7;  // odd: the result comes back from the second grid
  o.output_every = 3;
  std::size_t inner_steps = 0;
  o.on_output = [&](std::size_t, const Buffer<double>&) {
    Buffer<double> inner(ctx, inner0);
    HeatOptions<double> i;
    i.r = 0.25;
    i.steps = 5 + inner_steps % 2;
    const std::vector<double> want = reference::heat2d(inner0, inner_rows, inner_cols, 0.25, i.steps);
    heat2d(ctx, inner, inner_rows, inner_cols, i);
    const std::vector<double> got = inner.download();
    double worst = 0;
    for (std::size_t k = 0; k < got.size(); ++k) worst = std::max(worst, std::fabs(got[k] - want[k]));
    CHECK(worst <= 2 * heat_step_margin(i.steps, 0.25, 2.0));  // random_vector: in [0.5, 2]
    ++inner_steps;
  };
  heat2d(ctx, outer, rows, cols, o);
  CHECK(inner_steps == 2);
  const std::vector<double> want = reference::heat2d(outer0, rows, cols, 0.2, 7);
  const std::vector<double> got = outer.download();
  double worst = 0;
  for (std::size_t k = 0; k < got.size(); ++k) worst = std::max(worst, std::fabs(got[k] - want[k]));
  CHECK(worst <= 2 * heat_step_margin(7, 0.2, 2.0));
}

TEMPLATE_TEST_CASE("heat 2D: fixed sides on the grids where several cells of a row per work-item lost them",
                   "[stencil]", float, double) {
  // Every edge cell holds its side's value after each launch shape: the
  // rules' own (several cells of a row on GPUs and MIC), each forced width,
  // and temporal tiles with short and tall strips.
  using T = TestType;
  Context& ctx = test::cpu_context();
  for (auto [rows, cols] :
       std::vector<std::pair<std::size_t, std::size_t>>{{3, 1000}, {37, 53}, {7, 101}, {64, 64}, {129, 67}})
    check_heat<T>(ctx, rows, cols, T(0.25), 3, std::nullopt, {}, std::nullopt, std::nullopt, std::nullopt, true);
  for (std::size_t cells : {2, 4, 8})
    if (sizeof(T) == 4 || cells == 4)  // each width is a program to build
      check_heat<T>(ctx, 37, 53, T(0.25), 3, false, {}, std::nullopt, cells, std::nullopt, true);
  for (std::size_t strip : {1, 16})
    check_heat<T>(ctx, 129, 67, T(0.25), 9, std::nullopt, {}, std::size_t{4}, std::nullopt, strip, true);
}
