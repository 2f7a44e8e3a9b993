// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: device descriptions in portacl's JSON form. Any input
// gives a description or portacl::Error; a description classifies, plans
// (or refuses with an Error) and round-trips.
#include <cstddef>
#include <cstdint>
#include <string>

#include "portacl/device.hpp"
#include "portacl/error.hpp"
#include "portacl/vectors.hpp"
#include "portacl/plan.hpp"
#include "kernels/reduce_tunables.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const portacl::Json j = portacl::Json::parse(text);
    const portacl::DeviceInfo d = portacl::DeviceInfo::from_json(j.contains("device") ? *j.find("device") : j);
    portacl::classify(d);
    if (portacl::DeviceInfo::from_json(d.to_json()) != d) __builtin_trap();
    portacl::PlanOptions rules;
    rules.consult_provider = false;
    portacl::make_plan(d, portacl::reduce_traits("sum", portacl::ElementType::f32, 1, 8, true, 1),
                       portacl::ProblemSize(65537), rules);
  } catch (const portacl::Error&) {
  }
  return 0;
}
