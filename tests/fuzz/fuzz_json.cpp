// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the JSON parser. Any input either parses or throws
// portacl::Error; what parses dumps to text that parses to the same dump.
#include <cstddef>
#include <cstdint>
#include <string>

#include "portacl/error.hpp"
#include "portacl/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const portacl::Json j = portacl::Json::parse(text);
    const std::string once = j.dump();
    if (portacl::Json::parse(once).dump() != once) __builtin_trap();  // round trip must hold
  } catch (const portacl::Error&) {
  }
  return 0;
}
