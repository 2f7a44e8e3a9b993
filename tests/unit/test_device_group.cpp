// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>

#include "portacl/group.hpp"
#include "portacl/vectors.hpp"
#include "portacl/context.hpp"
#include "test_support.hpp"

using namespace portacl;

TEST_CASE("device groups: a CPU split into sub-devices, each member summing its slice", "[device_group]") {
  const Device cpu = select_device("cpu");
  INFO(cpu.describe());
  REQUIRE(cpu.info().compute_units >= 2);
  DeviceGroup group("cpu/2");
  REQUIRE(group.size() == 2);
  const std::size_t units = cpu.info().compute_units / 2;
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(group.device(i).info().compute_units == units);
    CHECK(group.device(i).info().name == cpu.info().name);
  }
  CHECK(group.describe().find("member 1: ") != std::string::npos);
  // An uneven split: 1001 elements and 2.
  const std::vector<float> x = test::random_vector<float>(1003);
  const std::size_t cut = 1001;
  Buffer<float> first(group.context(0), std::vector<float>(x.begin(), x.begin() + cut));
  Buffer<float> second(group.context(1), std::vector<float>(x.begin() + cut, x.end()));
  const double total = double(sum(group.context(0), first)) + double(sum(group.context(1), second));
  const double want = std::accumulate(x.begin(), x.end(), 0.0);
  // Each member's float sum within its own margin; the two added in double.
  CHECK(std::fabs(total - want) <= test::sum_margin(std::vector<float>(x.begin(), x.begin() + cut)) +
                                       test::sum_margin(std::vector<float>(x.begin() + cut, x.end())) +
                                       2 * test::kDoubleU * std::fabs(total));
  // A buffer of one member is refused by another's calls: each has its own context.
  CHECK_THROWS_WITH(sum(group.context(1), first), Catch::Contains("another context"));
}

TEST_CASE("device groups: groups made, used and let go one after another", "[device_group]") {
  // PoCL frees a sub-device under the last release of its queue, which may
  // be its own worker's after a group has gone (quirk
  // pocl.subdevice-freed-under-queue). Before the workaround the cases of
  // this file crashed in PoCL's worker in about half the runs with fresh
  // program caches under load; the crash needs that timing, so what this
  // case pins is the workaround itself: every group of the split gets the
  // same kept sub-devices, and each still sums right.
  const std::vector<float> x = test::random_vector<float>(4099);
  const double want = std::accumulate(x.begin(), x.end(), 0.0);
  std::vector<cl_device_id> first_ids;
  for (int round = 0; round < 4; ++round) {
    INFO("round " << round);
    DeviceGroup group("cpu/2");
    std::vector<cl_device_id> ids;
    double total = 0;
    for (std::size_t i = 0; i < group.size(); ++i) {
      ids.push_back(group.device(i).cl_device()());
      const std::size_t from = i * x.size() / 2, to = (i + 1) * x.size() / 2;
      Buffer<float> part(group.context(i),
                         std::vector<float>(x.begin() + std::ptrdiff_t(from), x.begin() + std::ptrdiff_t(to)));
      total += double(sum(group.context(i), part));
    }
    CHECK(std::fabs(total - want) <= test::sum_margin(x) + 2 * test::kDoubleU * std::fabs(total));
    if (round == 0) first_ids = ids;
    // Where the quirk applies, every group of the split gets the same kept
    // sub-devices; elsewhere each split makes its own.
    if (group.device(0).info().platform_name.find("Portable Computing Language") != std::string::npos)
      CHECK(ids == first_ids);
  }
}

TEST_CASE("device groups: the selector grammar, and errors that name the problem", "[device_group]") {
  CHECK(DeviceGroup("cpu").size() == 1);
  CHECK(DeviceGroup("cpu/1").size() == 1);
  CHECK(DeviceGroup("cpu:0").size() == 1);
  CHECK(DeviceGroup("cpu:0/2").size() == 2);
  CHECK(DeviceGroup("all").size() == all_devices().size());
  CHECK_THROWS_WITH(DeviceGroup("cpu+cpu"), Catch::Contains("is named twice"));
  CHECK_THROWS_WITH(DeviceGroup("cpu:0,cpu:0"), Catch::Contains("is named twice"));
  CHECK_THROWS_WITH(DeviceGroup("cpu/0"), Catch::Contains("the parts must be 1 to"));
  CHECK_THROWS_WITH(DeviceGroup("cpu/100000"), Catch::Contains("the parts must be 1 to"));
  CHECK_THROWS_WITH(DeviceGroup("cpu/x"), Catch::Contains("must end in /N"));
  CHECK_THROWS_WITH(DeviceGroup("cpu+"), Catch::Contains("an empty part"));
  // Commas between conditions are one device's ("cpu,name=..."), not a group.
  CHECK_THROWS_WITH(DeviceGroup("cpu,name=no-such-device"), Catch::Contains("no-such-device"));
  // PORTACL_DEVICE when no selector is given.
  const char* saved = std::getenv("PORTACL_DEVICE");
  const std::string before = saved ? saved : "";
  setenv("PORTACL_DEVICE", "cpu/2", 1);
  const std::size_t from_environment = DeviceGroup().size();
  if (saved)
    setenv("PORTACL_DEVICE", before.c_str(), 1);
  else
    unsetenv("PORTACL_DEVICE");
  CHECK(from_environment == 2);
}

TEST_CASE("device groups: the split by weight covers every item once, in proportion", "[device_group]") {
  DeviceGroup group("cpu/2");
  CHECK(group.weights() == std::vector<double>{1.0, 1.0});
  CHECK(group.split(7) == std::vector<std::size_t>{0, 4, 7});  // the leftover to the lower index
  CHECK(group.split(0) == std::vector<std::size_t>{0, 0, 0});
  CHECK(group.split(1) == std::vector<std::size_t>{0, 1, 1});
  group.set_weights({3.0, 1.0});
  CHECK(group.split(1000) == std::vector<std::size_t>{0, 750, 1000});
  CHECK(group.split(1001) == std::vector<std::size_t>{0, 751, 1001});  // 750.75 and 250.25
  CHECK(group.explain_split(1000).find("750, 250") != std::string::npos);
  group.set_weights({0.0, 2.5});  // a member that gets nothing
  CHECK(group.split(13) == std::vector<std::size_t>{0, 0, 13});
  CHECK_THROWS_WITH(group.set_weights({1.0}), Catch::Contains("1 weights for 2 members"));
  CHECK_THROWS_WITH(group.set_weights({0.0, 0.0}), Catch::Contains("every member's weight is 0"));
  CHECK_THROWS_WITH(group.set_weights({-1.0, 1.0}), Catch::Contains("member 0's weight is -1"));
  CHECK_THROWS_WITH(group.set_weights({1.0, std::nan("")}), Catch::Contains("member 1's weight"));
  CHECK(group.weights() == std::vector<double>{0.0, 2.5});  // a refused call changes nothing
}

TEMPLATE_TEST_CASE("group vectors: sum, dot and axpy over two halves of the CPU equal the double reference",
                   "[device_group]", float, double) {
  DeviceGroup group("cpu/2");
  for (const std::vector<double>& weights : std::vector<std::vector<double>>{{1, 1}, {3, 1}, {0, 1}, {1, 0}})
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{997}, std::size_t{65537}}) {
      INFO("weights " << weights[0] << ", " << weights[1] << "; n " << n);
      group.set_weights(weights);
      const std::vector<TestType> x = test::random_vector<TestType>(n), y = test::random_vector<TestType>(n);
      GroupVector<TestType> gx(group, x), gy(group, y);
      CHECK(gx.offsets() == group.split(n));
      CHECK(gx.download() == x);
      double sum = 0, dot = 0, magnitude = 0, dot_magnitude = 0;
      for (std::size_t i = 0; i < n; ++i) {
        sum += double(x[i]);
        magnitude += std::fabs(double(x[i]));
        dot += double(x[i]) * double(y[i]);
        dot_magnitude += std::fabs(double(x[i]) * double(y[i]));
      }
      const double eps = std::numeric_limits<TestType>::epsilon();
      CHECK(std::fabs(group_sum(gx) - sum) <= double(n + 2) * eps * magnitude);
      CHECK(std::fabs(group_dot(gx, gy) - dot) <= double(n + 2) * eps * dot_magnitude);
      // The same run twice: the same partials in the same order.
      CHECK(group_sum(gx) == group_sum(gx));
      group_axpy(TestType(0.75), gx, gy);
      const std::vector<TestType> got = gy.download();
      bool right = got.size() == n;  // fused or not: within one rounding of each step
      for (std::size_t i = 0; i < n && right; ++i) {
        const double want = 0.75 * double(x[i]) + double(y[i]);
        right =
            std::fabs(double(got[i]) - want) <= 2 * eps * (0.75 * std::fabs(double(x[i])) + std::fabs(double(y[i])));
      }
      CHECK(right);
    }
  group.set_weights({1, 1});
  GroupVector<TestType> a(group, std::size_t{10}), b(group, std::size_t{11});
  CHECK_THROWS_WITH(group_dot(a, b), Catch::Contains("x has 10 elements, y 11"));
  group.set_weights({1, 3});
  GroupVector<TestType> c(group, std::size_t{10});
  CHECK_THROWS_WITH(group_dot(a, c), Catch::Contains("do not line up"));
  DeviceGroup other("cpu");
  GroupVector<TestType> d(other, std::size_t{10});
  CHECK_THROWS_WITH(group_axpy(TestType(1), a, d), Catch::Contains("different device groups"));
}

TEST_CASE("device groups: weights measured, stored like tuning results, and read back", "[device_group]") {
  DeviceGroup& group = test::cpu_halves();
  const std::string db = test::scratch_dir("group-weights") + "/db.json";
  CHECK_FALSE(stored_group_weights(group, GroupWorkload::memory, db));  // nothing stored yet
  for (GroupWorkload w : {GroupWorkload::memory, GroupWorkload::compute}) {
    const GroupCalibration c = calibrate_group(group, w, CalibrationOptions{true, db});
    INFO(c.why);
    REQUIRE(c.weights.size() == 2);
    for (double v : c.weights) CHECK((v >= 1.0 && std::isfinite(v)));
    CHECK(*std::min_element(c.weights.begin(), c.weights.end()) == 1.0);  // the slowest member is 1
    CHECK(group.weights() == c.weights);
    REQUIRE(!c.notes.empty());
    CHECK(c.notes.back() == "stored in " + db);
    // Both halves are one kind of device: one record, read back for both.
    const std::optional<GroupCalibration> stored = stored_group_weights(group, w, db);
    REQUIRE(stored);
    CHECK(stored->weights == std::vector<double>{1.0, 1.0});
    CHECK(stored->why.find("stored in " + db) != std::string::npos);
  }
  // A database that cannot be written is a note; the weights are set all the same.
  const GroupCalibration unstored =
      calibrate_group(group, GroupWorkload::memory, CalibrationOptions{true, test::scratch_dir("group-weights")});
  CHECK(unstored.notes.front().find("the rates were not stored") != std::string::npos);
  group.set_weights({1, 1});
}
