// SPDX-License-Identifier: Apache-2.0
#include "rules/particles_nbody_rules.hpp"

#include <string>

#include "portacl/device.hpp"
#include "rules/coverage_rules.hpp"

namespace portacl {

namespace {

// Rule particles.nbody-bodies-per-item: `planned` unless tuned.
unsigned bodies_per_item(LaunchPlan& plan, const TuningSpace& space, unsigned planned, const std::string& why) {
  if (const auto tuned = space.chosen(plan, "BODIES")) return static_cast<unsigned>(*tuned);
  plan.decide("BODIES", std::to_string(planned), "particles.nbody-bodies-per-item", why);
  return planned;
}

// The shape as particles_nbody.cl's macros.
NbodyShape carried(LaunchPlan& plan, const NbodyShape& s) {
  plan.macros["NBODY_SPLIT"] = s.layout == NbodyLayout::split_vectors ? "1" : "0";
  plan.macros["UNROLL"] = std::to_string(s.unroll);
  plan.macros["BODIES"] = std::to_string(s.bodies);
  plan.macros["NEWTON_RSQRT"] = s.newton_rsqrt ? "1" : "0";
  return s;
}

NbodyShape shape_of(LaunchPlan& plan, const TuningSpace& space, std::size_t n, const DeviceInfo& device) {
  NbodyShape s;
  if (plan.barrier_free_variant || !plan.use_local_memory) {
    s.layout = NbodyLayout::split_vectors;
    const std::size_t vw = plan.vector_width;
    s.padded = (n + vw - 1) / vw * vw;
    plan.decide("layout", "split x, y, z, m arrays", "particles.nbody-layout",
                "vectors of " + std::to_string(vw) + " bodies j at a time, one body i per work-item: SIMD lanes " +
                    "over j need each coordinate in its own array");
    // PoCL, 2^14 bodies, AVX-512 (portacl-tune): 4 bodies 129.5 ms, 1 body
    // 131.7: the sum is bound by its arithmetic, not by the loads.
    s.bodies = bodies_per_item(plan, space, 1, "1 body i a work-item: the pairs' arithmetic, not the loads, bounds it");
    if (const auto tuned = space.chosen(plan, "NEWTON_RSQRT")) {
      s.newton_rsqrt = *tuned != 0;
      return s;
    }
    // PoCL builds rsqrt from a square root and a division, both on the
    // divider. 2 Intel AVX-512 cores (466 GFLOP/s FMA peak): 92-93 GFLOP/s,
    // against 115-118 with a bit-level first guess and three Newton steps
    // on the FMA units. 2 AMD Zen 4 cores (232 GFLOP/s: 512-bit FMAs at
    // half rate), 16384 bodies, the quiet rounds: the built-in rsqrt
    // 44.4-45.5 ms, Newton's steps 56.4-59.9 ms.
    // The vendor by name: PoCL reports vendor id 0x8086 on AMD's CPUs too.
    if (classify(device).device_class == DeviceClass::cpu && device.vendor.find("AMD") != std::string::npos &&
        device.native_vector_width.of(ElementType::f32) >= 16) {
      plan.decide("NEWTON_RSQRT", "0", "particles.nbody-rsqrt",
                  "the built-in 1/sqrt(r^2): on AMD's AVX-512 CPUs the divider keeps up with the FMA units");
      return s;
    }
    s.newton_rsqrt = true;
    const bool wide = plan.macros.count("T") && plan.macros.at("T") == "double";
    plan.decide("NEWTON_RSQRT", "1", "particles.nbody-rsqrt",
                std::string("1/sqrt(r^2) from a first guess and ") + (wide ? "four" : "three") +
                    " Newton steps: FMAs instead of the divider");
    return s;
  }
  s.layout = NbodyLayout::float4_tiles;
  // The element's 4-vector: float4 (16 bytes) or double4 (32).
  const std::string element = plan.macros.count("T") ? plan.macros.at("T") : "float";
  plan.decide("layout", element + "4 tiles", "particles.nbody-layout",
              "each body one " + std::string(element == "double" ? "32" : "16") + "-byte load; tiles of " +
                  std::to_string(plan.local[0]) +
                  " bodies staged in local memory, read by every work-item of the group");
  s.bodies = bodies_per_item(plan, space, 1, "1 body i a work-item: the tile's broadcast reads cost little");
  if (const auto tuned = space.chosen(plan, "UNROLL")) {
    s.unroll = static_cast<unsigned>(*tuned);
  } else if (plan.device_class == DeviceClass::nvidia_gpu) {
    // H100, 2^16 bodies (portacl-tune): unrolled 16 times 3.06 ms, 8 times
    // 3.09, 4 times 3.18.
    s.unroll = 16;
    plan.decide("UNROLL", "16", "particles.nbody-unroll",
                "the inner loop over a tile unrolled 16 times: more independent pairs in flight per warp");
  } else {
    s.unroll = 4;
    plan.decide("UNROLL", "4", "particles.nbody-unroll",
                "the inner loop over a tile unrolled 4 times: the textbook's best for shared-memory tiles (+18%)");
  }
  return s;
}

}  // namespace

NbodyShape choose_nbody(LaunchPlan& plan, const TuningSpace& space, std::size_t n, const DeviceInfo& device) {
  return carried(plan, shape_of(plan, space, n, device));
}

NbodyLaunches plan_nbody_launches(LaunchPlan plan, const TuningSpace& space, std::size_t n, std::size_t count,
                                  bool potential, const DeviceInfo& device) {
  NbodyLaunches l;
  l.shape = choose_nbody(plan, space, n, device);
  plan.macros["POTENTIAL"] = potential ? "1" : "0";
  cover_items(plan, count, l.shape.bodies, "bodies");
  l.forces = std::move(plan);
  return l;
}

LaunchPlan nbody_half_step(LaunchPlan plan, std::size_t count, bool potential) {
  cover_items(plan, count, 1, "bodies");
  plan.macros["POTENTIAL"] = potential ? "1" : "0";
  return plan;
}

}  // namespace portacl
