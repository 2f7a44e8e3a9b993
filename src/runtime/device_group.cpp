// SPDX-License-Identifier: Apache-2.0
// Device groups: the selector parsed into devices (sub-devices made where
// asked), each given a Context of its own.
#include "portacl/context.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <utility>

#include "portacl/error.hpp"
#include "rules/group_rules.hpp"
#include "rules/quirks.hpp"

namespace portacl {

struct DeviceGroup::Member {
  Member(const Device& d, const ContextOptions& options) : device(d), context(d, options) {}
  Device device;
  Context context;
};

namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t"), last = s.find_last_not_of(" \t");
  return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = s.find(separator, start)) != std::string::npos; start = at + 1)
    parts.push_back(trim(s.substr(start, at - start)));
  parts.push_back(trim(s.substr(start)));
  return parts;
}

bool digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// "gpu:1", "cpu:0", "accelerator:2", "3", "1:0", each optionally "/N".
bool position(std::string s) {
  if (const auto slash = s.rfind('/'); slash != std::string::npos) s = s.substr(0, slash);
  if (digits(s)) return true;
  const auto colon = s.find(':');
  if (colon == std::string::npos || !digits(s.substr(colon + 1))) return false;
  const std::string head = s.substr(0, colon);
  return digits(head) || head == "gpu" || head == "cpu" || head == "accelerator";
}

// One part: a single-device selector, split into sub-devices if "/N".
std::vector<Device> part_devices(const std::string& part, const std::string& whole) {
  if (part.empty()) throw Error("device group '" + whole + "': an empty part");
  const auto slash = part.rfind('/');
  if (slash == std::string::npos) return {select_device(part)};
  const std::string count = part.substr(slash + 1);
  if (!digits(count) || count.size() > 6)
    throw Error("device group '" + whole + "': '" + part + "' must end in /N, N a number of sub-devices");
  return split_device(select_device(part.substr(0, slash)), std::stoul(count));
}

std::vector<Device> group_devices(const std::string& given) {
  std::string selector = trim(given);
  if (selector.empty())
    if (const char* env = std::getenv("PORTACL_DEVICE")) selector = trim(env);
  if (selector == "all") {
    std::vector<Device> all = all_devices();
    if (all.empty()) throw Error("device group 'all': no OpenCL device");
    return all;
  }
  std::vector<std::string> parts;
  if (selector.find('+') != std::string::npos) {
    parts = split(selector, '+');
  } else {
    parts = split(selector, ',');
    // Commas join positions; otherwise they are one device's conditions ("gpu,name=H100").
    if (!std::all_of(parts.begin(), parts.end(), position)) parts = {selector};
  }
  std::vector<Device> devices;
  for (const std::string& part : parts)
    for (Device& d : part_devices(part, selector)) devices.push_back(std::move(d));
  return devices;
}

// The workaround of quirk pocl.subdevice-freed-under-queue: a PoCL device's
// sub-devices are made once for each split and kept for the life of the
// process (never released, not even at exit), so that none is freed while
// PoCL still releases the queue of a group that has gone. Elsewhere each
// split makes its own.
cl_int sub_devices(const Device& device, const cl_device_partition_property* properties,
                   std::vector<cl::Device>& subs) {
  using Split = std::pair<cl_device_id, cl_device_partition_property>;
  static std::mutex kept_mutex;
  static auto* kept = new std::map<Split, std::vector<cl::Device>>;
  const bool keep = quirk("pocl.subdevice-freed-under-queue").applies(device.info());
  const Split split{device.cl_device()(), properties[1]};
  std::lock_guard<std::mutex> held(kept_mutex);
  if (keep && kept->count(split)) {
    subs = kept->at(split);
    return CL_SUCCESS;
  }
  cl::Device parent = device.cl_device();  // a handle: createSubDevices is not const
  const cl_int err = parent.createSubDevices(properties, &subs);
  if (err == CL_SUCCESS && keep) (*kept)[split] = subs;
  return err;
}

}  // namespace

std::vector<Device> split_device(const Device& device, std::size_t parts) {
  const std::size_t units = device.info().compute_units;
  const std::string what = "splitting " + device.info().name + " (" + std::to_string(units) + " compute units)";
  if (parts == 0 || parts > units)
    throw Error(what + " into " + std::to_string(parts) + " sub-devices: the parts must be 1 to " +
                std::to_string(units));
  const cl_device_partition_property properties[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                     static_cast<cl_device_partition_property>(units / parts), 0};
  std::vector<cl::Device> subs;
  const cl_int err = sub_devices(device, properties, subs);
  if (err != CL_SUCCESS)
    throw Error(what + " into " + std::to_string(parts) + ": clCreateSubDevices(CL_DEVICE_PARTITION_EQUALLY) failed (" +
                std::to_string(err) + "): the device may not support partitioning");
  if (subs.size() < parts)
    throw Error(what + ": the driver made " + std::to_string(subs.size()) + " sub-devices, not " +
                std::to_string(parts));
  subs.resize(parts);  // a remainder of units stays unused
  std::vector<Device> devices;
  for (const cl::Device& sub : subs)
    devices.emplace_back(device.cl_platform(), sub, device.platform_index(), device.device_index(), device.index());
  return devices;
}

DeviceGroup::DeviceGroup(const std::string& selector, const ContextOptions& options)
    : DeviceGroup(group_devices(selector), options) {}

DeviceGroup::DeviceGroup(const std::vector<Device>& devices, const ContextOptions& options) {
  if (devices.empty()) throw Error("device group: no devices");
  std::set<cl_device_id> seen;
  for (const Device& d : devices)
    if (!seen.insert(d.cl_device()()).second)
      throw Error("device group: " + d.describe() + " is named twice (a device works for one member only)");
  // Quirk pocl.dlhandle-cache-release: PoCL members build their programs
  // with a define of their own, so that no two members' kernels share an
  // entry of PoCL's compiled-kernel cache.
  std::size_t pocl_members = 0;
  for (const Device& d : devices) pocl_members += quirk("pocl.dlhandle-cache-release").applies(d.info());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    ContextOptions member = options;
    if (pocl_members > 1 && quirk("pocl.dlhandle-cache-release").applies(devices[i].info()))
      member.extra_build_options +=
          (member.extra_build_options.empty() ? "" : " ") + std::string("-DPORTACL_GROUP_MEMBER=") + std::to_string(i);
    members_.push_back(std::make_unique<Member>(devices[i], member));
  }
  weights_.assign(members_.size(), 1.0);
}

void DeviceGroup::set_weights(const std::vector<double>& weights) {
  if (weights.size() != members_.size())
    throw Error("device group: " + std::to_string(weights.size()) + " weights for " + std::to_string(members_.size()) +
                " members");
  split_by_weight(0, weights);  // refuses negative, non-finite and all-zero weights
  weights_ = weights;
}

std::vector<std::size_t> DeviceGroup::split(std::size_t n) const { return split_by_weight(n, weights_).first; }

std::string DeviceGroup::explain_split(std::size_t n) const {
  return split_by_weight(n, weights_).why + " (rule group.split)";
}

DeviceGroup::~DeviceGroup() = default;

std::size_t DeviceGroup::size() const { return members_.size(); }
Context& DeviceGroup::context(std::size_t i) { return members_.at(i)->context; }
const Device& DeviceGroup::device(std::size_t i) const { return members_.at(i)->device; }

std::string DeviceGroup::describe() const {
  std::string text;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    const DeviceInfo& info = members_[i]->device.info();
    text += "member " + std::to_string(i) + ": " + members_[i]->device.describe() + ", " +
            std::to_string(info.compute_units) + " compute units\n";
  }
  return text;
}

}  // namespace portacl
