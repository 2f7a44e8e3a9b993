// SPDX-License-Identifier: Apache-2.0
// portacl-bench's CPU libraries table: on a CPU device, each operation
// beside what its user would call on the same cores instead
// (cpu_library_baseline.hpp), the two timed in alternating blocks (A B A B
// A B; wall clock around each call, portacl's with its clFinish), so that
// load on the machine falls on both alike.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "../common/measure.hpp"
#include "case_runner.hpp"
#include "tuning/operations.hpp"

namespace bench {

struct CpuRow {
  std::string kernel;  ///< the operation, "gemm float"
  std::size_t n = 0;   ///< its size (GEMM: the order)
  std::string library, routine;
  Stats ours, theirs;           ///< wall clock, alternated
  double speedup = 0;           ///< their median / portacl's median: above 1, portacl is faster
  double bytes = 0, flops = 0;  ///< counted per call, as the kernels table counts them
  std::string check;            ///< "ok" or what the CPU library got wrong
};

/// `op` on `w` beside `theirs`, the CPU library call with its meaning.
CpuRow cpu_row(portacl::Context& ctx, const portacl::Operation& op, portacl::Workload& w,
               const portacl::Baseline& theirs, int warmup, int reps);

/// OpenBLAS's cblas_sgemm beside portacl's gemm, C = A B of order `order`
/// row-major on the same random matrices, alternated; nothing without a CBLAS.
std::optional<CpuRow> cpu_gemm_row(portacl::Context& ctx, std::size_t order, int warmup, int reps,
                                   unsigned long long seed);

}  // namespace bench
