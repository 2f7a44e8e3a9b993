// SPDX-License-Identifier: Apache-2.0
/// \file
/// What a kernel lets the tuner change: one declaration per kernel family,
/// read by the runtime (defaults of kernel-specific knobs), the tuner (its
/// search space) and the tests (every candidate obeys every device's limits).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "portacl/device/device_info.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/rules/mapping_rules.hpp"

namespace portacl {

/// One knob. Knobs the planner owns have these names and map onto
/// PlanOverride: work_group_size, vector_width, groups_per_compute_unit
/// (work-groups = value x compute units), use_local_memory (0/1), passes.
/// Any other name is a macro of the kernel's .cl source (or a choice of its
/// host code); its `fallback` is the value used when nothing was tuned, or,
/// when unset, the family's host code decides from the device and problem
/// (and says so in the plan's decisions).
struct Tunable {
  std::string name;
  std::vector<long> values;
  std::optional<long> fallback;  ///< unset: the mapping rules decide
  std::string why;
};

/// One point of a space: a value for some (usually all) of its knobs.
using Configuration = std::map<std::string, long>;
std::string to_string(const Configuration& c);  ///< "passes=1 vector_width=4 ..."

struct TuningSpace {
  std::vector<Tunable> tunables;
  /// Kernel-specific rule: "" when the configuration makes sense, else why
  /// not (e.g. knobs that only one variant reads, so the others would repeat
  /// the same launch).
  std::function<std::string(const Configuration&)> constraint;
  /// Other implementations of the same operation (GEMM: CLBlast's), as
  /// partial configurations the search measures first whatever its strategy,
  /// so the database records whichever is faster here.
  std::vector<Configuration> alternatives = {};

  const Tunable& at(const std::string& name) const;  ///< throws on an unknown name
  /// A kernel macro's value under `plan`: the plan's (tuned) macro if set,
  /// else the declared fallback.
  long value_in(const LaunchPlan& plan, const std::string& name) const;
  /// Same, but empty for a knob with no fallback that nothing set: the
  /// caller's own rule decides.
  std::optional<long> chosen(const LaunchPlan& plan, const std::string& name) const;
  /// Every configuration, in mixed-radix order (index 0: every knob's first
  /// value); count() of them.
  std::size_t count() const;
  Configuration configuration(std::size_t index) const;
};

/// The planner's knobs with the candidate values most kernels search.
namespace knobs {
Tunable work_group_size(std::vector<long> values = {32, 64, 128, 256, 512, 1024});
Tunable vector_width(std::vector<long> values = {1, 2, 4, 8, 16});
Tunable groups_per_compute_unit(std::vector<long> values = {1, 2, 4, 8, 16, 32, 64});
Tunable use_local_memory();
Tunable passes();
/// A space constraint: `knob` (work-items sharing a row, ...) fits in one
/// work-group.
std::function<std::string(const Configuration&)> within_work_group(std::string knob);
}  // namespace knobs

/// "" when `c` can run on `device` for a kernel with `traits`, else which
/// limit it breaks: work-group size, local memory, vector width on a scalar
/// kernel, a single pass without global atomics, the space's own constraint.
/// The compiled kernel's own work-group limit is only known after building;
/// the tuner records a launch refused for it as invalid.
std::string check_configuration(const TuningSpace& space, const Configuration& c, const DeviceInfo& device,
                                const KernelTraits& traits);

/// "" when a stored configuration (a tuning-database record) may reach a
/// plan: every knob is declared by `space`, every value is one of the knob's
/// declared candidates, and check_configuration holds on `device`. Else why
/// not, naming the knob. Records failing it never become macros.
std::string stored_configuration_problem(const TuningSpace& space, const Configuration& c, const DeviceInfo& device,
                                         const KernelTraits& traits);

/// The override that makes the planner use `c` on `device`.
PlanOverride to_override(const Configuration& c, const DeviceInfo& device, const std::string& provenance);

}  // namespace portacl
