// SPDX-License-Identifier: Apache-2.0
#include "ceilings.hpp"

#include <algorithm>
#include <string>

namespace bench {

using namespace portacl;

namespace {

template <class T>
void set_peak_args(PreparedKernel& k, cl_uint iterations, const cl::Buffer& out) {
  const T seed = T(0.5);
  detail::set_arg(k.kernel, k.name, 0, sizeof iterations, &iterations);
  detail::set_arg(k.kernel, k.name, 1, sizeof seed, &seed);
  detail::set_arg(k.kernel, k.name, 2, sizeof(cl_mem), &out());
}

}  // namespace

Stats measure_fma(Context& ctx, ElementType element, int warmup, int reps, double& flops) {
  KernelTraits t;
  t.name = "fma_peak";
  t.element = element;
  t.bytes_per_item = 0;
  t.flops_per_item = 1;
  // Enough work-items to fill the device by its own rules, each with a
  // long chain: the launch lasts milliseconds.
  const std::size_t items = std::size_t{1} << 22;
  PreparedKernel k = ctx.prepare(KernelRef{"peak.cl", "fma_peak", ""}, t, ProblemSize(items));
  const cl_uint iterations = 4096;
  const std::size_t threads = k.plan.global[0];
  flops = 2.0 * 8 * k.plan.vector_width * double(iterations) * threads;
  const cl::Buffer& out = ctx.scratch("bench.fma", threads * size_of(element));
  if (element == ElementType::f64)
    set_peak_args<double>(k, iterations, out);
  else
    set_peak_args<float>(k, iterations, out);
  return measure(warmup, reps, [&] { return portacl_ms(ctx, [&] { ctx.launch(k); }); });
}

Ceilings measure_ceilings(Context& ctx, std::size_t n, int warmup, int reps) {
  Ceilings c;
  c.copy_elements = n;
  {
    Buffer<float> x(ctx, n), y(ctx, n);
    fill(ctx, x, 1.0f);
    PlanOptions float4;
    PlanOverride ov;
    ov.vector_width = 4;
    ov.provenance = "bench: float4 copy";
    float4.override_values = ov;
    // The faster of the float4 copy and the rules' own copy: on the H100 the
    // float4 copy of 2^26 floats (0.2013 ms) ran 5% behind the rules' copy
    // (0.1917 ms), and every streaming row read above 100% of it.
    const Stats float4_copy = measure(warmup, reps, [&] { return portacl_ms(ctx, [&] { copy(ctx, x, y, float4); }); });
    const Stats rules_copy = measure(warmup, reps, [&] { return portacl_ms(ctx, [&] { copy(ctx, x, y); }); });
    c.copy = rules_copy.median_ms < float4_copy.median_ms ? rules_copy : float4_copy;
    c.copy_variant = rules_copy.median_ms < float4_copy.median_ms ? "the rules' copy" : "float4 copy";
    c.copy_gbs = 2.0 * n * sizeof(float) / (c.copy.median_ms * 1e6);
  }
  c.fma = measure_fma(ctx, ElementType::f32, warmup, reps, c.fma_flops);
  c.fma_gflops = c.fma_flops / (c.fma.median_ms * 1e6);
  if (ctx.info().fp64) {
    c.fma64 = measure_fma(ctx, ElementType::f64, warmup, reps, c.fma64_flops);
    c.fma64_gflops = c.fma64_flops / (c.fma64.median_ms * 1e6);
  }
  return c;
}

double cache_bytes(const DeviceInfo& info) { return std::max(double(info.global_cache_size), 64.0 * 1024 * 1024); }

std::size_t out_of_cache_elements(const DeviceInfo& info, std::size_t largest) {
  // The copy moves 8 n bytes: four times the caches at n = cache / 2; at
  // the largest size asked for where that is more (a launch's fixed cost
  // weighs less: on the H100 a copy of 2^25 floats ran 5% below one of
  // 2^26), up to 2^28 floats.
  std::size_t n =
      std::max(static_cast<std::size_t>(cache_bytes(info) / 2), std::min<std::size_t>(largest, std::size_t{1} << 28));
  if (info.max_mem_alloc_size > 0) n = std::min<std::size_t>(n, info.max_mem_alloc_size / sizeof(float));
  if (info.global_mem_size > 0) n = std::min<std::size_t>(n, info.global_mem_size / (8 * sizeof(float)));
  return std::max<std::size_t>(n, 1);
}

}  // namespace bench
