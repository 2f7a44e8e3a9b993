// SPDX-License-Identifier: Apache-2.0
// What a user of a CPU device calls on the same cores instead of portacl,
// called from C++ as its users call it, for portacl-bench's CPU libraries
// table: OpenBLAS's CBLAS (cblas_library.hpp) for the BLAS operations, and
// the C++17 parallel algorithms (libstdc++ over TBB, Debian's libtbb-dev)
// for sum, max, count_if, the scans, compaction and sort. Each works on
// host copies of the workload's inputs, made outside the timed call, and
// is checked against the same host reference as portacl's output.
#pragma once

#include <optional>
#include <string>

#include "tuning/operations.hpp"

namespace bench {

/// The CPU library's call with the meaning of `operation`, or nothing
/// (none has it, or the library is not there).
std::optional<portacl::Baseline> cpu_library_baseline(const std::string& operation);

/// The CPU libraries this run sets beside the device, for the report's
/// heading, with what is missing and why.
std::string cpu_libraries_description();

}  // namespace bench
