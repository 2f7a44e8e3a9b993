// SPDX-License-Identifier: Apache-2.0
// Heat 2D over a device group of PoCL halves: bit for bit the single-device
// result on awkward grids, under even, uneven and empty splits, every halo
// width (the rule's, 1, and the most a slab allows), step counts that are
// and are not multiples of it, fixed sides, and every device class's plan;
// bad input refused by name.
#include <catch2/catch.hpp>

#include "portacl/stencil.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

template <class T>
void check_group_heat(std::size_t rows, std::size_t cols, std::size_t steps, std::optional<std::size_t> halo,
                      bool sides, const PlanOptions& plan = {}) {
  DeviceGroup& group = test::cpu_halves();
  const std::vector<T> u0 = test::random_vector<T>(rows * cols, -1.0, 1.0);
  HeatOptions<T> o;
  o.r = T(0.2);
  o.steps = steps;
  o.plan = plan;
  if (sides) o.sides = HeatSides<T>{T(0.75), T(-0.5), T(0.25), T(-1)};
  Buffer<T> single(test::whole_cpu_context(), u0);
  heat2d(test::whole_cpu_context(), single, rows, cols, o);
  GroupHeat2d<T> grouped(group, u0, rows, cols, halo);
  INFO(rows << " x " << cols << ", " << steps << " steps, " << (sides ? "fixed sides" : "edges kept") << "\n"
            << grouped.describe());
  grouped.advance(o);
  CHECK(test::first_difference(grouped.download(), single.download()) == "equal");
}

}  // namespace

TEMPLATE_TEST_CASE("group heat 2D equals single-device heat 2D bit for bit", "[group_stencil]", float, double) {
  using T = TestType;
  DeviceGroup& group = test::cpu_halves();
  for (const std::vector<double>& weights : std::vector<std::vector<double>>{{1, 1}, {3, 1}, {1, 0}, {0, 1}}) {
    group.set_weights(weights);
    INFO("weights " << weights[0] << ":" << weights[1]);
    for (std::size_t rows : {1, 2, 3, 8, 37, 131})
      for (std::size_t cols : {1, 5, 67}) {
        check_group_heat<T>(rows, cols, 7, std::nullopt, false);
        check_group_heat<T>(rows, cols, 5, std::nullopt, true);
      }
    // Wide halos: the thinnest slab's rows, and a width that is not a
    // divisor of the steps.
    const std::vector<std::size_t> cut = group.split(131);
    std::size_t thinnest = 131;
    for (std::size_t m = 0; m + 1 < cut.size(); ++m)
      if (cut[m + 1] > cut[m]) thinnest = std::min(thinnest, cut[m + 1] - cut[m]);
    for (std::size_t halo : {std::size_t(1), std::size_t(3), thinnest}) {
      check_group_heat<T>(131, 40, 1, halo, false);
      check_group_heat<T>(131, 40, 11, halo, true);
    }
  }
  group.set_weights({1, 1});
}

TEST_CASE("group heat 2D under every device class's plan", "[group_stencil]") {
  test::cpu_halves().set_weights({2, 1});
  for (const test::ClassPlan& p : test::rules_and_class_plans(ElementType::f32)) {
    INFO(p.fixture);
    check_group_heat<float>(97, 45, 13, std::nullopt, true, p.options);
  }
  test::cpu_halves().set_weights({1, 1});
}

TEST_CASE("group heat 2D refuses bad input by name", "[group_stencil]") {
  DeviceGroup& group = test::cpu_halves();
  group.set_weights({1, 1});
  const std::vector<float> u(20 * 10, 1.0f);
  CHECK_THROWS_WITH(GroupHeat2d<float>(group, u, 20, 11), Catch::Contains("but the grid is 20 x 11"));
  CHECK_THROWS_WITH(GroupHeat2d<float>(group, u, 20, 10, 0), Catch::Contains("halo_rows must be 1 to 10"));
  CHECK_THROWS_WITH(GroupHeat2d<float>(group, u, 20, 10, 11), Catch::Contains("halo_rows must be 1 to 10"));
  GroupHeat2d<float> heat(group, u, 20, 10);
  HeatOptions<float> o;
  o.r = 0.3f;
  CHECK_THROWS_WITH(heat.advance(o), Catch::Contains("stability limit"));
  o.r = 0.2f;
  o.on_output = [](std::size_t, const Buffer<float>&) {};
  o.output_every = 1;
  CHECK_THROWS_WITH(heat.advance(o), Catch::Contains("download() between them"));
  o = HeatOptions<float>{};
  o.steps = 0;
  CHECK_THROWS_WITH(heat.advance(o), Catch::Contains("zero steps"));
  // A constant field stays constant: nothing leaks in at the seams.
  o.steps = 9;
  heat.advance(o);
  for (float v : heat.download()) CHECK(v == 1.0f);
}
