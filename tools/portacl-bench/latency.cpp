// SPDX-License-Identifier: Apache-2.0
#include "latency.hpp"

#include <random>

#include "kernels/sparse/generators.hpp"
#include "portacl/sparse.hpp"
#include "portacl/vectors.hpp"
#include "tuning/clblast_call.hpp"

namespace bench {

using namespace portacl;

namespace {

constexpr int kCallsPerSample = 200;

LatencyRow time_call(Context& ctx, const std::string& call, const std::string& problem, int warmup, int reps,
                     const std::function<void()>& once, int calls_per_sample = kCallsPerSample) {
  LatencyRow r{call, problem, {}, {}};
  r.host = measure(warmup, reps, [&] { return 1e-3 * host_us_per_call(ctx, calls_per_sample, once); });
  r.round_trip = measure(warmup, reps, [&] { return wall_ms(ctx, once); });
  return r;
}

std::vector<float> random_floats(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (auto& e : v) e = d(rng);
  return v;
}

}  // namespace

std::vector<LatencyRow> run_latency(Context& ctx, int warmup, int reps, bool baseline, unsigned long long seed) {
  std::mt19937_64 rng(seed);
  const std::size_t n = 1024, order = 64;
  Buffer<float> x(ctx, random_floats(n, rng)), y(ctx, random_floats(n, rng));
  Buffer<float> a(ctx, random_floats(order * order, rng)), b(ctx, random_floats(order * order, rng)),
      c(ctx, order * order);
  cl_int err = CL_SUCCESS;
  cl::Buffer scalar(ctx.cl_context(), CL_MEM_READ_WRITE, 16, nullptr, &err);
  check_cl(err, "clCreateBuffer(latency scalar)");
  cl_command_queue* q = &ctx.queue()();
  const std::string vec = "n=" + std::to_string(n), mat = std::to_string(order) + "^3";
  using M = MatrixRef<float>;
  std::vector<LatencyRow> rows;
  // alpha = 0 keeps y bounded however many times the calls repeat.
  rows.push_back(time_call(ctx, "portacl::axpy", vec, warmup, reps, [&] { axpy(ctx, 0.0f, x, y); }));
  rows.push_back(time_call(ctx, "portacl::sum (blocking)", vec, warmup, reps, [&] { (void)sum(ctx, x); }));
  rows.push_back(time_call(ctx, "portacl::gemm", mat, warmup, reps, [&] {
    gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, order, order, order, 1.0f, M{a, 0, order},
         M{b, 0, order}, 0.0f, c, 0, order);
  }));
  // The sparse product on a 32^2 grid's Laplacian (1024 rows): the rules'
  // method (DIA on GPUs), and csr-block (two launches where rows are long,
  // one here).
  const SparseMatrix<float> lap(ctx, poisson2d<float>(32));
  const std::string grid = "32^2 grid";
  rows.push_back(
      time_call(ctx, "portacl::spmv (rules)", grid, warmup, reps, [&] { spmv(ctx, 1.0f, lap, x, 0.0f, y); }));
  // And on a 256^2 grid's (65536 rows), where the product outweighs the call.
  const SparseMatrix<float> lap256(ctx, poisson2d<float>(256));
  Buffer<float> x256(ctx, random_floats(lap256.cols(), rng)), y256(ctx, lap256.rows());
  rows.push_back(time_call(
      ctx, "portacl::spmv (rules)", "256^2 grid", warmup, reps, [&] { spmv(ctx, 1.0f, lap256, x256, 0.0f, y256); },
      20));
  const SpmvMethod block{SparseFormat::csr, CsrVariant::block};
  rows.push_back(time_call(ctx, "portacl::spmv (csr-block)", grid, warmup, reps,
                           [&] { spmv(ctx, 1.0f, lap, x, 0.0f, y, block); }));
  // A whole CG solve on a 64^2 grid's Laplacian (4096 rows) from x = 0:
  // 50 iterations every call (the tolerance, 1e-12, is beyond float's reach).
  const SparseMatrix<float> lap64(ctx, poisson2d<float>(64));
  const Buffer<float> b64(ctx, random_floats(lap64.rows(), rng));
  Buffer<float> x64(ctx, lap64.rows());
  SolverOptions solve;
  solve.tolerance = 1e-12;
  solve.max_iterations = 50;
  rows.push_back(time_call(
      ctx, "portacl::cg (50 iterations)", "64^2 grid", warmup, reps,
      [&] {
        fill(ctx, x64, 0.0f);
        (void)cg(ctx, lap64, b64, x64, solve);
      },
      5));
  if (!baseline) return rows;
  rows.push_back(time_call(ctx, "CLBlastSaxpy", vec, warmup, reps, [&] {
    clblast_call("Saxpy", [&](cl_event* e) {
      return CLBlastSaxpy(n, 0.0f, x.cl_buffer()(), 0, 1, y.cl_buffer()(), 0, 1, q, e);
    });
  }));
  rows.push_back(time_call(ctx, "CLBlastSsum (result on device)", vec, warmup, reps, [&] {
    clblast_call("Ssum", [&](cl_event* e) { return CLBlastSsum(n, scalar(), 0, x.cl_buffer()(), 0, 1, q, e); });
  }));
  rows.push_back(time_call(ctx, "CLBlastSgemm", mat, warmup, reps, [&] {
    clblast_call("Sgemm", [&](cl_event* e) {
      return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, order, order, order, 1.0f,
                          a.cl_buffer()(), 0, order, b.cl_buffer()(), 0, order, 0.0f, c.cl_buffer()(), 0, order, q, e);
    });
  }));
  return rows;
}

}  // namespace bench
