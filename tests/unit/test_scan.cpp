// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "test_support.hpp"

using namespace portacl;

namespace {

// Inputs whose prefix sums are exact in T, so any order of addition gives
// the host's sequential result bit for bit.
template <class T>
std::vector<T> exact_inputs(std::size_t n) {
  if (std::is_integral<T>::value) {
    std::uniform_int_distribution<int> d(-1000, 1000);
    std::vector<T> v(n);
    for (auto& e : v) e = static_cast<T>(d(test::rng()));
    return v;
  }
  return test::random_dyadic<T>(n, 2, 8);
}

template <class T>
T poison() {
  return std::is_integral<T>::value ? static_cast<T>(0x5EED5EED) : std::numeric_limits<T>::quiet_NaN();
}

// Bitwise equality that also treats NaN == NaN (the poison).
template <class T>
bool same(T a, T b) {
  return a == b || (std::isnan(static_cast<double>(a)) && std::isnan(static_cast<double>(b)));
}

template <class T>
void check_scans(Context& ctx, std::size_t n, const PlanOptions& opt) {
  INFO("n = " << n);
  const std::vector<T> x = exact_inputs<T>(n);
  // The shared reference's sums, exact in double and (by the inputs) in T.
  auto values = [](const std::vector<reference::Exact>& e) {
    std::vector<T> v(e.size());
    for (std::size_t i = 0; i < e.size(); ++i) v[i] = static_cast<T>(e[i].value);
    return v;
  };
  const std::vector<T> inc = values(reference::scan(x, true)), exc = values(reference::scan(x, false));
  Buffer<T> dx(ctx, x), dy(ctx, std::vector<T>(n, poison<T>()));
  inclusive_scan(ctx, dx, dy, opt);
  CHECK(test::first_difference(dy.download(), inc) == "equal");
  dy.upload(std::vector<T>(n, poison<T>()));
  exclusive_scan(ctx, dx, dy, opt);
  CHECK(test::first_difference(dy.download(), exc) == "equal");
  Buffer<T> in_place(ctx, x);
  inclusive_scan(ctx, in_place, in_place, opt);
  CHECK(test::first_difference(in_place.download(), inc) == "equal");

  // Compaction: the kept elements in order, the count, and y untouched after.
  std::vector<T> kept;
  for (T v : x)
    if (v > T(0)) kept.push_back(v);
  std::vector<T> y(n + 3, poison<T>());
  Buffer<T> dz(ctx, y);
  std::size_t count = compact(ctx, "x > 0", dx, dz, opt);
  REQUIRE(count == kept.size());
  std::vector<T> got = dz.download();
  bool ok = true;
  for (std::size_t i = 0; i < got.size(); ++i) ok = ok && same(got[i], i < count ? kept[i] : poison<T>());
  CHECK(ok);
}

}  // namespace

TEMPLATE_TEST_CASE("scans and compaction match the host at awkward sizes", "[scan]", int, float, double) {
  Context& ctx = test::cpu_context();
  for (std::size_t n : test::awkward_sizes) check_scans<TestType>(ctx, n, {});
  check_scans<TestType>(ctx, (std::size_t{1} << 20) + 7, {});
}

TEMPLATE_TEST_CASE("scans and compaction run single- and two-pass under every device class's plan", "[scan]", int,
                   float, double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    for (int passes : {1, 2}) {
      INFO(f << ", " << passes << " pass(es)");
      for (std::size_t n : test::class_plan_sizes) check_scans<TestType>(ctx, n, test::with_passes(opt, passes));
    }
    Buffer<TestType> x(ctx, 1000), y(ctx, 1000);
    LaunchPlan p = inclusive_scan(ctx, x, y, opt);
    CHECK(p.device_class == classify(*opt.plan_as).device_class);
    // With global atomics every class scans in one pass: GPUs by
    // decoupled look-back over work-group tiles, barrier-free plans (CPUs)
    // over chunks of one work-item each (rule general.scan-chunks).
    const bool lookback = p.use_local_memory && !p.barrier_free_variant && p.passes == 1;
    const bool chunks = !lookback && p.passes == 1;
    REQUIRE(p.decision("scan") != nullptr);
    CHECK(p.decision("scan")->rule == (chunks ? "general.scan-chunks" : "general.single-pass-combine"));
    CHECK(p.work_group_size() == (chunks ? 1u : p.work_group_size()));
    if (p.device_class == DeviceClass::nvidia_gpu || p.device_class == DeviceClass::amd_gcn_gpu) CHECK(lookback);
    if (p.device_class == DeviceClass::cpu) CHECK(chunks);
    // Rule nvidia.scan-tiles: 2-element vectors, 128 bytes a work-item in registers.
    if (p.device_class == DeviceClass::nvidia_gpu && lookback)
      CHECK(p.macros.at("VW") + " " + p.macros.at("SCAN_BYTES") + " " + p.macros.at("SCAN_KEEP") == "2 128 1");
  }
}

TEST_CASE("look-back scans stay correct over many launches and tiles", "[scan]") {
  // Many tiles wait on each other through the status words; repeated
  // launches reuse those words under new epochs without clearing them.
  Context& ctx = test::cpu_context();
  PlanOptions opt;
  for (const auto& c : test::class_plans(ElementType::f32))
    if (c.fixture.find("h100") != std::string::npos) opt = test::with_passes(c.options, 1);
  REQUIRE(opt.plan_as);
  for (int launch = 0; launch < 5; ++launch) check_scans<int>(ctx, 300007 + 1000 * launch, opt);
}

TEST_CASE("scans and reductions fence their partials for the device that runs them, whatever class's plan", "[scan]") {
  // A CPU class's plan of a double scan on an H100 fenced its partials with
  // mem_fence alone (work-group scope there), and read stale prefixes when
  // other processes shared the GPU (4 runs in 16). The device-wide fence
  // follows the running device, not the plan's class.
  Context& ctx = test::cpu_context();
  const std::string want = (sub_group_ops_of(ctx.info()) & warp_shuffle) ? "1" : "0";
  for (const auto& [fixture, opt] : test::rules_and_class_plans(ElementType::f64)) {
    INFO(fixture);
    for (int passes : {1, 2}) {
      Buffer<double> x(ctx, 5000), y(ctx, 5000);
      CHECK(inclusive_scan(ctx, x, y, test::with_passes(opt, passes)).macros.at("NV_MEMBAR") == want);
      LaunchPlan used;
      sum_async(ctx, x, test::with_passes(opt, passes), &used).get();
      CHECK(used.macros.at("NV_MEMBAR") == want);
    }
  }
  // The sparse kernels and the Krylov sums publish partials too: they take
  // the fence from the same plan (one decision, in the planner), never
  // from a class's fixture.
  HostCsr<double> csr;
  csr.rows = csr.cols = 3;
  csr.row_ptr = {0, 1, 2, 3};
  csr.col = {0, 1, 2};
  csr.value = {2.0, 2.0, 2.0};
  const SparseMatrix<double> a(ctx, csr);
  for (const auto& [fixture, opt] : test::rules_and_class_plans(ElementType::f64))
    for (const SpmvMethod& method : spmv_methods()) {
      // The rules' own plan and an NVIDIA class's (the fence must not come
      // from the fixture): every method compiled twice, not for every class.
      if (fixture != "rules" && fixture.find("h100") == std::string::npos) continue;
      INFO(fixture << ", " << method.name());
      Buffer<double> x(ctx, std::vector<double>{1, 2, 3}), y(ctx, 3);
      CHECK(spmv(ctx, 1.0, a, x, 0.0, y, method, opt).macros.at("NV_MEMBAR") == want);
    }
}

TEST_CASE("chunked single-pass scans stay correct over many chunks and launches", "[scan]") {
  // The CPU single pass with 4 KiB chunks: hundreds of chunks wait on each
  // other's published sums, and the status words are reused under new
  // epochs; the two-pass scan of the same plan must agree.
  // Under a CPU's plan (what makes it barrier-free) on whatever device runs the tests.
  Context& ctx = test::cpu_context();
  PlanOptions opt;
  for (const auto& c : test::class_plans(ElementType::f32))
    if (classify(*c.options.plan_as).device_class == DeviceClass::cpu) opt = c.options;
  REQUIRE(opt.plan_as);
  PlanOverride ov;
  ov.passes = 1;
  ov.macros = {{"SCAN_CHUNK_KIB", "4"}};
  ov.provenance = "test: 4 KiB chunks";
  opt.override_values = ov;
  for (int launch = 0; launch < 4; ++launch) {
    check_scans<int>(ctx, 300007 + 1000 * launch, opt);
    check_scans<double>(ctx, 100003 + 17 * launch, opt);
  }
  Buffer<float> x(ctx, 300007), y(ctx, 300007);
  const LaunchPlan p = inclusive_scan(ctx, x, y, opt);
  REQUIRE(p.decision("scan") != nullptr);
  CHECK(p.decision("scan")->rule == "general.scan-chunks");
  CHECK(p.work_groups == (300007 + 1023) / 1024);
}

TEST_CASE("compaction keeps NaN-free values and handles all or nothing kept", "[scan]") {
  Context& ctx = test::cpu_context();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x = test::random_vector<float>(5003);
  for (std::size_t i = 0; i < x.size(); i += 7) x[i] = nan;
  Buffer<float> dx(ctx, x), dy(ctx, x.size());
  std::size_t count = compact(ctx, "!isnan(x)", dx, dy);
  CHECK(count == x.size() - (x.size() + 6) / 7);
  std::vector<float> got = dy.download();
  std::vector<float> want;
  for (float v : x)
    if (!std::isnan(v)) want.push_back(v);
  got.resize(count);
  CHECK(got == want);
  CHECK(compact(ctx, "x > 100", dx, dy) == 0);
  CHECK(compact(ctx, "isnan(x) || !isnan(x)", dx, dy) == x.size());
}

TEST_CASE("scans refuse bad operands", "[scan]") {
  Context& ctx = test::cpu_context();
  Buffer<float> a(ctx, 10), b(ctx, 11), c(ctx, 9);
  CHECK_THROWS_WITH(inclusive_scan(ctx, a, b), Catch::Contains("inclusive_scan: x has 10 elements but y has 11"));
  CHECK_THROWS_WITH(exclusive_scan(ctx, a, c), Catch::Contains("exclusive_scan: x has 10"));
  CHECK_THROWS_WITH(compact(ctx, "x > 0", a, c), Catch::Contains("compact: y has 9 elements but x has 10"));
  CHECK_THROWS_WITH(compact(ctx, "x > 0", a, a), Catch::Contains("compact: y and x share the same memory"));
  CHECK_THROWS_WITH(compact(ctx, " ", a, b), Catch::Contains("predicate is empty"));
  Context& other = test::another_context();
  Buffer<float> foreign(other, 10);
  CHECK_THROWS_WITH(inclusive_scan(ctx, foreign, a), Catch::Contains("buffer x belongs to another context"));
  try {
    compact(ctx, "x > undefined_symbol", a, b);
    FAIL("no exception");
  } catch (const BuildError& e) {
    CHECK_THAT(e.build_log(), Catch::Contains("undefined_symbol"));
  }
}
