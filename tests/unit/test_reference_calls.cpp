// SPDX-License-Identifier: Apache-2.0
// portacl-query's family calls: every family plans on every device class
// from a description alone, by the functions the calls themselves use.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>

#include "kernels/planner.hpp"
#include "kernels/gemv_tunables.hpp"
#include "kernels/scan_tunables.hpp"
#include "kernels/sort_tunables.hpp"
#include "test_support.hpp"

using namespace portacl;

TEST_CASE("every family's reference call plans on every device class from its description alone", "[rules]") {
  for (const char* fixture : {"nvidia_h100.clinfo", "nvidia_gtx1080.clinfo", "amd_gfx902_vega.clinfo",
                              "intel_xeon_phi_knc.clinfo", "intel_cpu_i7-6700.clinfo", "pocl_epyc_avx2.clinfo"}) {
    INFO(fixture);
    const DeviceInfo d = test::load_fixture(fixture);
    PlanOptions rules;
    rules.consult_provider = false;  // the rules alone: no tuning record applies
    const std::vector<ReferenceCall> calls = reference_calls(d, rules);
    std::set<std::string> families;
    for (const ReferenceCall& c : calls) {
      INFO(c.label);
      CHECK(c.error == "");
      CHECK(!c.launches.empty());
      families.insert(c.family);
      for (const auto& [kernel, plan] : c.launches) {
        INFO(kernel);
        CHECK(!kernel.empty());
        CHECK(plan.work_group_size() >= 1);
        CHECK(plan.work_group_size() <= d.max_work_group_size);
        CHECK(plan.provenance == "rules");
        CHECK(!plan.decisions.empty());
      }
    }
    CHECK(families == std::set<std::string>{"sparse", "stencil", "histogram", "gemv", "trsv", "packed_symv", "reduce",
                                            "scan", "sort", "particles", "binary_gemm", "kmeans", "knn", "conv_layer",
                                            "pooling", "gemm", "stream", "ml", "fft"});
    CHECK(calls.size() == 32);
    // A 33 x 33 mask on 4096^2: by FFT on GPUs, directly on CPUs and MIC
    // (rule convolution.fft), the transforms' launches shown where it runs.
    for (const ReferenceCall& c : calls)
      if (c.label == "convolve2d float, 4096^2, 33 x 33 mask") {
        REQUIRE(c.decisions.size() == 1);
        CHECK(c.decisions[0].rule == "convolution.fft");
        const bool gpu =
            classify(d).device_class != DeviceClass::cpu && classify(d).device_class != DeviceClass::intel_mic;
        CHECK(c.decisions[0].value == (gpu ? "fft" : "direct"));
        CHECK((gpu ? c.launches.size() >= 7 : c.launches.size() == 1));
      }
    // The SpMV calls name their method's rule; a banded matrix is stored by
    // diagonals wherever the rules allow it.
    REQUIRE(calls[0].decisions.size() >= 1);
    CHECK(calls[0].decisions.front().what == "spmv_method");
  }
}

TEST_CASE("a family's reference call is the call's own plan: heat2d offline and live agree", "[rules]") {
  // The live call on this machine's device and the offline plan of the same
  // device's description make the same one-step plan (the temporal tile may
  // differ: offline, the compiled kernel's work-group limit is unknown).
  Context& ctx = test::cpu_context();
  const std::vector<ReferenceCall> offline = reference_calls(ctx.info(), {});
  const auto heat = std::find_if(offline.begin(), offline.end(),
                                 [](const ReferenceCall& c) { return c.label.rfind("heat2d", 0) == 0; });
  REQUIRE(heat != offline.end());
  REQUIRE(heat->error == "");
  Buffer<float> u(ctx, std::vector<float>(std::size_t{4096} * 4096, 0.0f));
  HeatOptions<float> o;
  o.steps_per_launch = 1;
  const LaunchPlan live = heat2d(ctx, u, 4096, 4096, o);
  CHECK(live.summary() == heat->launches.front().second.summary());
  CHECK(live.build_options() == heat->launches.front().second.build_options());
}

TEST_CASE("sort's reference plan is the call's own: offline and live agree", "[rules]") {
  // plan_sort on the device's description (what portacl-query --explain
  // shows) and the plan the sort itself ran under, keys alone and with values.
  Context& ctx = test::cpu_context();
  const std::size_t n = 100003;
  std::vector<std::uint32_t> data(n);
  std::uniform_int_distribution<std::uint32_t> key;
  for (std::uint32_t& k : data) k = key(test::rng());
  for (bool pairs : {false, true}) {
    INFO((pairs ? "sort_by_key" : "sort"));
    SortProblem problem;
    problem.n = n;
    problem.value_bytes = pairs ? 4 : 0;
    const SortLaunches offline = plan_sort(offline_planner(ctx.info(), {}), problem);
    Buffer<std::uint32_t> keys(ctx, data), values(ctx, data);
    const LaunchPlan live = pairs ? sort_by_key(ctx, keys, values) : sort(ctx, keys);
    CHECK(live.summary() == offline.passes.summary());
    CHECK(live.build_options() == offline.passes.build_options());
    CHECK(live.decisions.size() == offline.passes.decisions.size());
  }
}

TEST_CASE("the scan's reference plan is the call's own: offline and live agree", "[rules]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{100003}}) {
    INFO("n = " << n);
    const ScanLaunch offline = plan_scan(offline_planner(ctx.info(), {}), "prefix_sum", ElementType::f32, 4, n, 4);
    CHECK((offline.variant == ScanVariant::none) == (n == 0));
    Buffer<float> x(ctx, test::random_vector<float>(n)), y(ctx, n);
    const LaunchPlan live = inclusive_scan(ctx, x, y);
    CHECK(live.summary() == offline.plan.summary());
    CHECK(live.build_options() == offline.plan.build_options());
    CHECK(live.decisions.size() == offline.plan.decisions.size());
  }
}

TEST_CASE("GEMV's reference plans are the call's own: offline and live agree on both paths", "[rules]") {
  Context& ctx = test::cpu_context();
  const std::size_t m = 301, n = 257;
  Buffer<float> a(ctx, test::random_vector<float>(m * n)), x(ctx, test::random_vector<float>(std::max(m, n))),
      y(ctx, std::max(m, n));
  for (Transpose t : {Transpose::no, Transpose::yes}) {
    // Row-major A: op(A)'s rows are contiguous untransposed.
    const GemvPath path = t == Transpose::no ? GemvPath::rows : GemvPath::columns;
    INFO((path == GemvPath::rows ? "rows" : "columns"));
    const std::size_t rows = t == Transpose::no ? m : n, cols = t == Transpose::no ? n : m;
    const GemvLaunches offline = plan_gemv(offline_planner(ctx.info(), {}), ElementType::f32, path, rows, cols, {});
    const LaunchPlan live = gemv(ctx, Layout::row_major, t, rows, cols, 1.0f, MatrixRef<float>{a, 0, n},
                                 VectorRef<float>{x}, 0.0f, y, 0, 1);
    CHECK(live.summary() == offline.product.summary());
    CHECK(live.build_options() == offline.product.build_options());
    CHECK(live.decisions.size() == offline.product.decisions.size());
  }
}

TEST_CASE("the sum's reference plan is the call's own: offline and live agree", "[rules]") {
  Context& ctx = test::cpu_context();
  const std::size_t n = std::size_t{1} << 24;
  const std::vector<ReferenceCall> offline = reference_calls(ctx.info(), {});
  const auto sum_call = std::find_if(offline.begin(), offline.end(),
                                     [](const ReferenceCall& c) { return c.label.rfind("sum float", 0) == 0; });
  REQUIRE(sum_call != offline.end());
  REQUIRE(sum_call->error == "");
  Buffer<float> x(ctx, std::vector<float>(n, 0.5f));
  LaunchPlan live;
  CHECK(sum(ctx, x, {}, &live) == 0.5f * float(n));
  CHECK(live.summary() == sum_call->launches.front().second.summary());
  CHECK(live.build_options() == sum_call->launches.front().second.build_options());
}
