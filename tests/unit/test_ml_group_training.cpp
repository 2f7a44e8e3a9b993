// SPDX-License-Identifier: Apache-2.0
// Data-parallel training over a device group of PoCL halves: two steps on
// replicas and two single-device steps on the whole batch each stand within
// their counted rounding margins of the double reference (parameters and
// losses), under even, uneven and empty splits;
// the replicas stay equal bit for bit; sync_parameters copies member 0's;
// bad input is refused by name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "portacl/ml.hpp"
#include "test_support.hpp"
#include "ml_training_margins.hpp"

using namespace portacl;

TEST_CASE("replicas on a device group train as one device does on the whole batch", "[group_training]") {
  // Each step starts from dyadic parameters (so the convolution is exact
  // and the ReLU masks and pooling picks are the reference's; the velocity
  // carries over) on dyadic images; the one device and the group each
  // stand within their counted margins of the double reference
  // (ml_training_margins.hpp), and so within the sum of both of each other.
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
      const std::size_t count = single.packed_parameters().size();
      std::vector<double> want_v(count, 0.0), dv_single(count, 0.0), dv_group(count, 0.0);
      for (int step = 0; step < 2; ++step) {
        INFO("step " << step);
        const std::vector<float> p = test::random_dyadic<float>(count, 4, 16);
        single.set_packed_parameters(p);
        for (std::size_t m = 0; m < 2; ++m) group.replica(m).set_packed_parameters(p);
        const std::vector<float> images = test::random_dyadic<float>(batch * 2 * 6 * 10, 4, 8);
        std::vector<int> labels(batch);
        for (int& l : labels) l = int(test::rng()() % 3);
        REQUIRE(test::conv_exact(single, single.parameters().download(), images, batch));
        const test::StepReference whole = test::one_device(single, images, labels, batch);
        const test::StepReference grouped =
            test::group_margins(group, test::cpu_halves().split(batch), whole, images, labels, batch);
        Buffer<float> di(ctx, images);
        Buffer<int> dl(ctx, labels);
        const double single_loss = single.train_step(di, dl, batch, sgd);
        const double group_loss = group.train_step(images, labels, batch, sgd);
        INFO(group.describe());
        CHECK(std::fabs(single_loss - whole.loss) <= whole.loss_margin);
        CHECK(std::fabs(group_loss - whole.loss) <= grouped.loss_margin);
        // The step from the same parameters and velocity, in double.
        std::vector<double> want_w(p.begin(), p.end()), dw_single(count, 0.0), dw_group(count, 0.0);
        const std::vector<double> v_before = want_v;
        test::sgd_margins(want_w, whole.gradient, v_before, sgd, whole.gradient_margin, dw_single, dv_single);
        test::sgd_margins(want_w, whole.gradient, v_before, sgd, grouped.gradient_margin, dw_group, dv_group);
        reference::sgd_step(want_w, whole.gradient, want_v, sgd);
        CHECK(test::within_each("one device's parameters", single.packed_parameters(), want_w, dw_single) == "");
        CHECK(test::within_each("the group's parameters", group.parameters(), want_w, dw_group) == "");
        CHECK(test::first_difference(group.replica(1).packed_parameters(), group.parameters()) == "equal");
      }
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
