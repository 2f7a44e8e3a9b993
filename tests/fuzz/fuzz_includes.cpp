// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the kernel-file include expander. Any source text
// expands (its includes resolved from the embedded kernels) or throws
// portacl::Error; the expansion is bounded however the includes repeat.
#include <cstddef>
#include <cstdint>
#include <string>

#include "portacl/error.hpp"
#include "portacl/programs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const portacl::KernelLibrary library({}, true);  // embedded kernels only: no files
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const portacl::KernelSource s = library.from_text("fuzz.cl", text);
    if (s.text.size() > (std::size_t{40} << 20)) __builtin_trap();  // the 16 MiB cap plus one file
  } catch (const portacl::Error&) {
  }
  return 0;
}
