// SPDX-License-Identifier: Apache-2.0
// portacl-bench's device-group section: strong and weak scaling of CG (2D
// Poisson), heat 2D and N-body over a device group, each member alone
// first, in the same run, with the split's weights, the efficiency against
// the members' summed rates, and the share of time the exchange was not
// hidden.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace bench {

struct GroupScalingArgs {
  std::string group;               // device_group.hpp selector
  std::string reference;           // "" or a single device timed alone beside the group ("cpu" for "cpu/2")
  std::vector<std::string> cases;  // "cg:N" (N x N grid), "heat:N" (N x N), "nbody:N"
  int reps = 3;
};

// Throws std::invalid_argument naming a malformed case.
void check_group_cases(const std::vector<std::string>& cases);
// Runs the section and prints its two tables; false when a group result
// differed from the single-device one beyond its stated tolerance.
bool run_group_scaling(const GroupScalingArgs& args, unsigned long long seed, std::ostream& out);

}  // namespace bench
