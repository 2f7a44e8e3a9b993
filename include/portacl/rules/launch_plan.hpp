// SPDX-License-Identifier: Apache-2.0
/// \file
/// A launch plan: every choice the runtime makes for one kernel launch, each
/// with the rule that made it and why, so a user can see the reasoning.
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "portacl/device/device_class.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/util/json.hpp"

namespace portacl {

/// How host data reaches the device.
enum class MemoryStrategy {
  map_host_memory,  ///< zero copy: host-allocated buffer, mapped (CPUs, integrated GPUs)
  pinned_staging,   ///< copy through page-locked staging memory (discrete GPUs over PCIe)
  direct_copy,      ///< plain read/write from pageable memory
};
std::string to_string(MemoryStrategy m);

struct Decision {
  std::string what;   ///< "work_group_size", "vector_width", ...
  std::string value;  ///< as shown to the user
  std::string rule;   ///< rule id from the rule book ("nvidia.wg-warp-multiple")
  std::string why;    ///< the reasoning with the device's numbers
};
/// {"what", "value", "rule", "why"}
Json to_json(const Decision& d);

/// A plan's decisions, shared between copies until one of them adds a
/// decision (copy on write): plans are copied on every call that returns
/// one, and a plan explains itself in a dozen strings.
class DecisionList {
 public:
  using const_iterator = std::vector<Decision>::const_iterator;
  using const_reverse_iterator = std::vector<Decision>::const_reverse_iterator;
  const_iterator begin() const { return items().begin(); }
  const_iterator end() const { return items().end(); }
  const_reverse_iterator rbegin() const { return items().rbegin(); }
  const_reverse_iterator rend() const { return items().rend(); }
  std::size_t size() const { return items().size(); }
  bool empty() const { return items().empty(); }
  void push_back(Decision d);

 private:
  const std::vector<Decision>& items() const;
  std::shared_ptr<std::vector<Decision>> items_;
};

struct LaunchPlan {
  KernelTraits traits;  ///< what the plan was made for; traits.name names the kernel (and its tuning key)
  DeviceClass device_class = DeviceClass::other_accelerator;
  unsigned dimensions = 1;
  std::array<std::size_t, 3> local{{1, 1, 1}};
  std::array<std::size_t, 3> global{{0, 1, 1}};  ///< multiples of local
  unsigned vector_width = 1;
  bool use_local_memory = false;
  bool barrier_free_variant = false;
  /// Reductions and scans: 1 when the last work-group combines the partial
  /// results (a kernel argument, not a macro: both share one binary), else 2.
  unsigned passes = 1;
  std::size_t items_per_work_item = 1;  ///< grid-stride iterations (of vectors) per work-item
  std::size_t work_groups = 0;
  MemoryStrategy memory = MemoryStrategy::direct_copy;
  std::map<std::string, std::string> macros;  ///< -D macros for the .cl source
  DecisionList decisions;
  /// "rules" for the chapter-1 defaults, or the name of whatever overrode them
  /// (e.g. "tuning database: <file>").
  std::string provenance = "rules";

  std::size_t work_group_size() const { return local[0] * local[1] * local[2]; }
  bool empty() const { return work_groups == 0; }
  /// "-DVW=4 -DWG_SIZE=256 ..." in a stable order (part of the binary cache key).
  std::string build_options() const;
  /// One line per decision: what = value  [rule] why.
  std::string explain() const;
  /// One line in plain words: "work-group 256, 2112 work-groups, vector
  /// width 4, 8 items per work-item, no local memory, ...".
  std::string summary() const;
  Json to_json() const;

  void decide(std::string what, std::string value, std::string rule, std::string why);
  /// The latest decision on `what`, or nullptr when none was made.
  const Decision* decision(const std::string& what) const;
};

}  // namespace portacl
