// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "kernels/stream_tunables.hpp"
#include "kernels/reduce_tunables.hpp"
#include "kernels/gemm_tunables.hpp"
#include "rules/plan_provider.hpp"

using namespace portacl;

namespace {

// The reference shapes (float and double) plus a char stream, whose SIMD
// width differs from the float one on every CPU.
std::vector<KernelTraits> shapes() {
  std::vector<KernelTraits> s;
  for (const auto& r : reference_shapes(true)) s.push_back(r.traits);
  KernelTraits chars = axpy_traits(ElementType::i8);
  chars.name = "char-stream";
  s.push_back(chars);
  return s;
}

std::size_t simd_lanes(const DeviceInfo& d, ElementType e) {
  std::size_t w = std::max(d.native_vector_width.of(e), d.preferred_vector_width.of(e));
  return w >= 2 ? w : classify(d).simd_width_float * 4 / size_of(e);
}

void check_class_rules(const DeviceInfo& d, const KernelTraits& t, const ProblemSize& size, const LaunchPlan& p) {
  const Classification c = classify(d);
  const std::size_t wg = p.work_group_size();
  INFO("kernel " << t.name << " n=" << size.extent[0] << "\n" << p.explain());
  REQUIRE(wg >= 1);
  // Live limits.
  CHECK(wg <= d.max_work_group_size);
  for (unsigned i = 0; i < 3; ++i) CHECK(p.local[i] <= d.max_item_size(i));
  for (unsigned i = 0; i < p.dimensions; ++i) CHECK(p.global[i] % p.local[i] == 0);
  if (p.use_local_memory) CHECK(t.local_bytes_per_work_item * wg <= d.local_mem_size);
  // Coverage: every element is some work-item's.
  if (size.elements() && t.dimensions == 1)
    CHECK(p.global[0] * p.items_per_work_item * p.vector_width >= size.extent[0]);
  if (size.elements() == 0) CHECK(p.empty());
  CHECK(p.work_groups * wg == p.global[0] * p.global[1] * p.global[2]);
  // The class's own rules.
  switch (c.device_class) {
    case DeviceClass::nvidia_gpu:
      CHECK(wg % 32 == 0);
      CHECK(wg <= 1024);
      CHECK(p.memory == MemoryStrategy::pinned_staging);
      if (t.dimensions == 2) CHECK(p.local[0] == 32);
      if (t.benefits_from_local_tiling) CHECK(p.use_local_memory);
      break;
    case DeviceClass::amd_gcn_gpu:
      CHECK(wg % 64 == 0);
      CHECK(wg <= 256);
      if (t.dimensions == 2) CHECK(p.local[0] == 16);
      if (t.benefits_from_local_tiling) CHECK(p.use_local_memory == (d.local_mem_type == LocalMemType::local));
      break;
    case DeviceClass::cpu:
      CHECK(wg % simd_lanes(d, t.element) == 0);
      CHECK(!p.use_local_memory);
      CHECK(p.memory == MemoryStrategy::map_host_memory);
      if (t.needs_barriers && t.has_barrier_free_variant) CHECK(p.barrier_free_variant);
      if (t.vectorizable) CHECK(p.vector_width == std::min<std::size_t>(16, simd_lanes(d, t.element)));
      if (t.dimensions == 1 && size.extent[0] >= (std::size_t{1} << 24)) CHECK(p.work_groups >= 10 * d.compute_units);
      break;
    case DeviceClass::intel_mic:
      CHECK(wg % 16 == 0);
      CHECK(!p.use_local_memory);
      if (t.vectorizable) CHECK(p.vector_width == std::min<std::size_t>(16, 64 / size_of(t.element)));
      if (t.dimensions == 1 && size.extent[0] >= (std::size_t{1} << 24)) CHECK(p.work_groups >= d.compute_units);
      CHECK(p.memory == MemoryStrategy::pinned_staging);
      break;
    default: break;
  }
}

}  // namespace

TEST_CASE("every fixture's plans obey its class's rules and limits", "[rules]") {
  for (const auto& f : test::fixture_files()) {
    DeviceInfo d = test::load_fixture(f);
    INFO(f << " (" << to_string(classify(d).device_class) << ")");
    for (const auto& t : shapes()) {
      if (t.element == ElementType::f64 && !d.fp64) {
        CHECK_THROWS_WITH(make_plan(d, t, ProblemSize(100)), Catch::Contains("cl_khr_fp64"));
        continue;
      }
      std::vector<ProblemSize> sizes = t.dimensions == 1
                                           ? std::vector<ProblemSize>{ProblemSize(0), ProblemSize(1), ProblemSize(997),
                                                                      ProblemSize(std::size_t{1} << 24)}
                                           : std::vector<ProblemSize>{ProblemSize(0, 0), ProblemSize(1, 1),
                                                                      ProblemSize(67, 131), ProblemSize(4096, 4096)};
      for (const auto& s : sizes) check_class_rules(d, t, s, make_plan(d, t, s));
    }
  }
}

TEST_CASE("every decision cites a rule of the book", "[rules]") {
  for (const auto& f : test::fixture_files()) {
    DeviceInfo d = test::load_fixture(f);
    for (const auto& t : shapes()) {
      if (t.element == ElementType::f64 && !d.fp64) continue;
      LaunchPlan p = make_plan(d, t, ProblemSize(1 << 20, t.dimensions > 1 ? 64 : 1));
      REQUIRE(!p.decisions.empty());
      for (const auto& dec : p.decisions) {
        CHECK_NOTHROW(rule(dec.rule));
        CHECK(!dec.why.empty());
      }
      CHECK_THAT(p.explain(), Catch::Contains("work_group_size"));
      CHECK(p.to_json().find("decisions")->as_array().size() == p.decisions.size());
    }
  }
  CHECK_THROWS_WITH(rule("no.such-rule"), Catch::Contains("not in the rule book"));
}

TEST_CASE("live limits win over the book", "[rules]") {
  DeviceInfo nv = test::load_fixture("nvidia_gtx1080.clinfo");
  DeviceLimits tiny;
  tiny.max_work_group_size = 64;
  tiny.max_item_sizes = {{64, 64, 64}};
  tiny.local_mem_size = 1024;
  tiny.source = "a small device";
  PlanOptions o;
  o.live_limits = tiny;
  LaunchPlan p = make_plan(nv, axpy_traits(ElementType::f32), ProblemSize(100000), o);
  CHECK(p.work_group_size() == 64);
  bool cited = false;
  for (const auto& d : p.decisions) cited |= d.rule == "limits.max-work-group-size";
  CHECK(cited);

  PlanOptions k;
  k.kernel_work_group_limit = 100;  // not a multiple of the warp: round down to one
  LaunchPlan q = make_plan(nv, axpy_traits(ElementType::f32), ProblemSize(100000), k);
  CHECK(q.work_group_size() == 96);
  CHECK(q.macros.at("WG_SIZE") == "96");

  // A tiled kernel whose local memory no longer fits falls back to the plain variant.
  KernelTraits tiled = gemm_traits(ElementType::f32);
  tiled.local_bytes_per_work_item = 64;
  LaunchPlan r = make_plan(nv, tiled, ProblemSize(512, 512), o);
  CHECK(!r.use_local_memory);
}

TEST_CASE("the override hook replaces rule defaults, limits still win", "[rules]") {
  DeviceInfo amd = test::load_fixture("amd_gfx902_vega.clinfo");
  set_plan_override_provider(
      [](const DeviceInfo&, const KernelTraits& t, const ProblemSize&) -> std::optional<PlanOverride> {
        if (t.name != "axpy") return std::nullopt;
        PlanOverride o;
        o.work_group_size = 4096;  // beyond the device: must be clamped
        o.vector_width = 2;
        o.work_groups = 7;
        o.macros["UNROLL"] = "4";
        o.provenance = "tuning database: test";
        return o;
      });
  LaunchPlan p = make_plan(amd, axpy_traits(ElementType::f32), ProblemSize(1 << 22));
  LaunchPlan untouched =
      make_plan(amd, reduce_traits("sum", ElementType::f32, 1, sizeof(float), true, 1), ProblemSize(1 << 22));
  set_plan_override_provider(nullptr);
  CHECK(p.provenance == "tuning database: test");
  CHECK(p.work_group_size() == 256);
  CHECK(p.vector_width == 2);
  CHECK(p.work_groups == 7);
  CHECK(p.macros.at("UNROLL") == "4");
  CHECK(untouched.provenance == "rules");
  LaunchPlan after = make_plan(amd, axpy_traits(ElementType::f32), ProblemSize(1 << 22));
  CHECK(after.provenance == "rules");

  PlanOptions bad;
  bad.override_values = PlanOverride{};
  bad.override_values->vector_width = 3;
  CHECK_THROWS_WITH(make_plan(amd, axpy_traits(ElementType::f32), ProblemSize(10), bad),
                    Catch::Contains("vector width 3"));
}

TEST_CASE("plans that cannot exist are refused", "[rules]") {
  DeviceInfo mic = test::load_fixture("intel_xeon_phi_knc.clinfo");  // its dump shows no fp64
  CHECK_THROWS_WITH(make_plan(mic, axpy_traits(ElementType::f64), ProblemSize(10)),
                    Catch::Contains("double precision"));
  KernelTraits t = axpy_traits(ElementType::f32);
  t.dimensions = 4;
  CHECK_THROWS_WITH(make_plan(mic, t, ProblemSize(10)), Catch::Contains("1, 2 or 3"));
}

TEST_CASE("build options hold only size-independent choices", "[rules]") {
  DeviceInfo d = test::load_fixture("nvidia_gtx1080.clinfo");
  LaunchPlan a = make_plan(d, axpy_traits(ElementType::f32), ProblemSize(1000));
  LaunchPlan b = make_plan(d, axpy_traits(ElementType::f32), ProblemSize(10000000));
  CHECK(a.build_options() == b.build_options());
  CHECK(a.work_groups != b.work_groups);
}
