// SPDX-License-Identifier: Apache-2.0
#include "cpu_table.hpp"

#include <chrono>
#include <limits>
#include <random>
#include <vector>

#include "cblas_library.hpp"
#include "portacl/blas.hpp"
#include "tuning/host_reference.hpp"

namespace bench {

namespace {

double host_ms(const std::function<void()>& call) {
  const auto start = std::chrono::steady_clock::now();
  call();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// `ours` and `theirs` in alternating blocks, three rounds of A then B,
// each block warmed up again: a library's threads may spin for a while
// after its last call (OpenBLAS's do), so switching call by call would time
// each side against the other's idle threads.
void alternate(portacl::Context& ctx, int warmup, int reps, const std::function<void()>& ours,
               const std::function<void()>& theirs, CpuRow& row) {
  constexpr int rounds = 3;
  std::vector<double> a, b;
  for (int round = 0; round < rounds; ++round) {
    const int count = reps / rounds + (round < reps % rounds ? 1 : 0);
    for (int k = 0; k < warmup; ++k) wall_ms(ctx, ours);
    for (int k = 0; k < count; ++k) a.push_back(wall_ms(ctx, ours));
    for (int k = 0; k < warmup; ++k) host_ms(theirs);
    for (int k = 0; k < count; ++k) b.push_back(host_ms(theirs));
  }
  row.ours = portacl::summarize(a);
  row.theirs = portacl::summarize(b);
  row.speedup = row.theirs.median_ms / row.ours.median_ms;
}

}  // namespace

CpuRow cpu_row(portacl::Context& ctx, const portacl::Operation& op, portacl::Workload& w,
               const portacl::Baseline& theirs, int warmup, int reps) {
  CpuRow row;
  row.kernel = op.name;
  row.n = w.n;
  row.library = theirs.library;
  row.routine = theirs.routine;
  row.bytes = op.bytes_per_element * double(w.n);
  row.flops = op.flops_per_element * double(w.n);
  try {
    row.check = theirs.check(w);
    if (row.check.empty()) row.check = "ok";
    w.reset_y();
    alternate(
        ctx, warmup, reps, [&] { op.run(w, {}); }, [&] { theirs.run(w); }, row);
  } catch (const std::exception& e) {
    row.check = std::string("failed: ") + e.what();
  }
  return row;
}

std::optional<CpuRow> cpu_gemm_row(portacl::Context& ctx, std::size_t order, int warmup, int reps,
                                   unsigned long long seed) {
  const Cblas* blas = cblas();
  if (!blas) return std::nullopt;
  CpuRow row;
  row.kernel = "gemm float";
  row.n = order;
  row.library = blas->library;
  row.routine = "cblas_sgemm";
  const std::size_t s = order;
  row.bytes = 3.0 * sizeof(float) * double(s) * double(s);
  row.flops = 2.0 * double(s) * double(s) * double(s);
  if (order > std::size_t(std::numeric_limits<int>::max())) {
    row.check = "skipped: CBLAS takes orders up to 2^31 - 1 (int)";
    return row;
  }
  try {
    std::vector<float> a(s * s), b(s * s), c(s * s, std::numeric_limits<float>::quiet_NaN());
    std::mt19937_64 rng(seed + s);
    std::uniform_real_distribution<float> d(-1, 1);
    for (float& v : a) v = d(rng);
    for (float& v : b) v = d(rng);
    portacl::Buffer<float> da(ctx, a), db(ctx, b), dc(ctx, s * s);
    const int n = int(s);
    auto theirs = [&] {
      blas->sgemm(Cblas::row_major, Cblas::no_trans, Cblas::no_trans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                  c.data(), n);
    };
    auto ours = [&] {
      portacl::gemm(ctx, portacl::Layout::row_major, portacl::Transpose::no, portacl::Transpose::no, s, s, s, 1.0f,
                    portacl::MatrixRef<float>{da, 0, s}, portacl::MatrixRef<float>{db, 0, s}, 0.0f, dc, 0, s);
    };
    theirs();
    row.check = portacl::reference::compare_gemm_samples(a, b, c, s, seed + s + 3);
    if (row.check.empty()) row.check = "ok";
    alternate(ctx, warmup, reps, ours, theirs, row);
  } catch (const std::exception& e) {
    row.check = std::string("failed: ") + e.what();
  }
  return row;
}

}  // namespace bench
