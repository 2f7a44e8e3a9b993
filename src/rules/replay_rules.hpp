// SPDX-License-Identifier: Apache-2.0
/// Whether work that repeats (a solver's iteration) is recorded once and
/// replayed through cl_khr_command_buffer, or launched kernel by kernel
/// each time. The capability check reads the device description like a
/// quirk: the extension, its provisional version, and what it allows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"

namespace portacl {

/// Whether portacl can record commands on `device` and enqueue them again
/// while an earlier enqueue is still pending, on a queue made with
/// `queue_properties`; `why` says what stands in the way, or what is used.
struct ReplaySupport {
  bool usable = false;
  std::string why;
};
ReplaySupport command_replay_support(const DeviceInfo& device, std::uint64_t queue_properties);

/// Rule solver.replay-iteration: CG in the single-reduction form (two
/// launches of portacl's own kernels, whose arguments do not change from
/// one iteration to the next) records its iteration once and replays it
/// where command_replay_support allows, except on PoCL, whose replay was
/// measured no faster; `asked` is the caller's choice (false: plain
/// launches; true: replay wherever supported, or an error naming why not).
/// Recorded in `plan`; true when the iteration is replayed.
bool cg_replays_iteration(LaunchPlan& plan, const DeviceInfo& device, std::uint64_t queue_properties,
                          bool single_reduction, std::optional<bool> asked);

}  // namespace portacl
