// SPDX-License-Identifier: Apache-2.0
#include "rules/row_team.hpp"

#include <algorithm>

namespace portacl {

namespace {
bool simd_device(DeviceClass c) { return c == DeviceClass::cpu || c == DeviceClass::intel_mic; }
}  // namespace

RuleChoice sub_group_width(const LaunchPlan& plan, const DeviceInfo& device) {
  if (simd_device(plan.device_class)) {
    std::size_t simd = 1;
    while (simd < 16 && simd * 2 <= device.native_vector_width.of(plan.traits.element)) simd *= 2;
    simd = std::max<std::size_t>(simd, 8);
    return {simd, "general.sub-group-combine",
            "one SIMD register's worth of work-items (" + std::to_string(simd) + ") solves a block of unknowns"};
  }
  if (plan.device_class == DeviceClass::amd_gcn_gpu)
    return {64, "general.sub-group-combine", "one wavefront of 64 solves a block of unknowns"};
  return {32, "general.sub-group-combine", "one warp of 32 solves a block of unknowns"};
}

RuleChoice row_team(const LaunchPlan& plan, const DeviceInfo& device) {
  if (simd_device(plan.device_class)) return {1, "cpu.vector-types", "one work-item walks a row in SIMD vectors"};
  const RuleChoice sub_group = sub_group_width(plan, device);
  return {sub_group.value,
          plan.device_class == DeviceClass::amd_gcn_gpu ? "amd.coalescing-shape" : "nvidia.coalescing-shape",
          "a sub-group of " + std::to_string(sub_group.value) + " reads a row's consecutive elements together"};
}

RuleChoice update_row_team(const LaunchPlan& plan, std::size_t row_stride, std::size_t work_group) {
  if (row_stride == 1 || simd_device(plan.device_class))
    return {1, "general.cover-problem", "neighbouring work-items take neighbouring rows"};
  const std::size_t team = std::min<std::size_t>(8, work_group);
  return {team, "general.cover-problem", std::to_string(team) + " work-items share a row's block"};
}

}  // namespace portacl
