// SPDX-License-Identifier: Apache-2.0
/// \file
/// The planner: device description + kernel traits + problem size -> launch
/// plan, by the chapter-1 rules, with live limits always winning and a hook
/// through which a tuning database can override the rules' defaults.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "portacl/device/device_info.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/rules/launch_plan.hpp"

namespace portacl {

/// Ways a kernel can combine values across a sub-group (bits).
enum SubGroupOps : unsigned {
  sub_group_reduce = 1u,  ///< cl_khr_subgroups: sub_group_reduce_add
  warp_shuffle = 2u,      ///< NVIDIA: shfl.sync through inline PTX, warps of 32
};
unsigned sub_group_ops_of(const DeviceInfo& d);

/// The hard limits a plan must respect.
struct DeviceLimits {
  std::size_t max_work_group_size = 0;                   ///< 0: unknown (no limit applied)
  std::array<std::size_t, 3> max_item_sizes{{0, 0, 0}};  ///< 0: unknown
  std::size_t local_mem_size = 0;
  /// Capabilities a plan may rely on; unset: unknown, no restriction.
  std::optional<bool> global_atomics;     ///< 32-bit atomics on global memory
  std::optional<unsigned> sub_group_ops;  ///< SubGroupOps bits
  /// The compiler that builds the kernels orders global writes across
  /// work-groups only with an inline membar.gl (NVIDIA's own OpenCL, whose
  /// mem_fence is work-group scope): a fact of the device that runs the
  /// kernels, so a fixture's plan run there keeps the running device's value.
  std::optional<bool> nv_membar;
  std::string source;  ///< whose limits these are, for explanations

  static DeviceLimits of(const DeviceInfo& d);
  /// The tighter of two sets of limits (a fixture's plan run on a real device).
  DeviceLimits intersect(const DeviceLimits& other) const;
};

/// Values a tuning database (or a caller) substitutes for the rules' choices.
struct PlanOverride {
  std::optional<std::size_t> work_group_size;
  std::optional<std::array<std::size_t, 3>> local_shape;
  std::optional<unsigned> vector_width;
  std::optional<std::size_t> work_groups;  ///< cap on work-groups (grid stride)
  std::optional<bool> use_local_memory;
  std::optional<unsigned> passes;             ///< reductions and scans: 1 or 2
  std::map<std::string, std::string> macros;  ///< extra tunables for the .cl source
  std::string provenance = "override";
  /// Set by a provider whose stored result cannot be used here (why not):
  /// the rules plan, and the provenance says which result did not apply.
  std::string refused;
};

/// The hook for the tuning database: asked for every plan; an empty result
/// means "use the rules".
using PlanOverrideProvider =
    std::function<std::optional<PlanOverride>(const DeviceInfo&, const KernelTraits&, const ProblemSize&)>;
/// `refresh`, when given, lets the provider notice that its answers changed
/// (a tuning database rewritten on disk) and call plan_inputs_changed().
void set_plan_override_provider(PlanOverrideProvider provider, std::function<void()> refresh = nullptr);
/// A number that changes whenever a plan made earlier may differ from what
/// make_plan would give now (another provider, a reloaded database): plans
/// cached per call shape are reused only while it stays the same. Cheap to
/// ask on every call (the provider's refresh rate-limits itself).
std::uint64_t plan_generation();
void plan_inputs_changed();
bool has_plan_override_provider();
/// What the installed provider answers for this plan (nullopt: none, or no
/// stored result): how a tuned plan's own configuration is re-run when it is
/// checked at first use.
std::optional<PlanOverride> provided_override(const DeviceInfo& device, const KernelTraits& traits,
                                              const ProblemSize& size);

struct PlanOptions {
  /// Also respect these limits (e.g. PoCL's, when running a fixture's plan).
  std::optional<DeviceLimits> live_limits;
  /// CL_KERNEL_WORK_GROUP_SIZE of the compiled kernel, once known (0: unknown).
  std::size_t kernel_work_group_limit = 0;
  /// An explicit override for this plan; takes precedence over the provider.
  std::optional<PlanOverride> override_values;
  bool consult_provider = true;
  /// Plan by this device's rules instead of the context's own (the context's
  /// live limits still apply): how AMD or MIC plans are run on PoCL.
  std::optional<DeviceInfo> plan_as;
  /// True when the plan is left to the device's rules and the tuning
  /// database alone: such calls' preparations may be cached per shape.
  bool leaves_plan_to_device() const {
    return !live_limits && kernel_work_group_limit == 0 && !override_values && consult_provider && !plan_as;
  }
};

/// Throws portacl::Error naming kernel and device when `device` lacks the
/// precision `traits.element` needs (fp64, fp16).
void require_precision(const DeviceInfo& device, const KernelTraits& traits);

/// Throws portacl::Error when the request cannot be planned at all (double on
/// a device without fp64, dimensions outside 1..3).
LaunchPlan make_plan(const DeviceInfo& device, const KernelTraits& traits, const ProblemSize& size,
                     const PlanOptions& options = {});

}  // namespace portacl

namespace portacl {
/// How buffers on this device are best filled (the memory rule of the plan).
MemoryStrategy preferred_memory_strategy(const DeviceInfo& device);
}  // namespace portacl
