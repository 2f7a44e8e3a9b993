// SPDX-License-Identifier: Apache-2.0
#include "portacl/device.hpp"

#include "portacl/error.hpp"

namespace portacl {

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

}  // namespace portacl
