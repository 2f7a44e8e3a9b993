// SPDX-License-Identifier: Apache-2.0
#include "rules/replay_rules.hpp"

#include <cstdio>

#include "portacl/error.hpp"

namespace portacl {
namespace {

// Bits of CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR and of queue
// properties, by value: the provisional extension's header names have
// moved between releases.
constexpr std::uint64_t kSimultaneousUse = 1u << 2;

// The provisional interface portacl calls: 0.9.x, whose entry points for
// creating, recording kernels, finalizing, enqueueing and releasing have
// kept one calling convention.
bool speaks(std::uint32_t version) { return (version >> 22) == 0 && ((version >> 12) & 0x3ff) == 9; }

bool is_pocl(const DeviceInfo& d) { return d.platform_name.find("Portable Computing Language") != std::string::npos; }

std::string hex(std::uint64_t bits) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(bits));
  return text;
}

}  // namespace

ReplaySupport command_replay_support(const DeviceInfo& device, std::uint64_t queue_properties) {
  if (!device.command_buffer)
    return {false, device.has_extension("cl_khr_command_buffer")
                       ? "the description names cl_khr_command_buffer without its version and capabilities "
                         "(read from a clinfo dump, not the live device)"
                       : "the device does not offer cl_khr_command_buffer"};
  const CommandBufferSupport& c = *device.command_buffer;
  if (!speaks(c.version))
    return {false, "the device offers cl_khr_command_buffer " + c.version_text() +
                       "; portacl calls the provisional 0.9 interface and no other"};
  if (!(c.capabilities & kSimultaneousUse))
    return {false,
            "its command buffers cannot be enqueued again while an earlier enqueue is pending "
            "(no simultaneous use), so each replay would wait for the last"};
  const std::uint64_t missing = c.required_queue_properties & ~queue_properties;
  if (missing)
    return {false, "command buffers need queue properties " + hex(missing) +
                       " that the context's queue was made "
                       "without"};
  return {true, "cl_khr_command_buffer " + c.version_text() + " with simultaneous use"};
}

bool cg_replays_iteration(LaunchPlan& plan, const DeviceInfo& device, std::uint64_t queue_properties,
                          bool single_reduction, std::optional<bool> asked) {
  const char* rule = "solver.replay-iteration";
  if (asked && !*asked) {
    plan.decide("iteration", "launched kernel by kernel", rule, "the caller asked for plain launches");
    return false;
  }
  const ReplaySupport support = command_replay_support(device, queue_properties);
  std::string against;
  if (!single_reduction)
    against = "the product is not fused with its dot, and SpMV's own launches are not recorded";
  else if (!support.usable)
    against = support.why;
  if (!against.empty()) {
    if (asked) throw Error("cg: the iteration cannot be replayed as asked: " + against);
    plan.decide("iteration", "launched kernel by kernel", rule, against);
    return false;
  }
  if (!asked && is_pocl(device)) {
    plan.decide("iteration", "launched kernel by kernel", rule,
                support.why +
                    ", but PoCL replays a recording command by command: the replay took 1.0-1.17x the "
                    "plain launches' time an iteration (2D Laplacians of 256 to 65536 rows)");
    return false;
  }
  plan.decide("iteration", "recorded once, replayed", rule,
              support.why + ": one enqueue an iteration instead of two launches and their arguments");
  return true;
}

}  // namespace portacl
