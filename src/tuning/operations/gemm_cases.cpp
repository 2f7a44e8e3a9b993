// SPDX-License-Identifier: Apache-2.0
// The GEMM family's benchmark cases (portacl-bench --gemm-sizes and
// --gemm-types): C = A B on square row-major matrices of order N, float or
// double, by the rules or a tuned plan, beside CLBlast's Sgemm or Dgemm.
// 64 random entries of C are checked against the host (a full host product
// of a large order takes minutes).
#include <clblast_c.h>

#include <limits>
#include <random>

#include "../family.hpp"
#include "family_parts.hpp"
#include "../clblast_call.hpp"
#include "../host_reference.hpp"
#include "portacl/blas.hpp"

namespace portacl {
namespace {

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
struct GemmState {
  // Device buffers first: an order the device cannot hold fails there,
  // naming the buffer, before n^2 elements of host memory are taken.
  GemmState(Context& ctx, std::size_t n, std::size_t elements)
      : n(n), a(ctx, elements), b(ctx, elements), c(ctx, elements), ha(elements), hb(elements) {}
  std::size_t n;
  Buffer<T> a, b, c;
  std::vector<T> ha, hb;
  LaunchPlan run(Context& ctx) {
    return gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, n, n, n, T(1), MatrixRef<T>{a, 0, n},
                MatrixRef<T>{b, 0, n}, T(0), c, 0, n);
  }
  void poison() { c.upload(std::vector<T>(n * n, std::numeric_limits<T>::quiet_NaN())); }
  std::string sampled(unsigned long long seed) {
    return reference::compare_gemm_samples(ha, hb, c.download(), n, seed);
  }
};

template <class T>
BenchCase gemm_case(Context& ctx, std::size_t n, unsigned long long seed) {
  const std::size_t elements = checked_product(n, n, "GEMM order " + std::to_string(n));
  auto s = std::make_shared<GemmState<T>>(ctx, n, elements);
  std::mt19937_64 rng(seed + n);
  std::uniform_real_distribution<T> d(-1, 1);
  for (auto& v : s->ha) v = d(rng);
  for (auto& v : s->hb) v = d(rng);
  s->a.upload(s->ha);
  s->b.upload(s->hb);
  const double flops = 2.0 * double(n) * double(n) * double(n);
  BenchCase c{"gemm " + std::to_string(n) + "^3", cl_type_name(element_of<T>::value),
              3.0 * sizeof(T) * double(elements), flops, double(elements)};
  c.state = s;
  c.size = n;
  c.arithmetic_bound = true;
  BenchVariant rules{"rules",
                     [&ctx, s, seed, n] {
                       s->poison();
                       s->run(ctx);
                       return s->sampled(seed + n + 1);
                     },
                     [&ctx, s] { return s->run(ctx); }};
  rules.describe = [](const LaunchPlan& plan) {
    return plan.summary() + (plan.provenance.rfind("tuning database", 0) == 0 ? ", tuned" : "") +
           (plan.decision("backend") ? ", CLBlast backend" : "");
  };
  c.variants.push_back(std::move(rules));
  const char* routine = sizeof(T) == 8 ? "Dgemm" : "Sgemm";
  auto theirs = [&ctx, s, routine] {
    clblast_call(routine, [&](cl_event* e) {
      return xgemm(s->n, T(1), s->a.cl_buffer()(), s->b.cl_buffer()(), T(0), s->c.cl_buffer()(), &ctx.queue()(), e);
    });
  };
  c.baseline = BenchBaseline{routine, theirs, [s, theirs, seed, n] {
                               s->poison();
                               theirs();
                               return s->sampled(seed + n + 2);
                             }};
  return c;
}

std::vector<BenchCase> gemm_bench_cases(Context& ctx, const CaseSpec& spec, unsigned long long seed) {
  if (spec.kind == "double") return {gemm_case<double>(ctx, spec.values[0], seed)};
  return {gemm_case<float>(ctx, spec.values[0], seed)};
}

CaseForms gemm_cases() {
  return {"--gemm-sizes", {{"float", {{"N"}}, "SGEMM of order N"}, {"double", {{"N"}}, "DGEMM of order N"}}};
}

const FamilyRegistration gemm_family({"gemm", 40, gemm_operations, gemm_cases, gemm_bench_cases});

}  // namespace
}  // namespace portacl
