// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the clinfo reader (default and --raw forms). Any input
// gives devices or portacl::Error; every device read classifies, plans and
// survives its JSON round trip.
#include <cstddef>
#include <cstdint>
#include <string>

#include "portacl/device.hpp"
#include "portacl/error.hpp"
#include "portacl/vectors.hpp"
#include "portacl/plan.hpp"
#include "kernels/stream_tunables.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const portacl::DeviceInfo& d : portacl::parse_clinfo(text, "fuzz")) {
      portacl::classify(d);
      if (portacl::DeviceInfo::from_json(d.to_json()) != d) __builtin_trap();
      try {
        portacl::PlanOptions rules;
        rules.consult_provider = false;
        portacl::make_plan(d, portacl::axpy_traits(portacl::ElementType::f32), portacl::ProblemSize(1000003), rules);
      } catch (const portacl::Error&) {  // a description the rules cannot plan for says so
      }
    }
  } catch (const portacl::Error&) {
  }
  return 0;
}
