// SPDX-License-Identifier: Apache-2.0
#include "portacl/runtime/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "portacl/device/read_device.hpp"
#include "portacl/error.hpp"
#include "portacl/util/checked.hpp"

namespace portacl {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::string listing(const std::vector<Device>& devs) {
  if (devs.empty())
    return "\nno OpenCL device is installed (is an ICD such as pocl-opencl-icd present, and OCL_ICD_VENDORS right?)";
  std::string s = "\navailable devices:";
  for (const auto& d : devs) s += "\n  " + d.describe();
  return s;
}

}  // namespace

Device::Device(cl::Platform platform, cl::Device device, unsigned pi, unsigned di, unsigned gi)
    : platform_(std::move(platform)),
      device_(std::move(device)),
      platform_index_(pi),
      device_index_(di),
      global_index_(gi),
      info_(read_device_info(platform_, device_)),
      class_(classify(info_)) {}

std::string Device::describe() const {
  return "[" + std::to_string(global_index_) + "] (" + std::to_string(platform_index_) + ":" +
         std::to_string(device_index_) + ") " + info_.name + " (" + info_.platform_name + ") " +
         to_string(class_.device_class);
}

Device device_of(const cl::Device& device) {
  for (const Device& d : all_devices())
    if (d.cl_device()() == device()) return d;
  throw Error("the OpenCL device " + (device() ? "'" + device.getInfo<CL_DEVICE_NAME>() + "'" : std::string("(null)")) +
              " is not a device of any platform (a sub-device?); portacl works on whole devices");
}

std::vector<Device> all_devices() {
  std::vector<cl::Platform> platforms;
  cl_int err = cl::Platform::get(&platforms);
  // The ICD loader answers CL_PLATFORM_NOT_FOUND_KHR when none is installed.
  if (err == -1001 || platforms.empty()) return {};
  check_cl(err, "clGetPlatformIDs");
  std::vector<Device> out;
  unsigned global = 0;
  for (unsigned pi = 0; pi < platforms.size(); ++pi) {
    std::vector<cl::Device> devs;
    err = platforms[pi].getDevices(CL_DEVICE_TYPE_ALL, &devs);
    if (err == CL_DEVICE_NOT_FOUND) continue;
    check_cl(err, "clGetDeviceIDs(platform " + std::to_string(pi) + ")");
    for (unsigned di = 0; di < devs.size(); ++di) out.emplace_back(platforms[pi], devs[di], pi, di, global++);
  }
  return out;
}

Device select_device(const std::string& selector_in) {
  std::string selector = selector_in;
  std::string from = "selector";
  if (selector.empty()) {
    if (const char* env = std::getenv("PORTACL_DEVICE")) {
      selector = env;
      from = "PORTACL_DEVICE";
    }
  }
  std::vector<Device> devs = all_devices();
  auto fail = [&](const std::string& why) -> Device {
    throw Error("no OpenCL device matches " + from + " '" + selector + "': " + why + listing(devs));
  };
  if (devs.empty()) {
    throw Error("no OpenCL device available" + listing(devs));
  }
  if (selector.empty()) {
    for (const auto& d : devs)
      if (d.info().type == DeviceType::gpu) return d;
    return devs.front();
  }
  if (all_digits(selector)) {
    const std::uint64_t i = parse_unsigned_or_throw(selector, "device index '" + selector + "'", UINT32_MAX);
    if (i < devs.size()) return devs[i];
    return fail("index " + selector + " is out of range");
  }
  size_t colon = selector.find(':');
  if (colon != std::string::npos && all_digits(selector.substr(0, colon)) && all_digits(selector.substr(colon + 1))) {
    const std::uint64_t pi = parse_unsigned_or_throw(selector.substr(0, colon), "platform index", UINT32_MAX),
                        di = parse_unsigned_or_throw(selector.substr(colon + 1), "device index", UINT32_MAX);
    for (const auto& d : devs)
      if (d.platform_index() == pi && d.device_index() == di) return d;
    return fail("no device " + selector.substr(colon + 1) + " on platform " + selector.substr(0, colon));
  }
  std::string type_word = lower(colon == std::string::npos ? selector : selector.substr(0, colon));
  DeviceType wanted = DeviceType::unknown;
  if (type_word == "gpu") wanted = DeviceType::gpu;
  if (type_word == "cpu") wanted = DeviceType::cpu;
  if (type_word == "accelerator" || type_word == "acc") wanted = DeviceType::accelerator;
  if (wanted != DeviceType::unknown) {
    unsigned long nth = 0;
    if (colon != std::string::npos) {
      std::string rest = selector.substr(colon + 1);
      if (!all_digits(rest)) return fail("'" + rest + "' after ':' is not a number");
      nth = parse_unsigned_or_throw(rest, "device number after '" + type_word + ":'", UINT32_MAX);
    }
    unsigned long seen = 0;
    for (const auto& d : devs)
      if (d.info().type == wanted && seen++ == nth) return d;
    return fail(seen ? "only " + std::to_string(seen) + " device(s) of type " + type_word
                     : "no device of type " + type_word);
  }
  std::string needle = lower(selector);
  for (const auto& d : devs)
    if (lower(d.info().name).find(needle) != std::string::npos) return d;
  for (const auto& d : devs)
    if (lower(d.info().platform_name).find(needle) != std::string::npos) return d;
  return fail("no device or platform name contains it");
}

}  // namespace portacl
