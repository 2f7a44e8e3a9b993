// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: program-cache entries. Any bytes are refused with a
// reason or yield a payload no larger than the input, checked by checksum.
#include <cstddef>
#include <cstdint>
#include <string>

#include "portacl/programs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  // The key the seed entries hold (tests/fuzz/run.sh writes them).
  static const std::string key = "fuzz-key\n";
  std::string payload;
  const std::string why = portacl::ProgramCache::parse_entry(bytes, key, payload);
  if (why.empty() && payload.size() > bytes.size()) __builtin_trap();
  return 0;
}
