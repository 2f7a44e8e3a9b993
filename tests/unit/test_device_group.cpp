// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cstdlib>
#include <numeric>

#include "portacl/kernels/reduce.hpp"
#include "portacl/runtime/device_group.hpp"
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
  double magnitude = 0;
  for (float v : x) magnitude += std::fabs(v);
  CHECK(std::fabs(total - want) <= 1003 * 1.2e-7 * magnitude);
  // A buffer of one member is refused by another's calls: each has its own context.
  CHECK_THROWS_WITH(sum(group.context(1), first), Catch::Contains("another context"));
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
