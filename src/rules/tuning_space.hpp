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

#include "portacl/device.hpp"
#include "portacl/plan.hpp"

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
  /// Names of the values, in their order, for a knob whose values are
  /// choices rather than quantities (SpMV's METHOD). A tuning record stores
  /// the name, so what a record means never hangs on a list's order.
  /// Empty: the values are numbers, stored as numbers.
  std::vector<std::string> names = {};
  /// The name of `value` (its number where the knob has no names).
  std::string name_of(long value) const;
};

/// One point of a space: a value for some (usually all) of its knobs.
using Configuration = std::map<std::string, long>;
std::string to_string(const Configuration& c);  ///< "passes=1 vector_width=4 ..."
/// Knob values a record stores by name (Tunable::names): knob -> name.
using NamedValues = std::map<std::string, std::string>;

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

/// True when the plan's latest decision on `what` ("local_shape",
/// "vector_width") came from a tuning record: a family's rule then leaves
/// that choice alone.
bool decided_by_tuning(const LaunchPlan& plan, const std::string& what);

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

/// `c` as a record stores it: knobs of `space` that name their values go to
/// `named`, the others to `numbers`.
void split_named_values(const TuningSpace& space, const Configuration& c, Configuration& numbers, NamedValues& named);
/// A record's named values turned back into numbers of `space` and added to
/// `c`: "" or why not (a knob without names, a name the knob does not have,
/// with the names it has).
std::string resolve_named_values(const TuningSpace& space, const NamedValues& named, Configuration& c);
/// "METHOD=csr-vector work_group_size=64": a record's configuration as
/// stored, both parts.
std::string to_string(const Configuration& numbers, const NamedValues& named);

/// The override that makes the planner use `c` on `device`.
PlanOverride to_override(const Configuration& c, const DeviceInfo& device, const std::string& provenance);

}  // namespace portacl
