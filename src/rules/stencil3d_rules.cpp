// SPDX-License-Identifier: Apache-2.0
// The 3D stencils' device-dependent choices (stencil family): the variant,
// the star's plane-queue counts (outputs in y, loads in flight, block
// width) and its z chunks. stencil3d's host code validates, asks these,
// prepares and launches.
#include <algorithm>
#include <string>

#include "rules/stencil_rules.hpp"

namespace portacl {

bool stencil3d_uses_plane_queue(LaunchPlan& plan, bool star, std::optional<bool> forced) {
  if (!star) {
    plan.decide("variant", "cache-reliant", "stencil3d.plane-queue",
                "a general stencil reads every point through the caches");
    return false;
  }
  if (forced) {
    plan.decide("variant", *forced ? "plane queue" : "cache-reliant", "caller.choice", "asked for by the caller");
    return *forced;
  }
  const bool queue = plan.use_local_memory;
  plan.decide("variant", queue ? "plane queue" : "cache-reliant", "stencil3d.plane-queue",
              queue ? "each input cell is read from memory once per plane; the queue holds the z neighbours"
                    : "the plan takes no local memory here (see use_local_memory)");
  return queue;
}

// GPUs keep more of each plane's loads in flight than one step issues; a
// wider, taller block cuts the halo's share of them (H100, 512^3 r4).
RuleCount star_outputs_y(DeviceClass device_class) {
  if (gpu_class(device_class))
    return RuleCount{4, "stencil3d.outputs-per-work-item",
                     "four outputs per work-item in y: a block 4 work-items tall per work-group row"};
  return RuleCount{2, "stencil3d.outputs-per-work-item",
                   "two outputs per work-item in y share the halo loads and the plane's barriers"};
}

RuleCount star_loads_in_flight(DeviceClass device_class) {
  if (gpu_class(device_class))
    return RuleCount{3, "stencil3d.loads-in-flight", "each plane's loads are issued 3 plane steps before their use"};
  return RuleCount{1, "stencil3d.loads-in-flight", "each plane's loads are issued one plane step before their use"};
}

std::optional<RuleCount> star_block_width(DeviceClass device_class, std::size_t out_nx, std::size_t group,
                                          bool shape_forced) {
  if (!gpu_class(device_class) || shape_forced || out_nx < 64 || group < 64 || group % 64 != 0) return std::nullopt;
  return RuleCount{64, "stencil3d.block-width",
                   "64 columns per block row: the halo's left and right columns are R/64 of its loads"};
}

std::size_t star_z_chunk(const DeviceInfo& device, std::size_t nz, std::size_t groups_per_plane, std::size_t radius,
                         std::optional<std::size_t> forced) {
  if (forced) return std::min(*forced, nz);
  // At least 16R planes a chunk, so that the 2R planes it reads before its
  // first output cost at most an eighth more reads (H100, 256^3 r4:
  // 64-plane chunks 0.073 ms against 0.093 with 52).
  const std::size_t want = 4 * std::max<std::size_t>(device.compute_units, 1);
  const std::size_t per_chunk = std::max<std::size_t>(groups_per_plane, 1);
  const std::size_t chunks = std::min(nz, std::max<std::size_t>(1, (want + per_chunk - 1) / per_chunk));
  return std::max((nz + chunks - 1) / chunks, std::min(nz, 16 * radius));
}

void decide_star_z_chunk(LaunchPlan& plan, const DeviceInfo& device, std::size_t z_chunk, bool forced) {
  plan.decide(
      "z_chunk", std::to_string(z_chunk) + " planes", forced ? "caller.choice" : "stencil3d.plane-queue",
      std::to_string(plan.work_groups) + " work-groups for " + std::to_string(device.compute_units) + " compute units");
}

}  // namespace portacl
