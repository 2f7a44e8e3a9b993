// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: the Matrix Market reader. Any input gives a matrix or
// portacl::Error; every matrix read writes back to text that reads as the
// same matrix, and expands to general entries inside its dimensions.
#include <cstddef>
#include <cstdint>
#include <string>

#include "portacl/error.hpp"
#include "portacl/sparse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const portacl::MatrixMarket m = portacl::parse_matrix_market(text, "fuzz.mtx");
    if (portacl::parse_matrix_market(portacl::format_matrix_market(m), "again.mtx") != m) __builtin_trap();
    const portacl::CooEntries e = portacl::general_entries(m);
    for (std::size_t k = 0; k < e.value.size(); ++k)
      if (e.row[k] >= e.rows || e.col[k] >= e.cols) __builtin_trap();
  } catch (const portacl::Error&) {
  }
  return 0;
}
