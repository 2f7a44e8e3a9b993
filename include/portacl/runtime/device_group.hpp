// SPDX-License-Identifier: Apache-2.0
/// \file
/// Several devices used together: GPUs, a CPU, or parts of one device
/// (sub-devices made by clCreateSubDevices), each member with a Context of
/// its own (its own OpenCL context and in-order queue), so that the members
/// work at the same time and a slow one never holds up another's queue.
///
/// Selector grammar (also through PORTACL_DEVICE):
///   "all"               every device of every platform
///   "gpu:0,gpu:1"       devices by position, comma-separated (each part a
///                       position: "gpu:1", "cpu:0", "accelerator:0", an
///                       index "2" or "platform:device" "1:0")
///   "cpu+gpu"           single-device selectors (device.hpp's grammar,
///                       conditions included) joined by "+"
///   "SEL/N"             device SEL split into N sub-devices of equal
///                       compute units ("cpu/2", "pocl/2"), alone or as a
///                       part of the forms above ("gpu:0+cpu/2")
///   ""                  PORTACL_DEVICE; a selector of one device is a
///                       group of one.
/// Errors name the problem: a part that selects nothing (with the devices
/// listed), a device named twice, N of 0 or more than the device's compute
/// units, a device that cannot be split (no CL_DEVICE_PARTITION_EQUALLY).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "portacl/runtime/context.hpp"
#include "portacl/runtime/device.hpp"

namespace portacl {

class DeviceGroup {
 public:
  explicit DeviceGroup(const std::string& selector = "", const ContextOptions& options = {});
  explicit DeviceGroup(const std::vector<Device>& devices, const ContextOptions& options = {});
  ~DeviceGroup();
  DeviceGroup(const DeviceGroup&) = delete;
  DeviceGroup& operator=(const DeviceGroup&) = delete;

  std::size_t size() const;
  Context& context(std::size_t member);
  const Device& device(std::size_t member) const;
  /// "member 0: [0] (0:0) NVIDIA H100 ..., 132 compute units" a line each.
  std::string describe() const;

  /// Each member's weight in a split: its relative speed (1 each unless
  /// set). Throws portacl::Error for a count that is not the members', a
  /// weight that is negative or not finite, or weights that are all 0.
  void set_weights(const std::vector<double>& weights);
  const std::vector<double>& weights() const { return weights_; }
  /// Contiguous shares of n items by weight (rule group.split): member i's
  /// run from offsets[i] to offsets[i + 1] (members + 1 offsets).
  std::vector<std::size_t> split(std::size_t n) const;
  /// The split of n items in words, as plans explain their decisions.
  std::string explain_split(std::size_t n) const;

 private:
  struct Member;
  std::vector<std::unique_ptr<Member>> members_;
  std::vector<double> weights_;
};

/// Parts of `device`: `parts` sub-devices of equal compute units (the
/// device's units divided by `parts`, rounded down), as Devices a Context
/// can take. Throws portacl::Error when the device cannot be split so.
std::vector<Device> split_device(const Device& device, std::size_t parts);

}  // namespace portacl
