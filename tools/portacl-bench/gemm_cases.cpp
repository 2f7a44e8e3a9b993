// SPDX-License-Identifier: Apache-2.0
#include "gemm_cases.hpp"

#include <limits>
#include <random>

#include "tuning/clblast_call.hpp"
#include "tuning/host_reference.hpp"

namespace bench {

using namespace portacl;

namespace {

// The shared host reference's sampled check, "ok" when it passes.
template <class T>
std::string check_entries(const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c, std::size_t n,
                          unsigned long long seed) {
  const std::string wrong = reference::compare_gemm_samples(a, b, c, n, seed);
  return wrong.empty() ? "ok" : wrong;
}

CLBlastStatusCode xgemm(std::size_t n, float alpha, cl_mem a, cl_mem b, float beta, cl_mem c, cl_command_queue* q,
                        cl_event* e) {
  return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, alpha, a, 0, n, b, 0, n,
                      beta, c, 0, n, q, e);
}
CLBlastStatusCode xgemm(std::size_t n, double alpha, cl_mem a, cl_mem b, double beta, cl_mem c, cl_command_queue* q,
                        cl_event* e) {
  return CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, alpha, a, 0, n, b, 0, n,
                      beta, c, 0, n, q, e);
}

template <class T>
GemmRow run_one(Context& ctx, std::size_t n, int warmup, int reps, bool baseline, unsigned long long seed,
                double fma_gflops) {
  // Device buffers first: an order the device cannot hold fails there,
  // naming the buffer, before n^2 elements of host memory are taken.
  const std::size_t elements = checked_product(n, n, "GEMM order " + std::to_string(n));
  Buffer<T> a(ctx, elements), b(ctx, elements), c(ctx, elements);
  std::mt19937_64 rng(seed + n);
  std::uniform_real_distribution<T> d(-1, 1);
  std::vector<T> ha(elements), hb(elements);
  for (auto& v : ha) v = d(rng);
  for (auto& v : hb) v = d(rng);
  a.upload(ha);
  b.upload(hb);
  const std::vector<T> poison(elements, std::numeric_limits<T>::quiet_NaN());
  auto ours = [&] {
    return gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, n, n, n, T(1), MatrixRef<T>{a, 0, n},
                MatrixRef<T>{b, 0, n}, T(0), c, 0, n);
  };
  GemmRow row;
  row.n = n;
  row.element = cl_type_name(element_of<T>::value);
  row.routine = sizeof(T) == 8 ? "Dgemm" : "Sgemm";
  c.upload(poison);
  const LaunchPlan plan = ours();
  row.plan = plan.summary() + (plan.provenance.rfind("tuning database", 0) == 0 ? ", tuned" : "") +
             (plan.decision("backend") ? ", CLBlast backend" : "");
  row.check = check_entries(ha, hb, c.download(), n, seed + n + 1);
  row.ours = measure(warmup, reps, [&] { return device_ms(ctx, [&] { ours(); }); });
  row.ours_wall = measure(warmup, reps, [&] { return wall_ms(ctx, [&] { ours(); }); });
  const double flops = 2.0 * double(n) * double(n) * double(n);
  row.gflops = flops / (row.ours.median_ms * 1e6);
  row.fraction_of_fma = fma_gflops > 0 ? row.gflops / fma_gflops : 0;
  if (baseline) {
    auto theirs = [&] {
      clblast_call(row.routine.c_str(), [&](cl_event* e) {
        return xgemm(n, T(1), a.cl_buffer()(), b.cl_buffer()(), T(0), c.cl_buffer()(), &ctx.queue()(), e);
      });
    };
    c.upload(poison);
    wall_ms(ctx, theirs);  // first call: CLBlast compiles here
    row.baseline_check = check_entries(ha, hb, c.download(), n, seed + n + 2);
    row.theirs = measure(warmup, reps, [&] { return wall_ms(ctx, theirs); });
    row.baseline_gflops = flops / (row.theirs.median_ms * 1e6);
    row.speedup = row.theirs.median_ms / row.ours_wall.median_ms;
  }
  return row;
}

}  // namespace

std::vector<GemmRow> run_gemm(Context& ctx, const std::vector<std::size_t>& sizes,
                              const std::vector<std::string>& types, int warmup, int reps, bool baseline,
                              unsigned long long seed, const Ceilings& ceilings) {
  std::vector<GemmRow> rows;
  for (const std::string& type : types)
    for (std::size_t n : sizes)
      rows.push_back(type == "double" ? run_one<double>(ctx, n, warmup, reps, baseline, seed, ceilings.fma64_gflops)
                                      : run_one<float>(ctx, n, warmup, reps, baseline, seed, ceilings.fma_gflops));
  return rows;
}

}  // namespace bench
