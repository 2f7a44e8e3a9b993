// SPDX-License-Identifier: Apache-2.0
#include "tour.hpp"

#include <cstdarg>
#include <cstdio>
#include <ostream>
#include <string>

#include "../common/ceilings.hpp"
#include "../common/measure.hpp"
#include "tuning/operations.hpp"

namespace tour {

using namespace portacl;

namespace {

struct Stop {
  const char* family;
  const char* operation;  // as named in the operation list (portacl-bench --kernels)
};

// One call per family, in the order a user meets them.
const Stop kStops[] = {
    {"streaming", "axpy"},
    {"reduction", "dot"},
    {"scan", "inclusive_scan"},
    {"compaction", "compact x>0.5"},
    {"matrix-vector", "gemv"},
    {"packed symmetric", "packed_symv"},
    {"sparse (2D Laplacian)", "spmv-auto banded"},
    {"triangular solve", "trsv"},
    {"matrix multiply", "gemm"},
};

// Vectors of twice the device's cache (at least 2^22 elements), so the
// rates are memory's, not the cache's (an H100's 50 MB L2 holds 2^22
// floats); plus 3, so no tile, vector width or work-group divides them.
// At most 2^25 + 3: the tour keeps host inputs and double-precision
// references of several vectors, about 190 bytes an element at its peak
// (12.7 GB at 2^26), and a VM whose CPU reports a 260 MiB L3 took 2^28
// and ran out of its 24 GB of host memory. The matrix calls take square_order() of it. GEMM:
// order 2048 on GPUs, 512 elsewhere (a CPU would take seconds).
std::size_t tour_elements(const DeviceInfo& d) {
  std::size_t n = std::size_t{1} << 22;
  while (n * 2 < d.global_cache_size && n < (std::size_t{1} << 25)) n <<= 1;  // 4 bytes each: 2x the cache
  return n + 3;
}
std::size_t gemm_elements(const DeviceInfo& d) {
  return (d.type == DeviceType::gpu ? std::size_t{1} << 22 : std::size_t{1} << 18) + 3;
}
constexpr unsigned long long kSeed = 20261124;
constexpr int kWarmup = 2, kReps = 7;

std::string line(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string line(const char* format, ...) {
  char buf[256];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

}  // namespace

bool run(Context& ctx, std::ostream& out) {
  out << "tour: one call per family on " << ctx.info().name << ", each checked against a double-precision host\n"
      << "reference (seed " << kSeed << "), timed as you would time it (wall clock around the call and clFinish,\n"
      << "median of " << kReps << ") and set against this device's ceilings, measured now:\n";
  // The streaming ceiling on the tour's own clock (wall, same size): the
  // best rate the library's copy, in-place scale and axpy reach in this
  // run. A plain copy alone can understate it: a CPU reads a copy's
  // destination before writing it (write-allocate), which in-place updates
  // do not pay. The FMA peak comes from chains of dependent FMAs.
  const std::size_t elements = tour_elements(ctx.info());
  double fma_flops = 0;
  const TimingSummary fma = bench::measure_fma(ctx, ElementType::f32, kWarmup, kReps, fma_flops);
  const double fma_gflops = fma_flops / (fma.median_ms * 1e6);
  double stream_gbs = 0;
  std::string stream_by;
  for (const char* name : {"copy", "scale", "axpy"}) {
    const Operation& op = operation(name);
    Workload w(ctx, elements, kSeed);
    const TimingSummary t = measure(kWarmup, kReps, [&] { return bench::wall_ms(ctx, [&] { op.run(w, {}); }); });
    const double gbs = op.bytes_per_element * double(elements) / (t.median_ms * 1e6);
    if (gbs > stream_gbs) {
      stream_gbs = gbs;
      stream_by = name;
    }
  }
  out << line("  streaming %.1f GB/s (the library's %s of %zu floats), FMA %.0f GFLOP/s (float)\n\n", stream_gbs,
              stream_by.c_str(), elements, fma_gflops);
  out << line("  %-26s %-16s %-14s %-6s %10s %14s  %s\n", "family", "call", "problem", "check", "median ms", "rate",
              "of ceiling");
  bool all_ok = true;
  for (const Stop& stop : kStops) {
    const Operation& op = operation(stop.operation);
    // GEMM is judged by flops on its own order; every other stop by the
    // bytes it must move.
    const bool flops = op.name == "gemm";
    const std::size_t n = flops ? gemm_elements(ctx.info()) : elements;
    Workload w(ctx, n, kSeed);
    std::string check = op.check(w, {});
    const bool ok = check.empty();
    all_ok = all_ok && ok;
    const TimingSummary t = measure(kWarmup, kReps, [&] { return bench::wall_ms(ctx, [&] { op.run(w, {}); }); });
    std::string problem, rate, fraction;
    if (!flops) {
      problem = "n=" + std::to_string(n);
      const double gbs = op.bytes_per_element * double(n) / (t.median_ms * 1e6);
      rate = line("%.1f GB/s", gbs);
      fraction = line("%.0f%% of streaming", 100 * gbs / stream_gbs);
    } else {
      const std::size_t order = square_order(n);
      problem = std::to_string(order) + "^3";
      const double gflops = 2.0 * double(order) * double(order) * double(order) / (t.median_ms * 1e6);
      rate = line("%.1f GFLOP/s", gflops);
      fraction = line("%.0f%% of FMA", 100 * gflops / fma_gflops);
    }
    out << line("  %-26s %-16s %-14s %-6s %10.3f %14s  %s\n", stop.family, op.name.c_str(), problem.c_str(),
                ok ? "ok" : "WRONG", t.median_ms, rate.c_str(), fraction.c_str());
    if (!ok) out << "    " << check << "\n";
  }
  out << "\n(GB/s counts the bytes each call must move at least; matrix-vector calls count their matrix.)\n";
  return all_ok;
}

}  // namespace tour
