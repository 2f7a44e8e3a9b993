// SPDX-License-Identifier: Apache-2.0
// Data-parallel training over a device group of PoCL halves: two steps on
// replicas equal two single-device steps on the whole batch within float
// rounding (parameters and losses), under even, uneven and empty splits;
// the replicas stay equal bit for bit; sync_parameters copies member 0's;
// bad input is refused by name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "portacl/kernels/ml/group_small_cnn.hpp"
#include "test_support.hpp"

using namespace portacl;

TEST_CASE("replicas on a device group train as one device does on the whole batch", "[group_training]") {
  const SmallCnnShape shape{2, 6, 10, 4, 3};
  SgdOptions sgd;
  sgd.learning_rate = 0.05f;
  sgd.weight_decay = 0.001f;
  for (const std::vector<double>& weights : std::vector<std::vector<double>>{{1, 1}, {3, 1}, {1, 0}, {0, 1}})
    for (std::size_t batch : {1, 7, 16}) {
      test::cpu_halves().set_weights(weights);
      INFO("weights " << weights[0] << ":" << weights[1] << ", batch " << batch);
      Context& ctx = test::whole_cpu_context();
      SmallCnn single(ctx, shape, 42);
      GroupSmallCnn group(test::cpu_halves(), shape, 42);
      for (int step = 0; step < 2; ++step) {
        const std::vector<float> images = test::random_vector<float>(batch * 2 * 6 * 10, -1.0, 1.0);
        std::vector<int> labels(batch);
        for (int& l : labels) l = int(test::rng()() % 3);
        Buffer<float> di(ctx, images);
        Buffer<int> dl(ctx, labels);
        const double want = single.train_step(di, dl, batch, sgd);
        const double got = group.train_step(images, labels, batch, sgd);
        INFO(group.describe());
        CHECK(std::fabs(got - want) <= 1e-5 * std::fabs(want));
      }
      const std::vector<float> want = single.packed_parameters(), got = group.parameters();
      REQUIRE(got.size() == want.size());
      double largest = 1, worst = 0;
      for (std::size_t i = 0; i < want.size(); ++i) {
        largest = std::max(largest, double(std::fabs(want[i])));
        worst = std::max(worst, double(std::fabs(got[i] - want[i])));
      }
      CHECK(worst <= 1e-5 * largest);
      CHECK(test::first_difference(group.replica(1).packed_parameters(), got) == "equal");
    }
  test::cpu_halves().set_weights({1, 1});
}

TEST_CASE("group training: sync_parameters, and refusals by name", "[group_training]") {
  test::cpu_halves().set_weights({1, 1});
  const SmallCnnShape shape{1, 4, 4, 2, 2};
  GroupSmallCnn group(test::cpu_halves(), shape, 7);
  // Member 1 drifts (as members of different kinds might); sync brings it back.
  group.replica(1).parameters().upload(std::vector<float>(group.replica(1).parameters().size(), 0.5f));
  CHECK(test::first_difference(group.replica(1).packed_parameters(), group.parameters()) != "equal");
  group.sync_parameters();
  CHECK(test::first_difference(group.replica(1).packed_parameters(), group.parameters()) == "equal");
  const std::vector<float> images(3 * 16, 0.1f);
  CHECK_THROWS_WITH(group.replica(1).set_packed_parameters(std::vector<float>(3)),
                    Catch::Contains("3 values for a network of"));
  CHECK_THROWS_WITH(group.train_step(images, {0, 1, 0}, 0, SgdOptions{}), Catch::Contains("a batch of 0"));
  CHECK_THROWS_WITH(group.train_step(images, {0, 1, 0}, 2, SgdOptions{}), Catch::Contains("images has 48 floats"));
  CHECK_THROWS_WITH(group.train_step(images, {0, 1}, 3, SgdOptions{}), Catch::Contains("labels has 2 entries"));
  // A bad label in member 1's share (images 2 to 2) is named with the member.
  CHECK_THROWS_WITH(group.train_step(images, {0, 1, 5}, 3, SgdOptions{}), Catch::Contains("member 1"));
}
