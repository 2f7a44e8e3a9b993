// SPDX-License-Identifier: Apache-2.0
/// \file
/// Finding devices: every platform's devices, classified, and selection by
/// index, "platform:device", type, or name substring, also through the
/// PORTACL_DEVICE environment variable so any program can be pointed at
/// another device without recompiling.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "portacl/cl.hpp"
#include "portacl/device/device_class.hpp"
#include "portacl/device/device_info.hpp"

namespace portacl {

class Device {
 public:
  Device(cl::Platform platform, cl::Device device, unsigned platform_index, unsigned device_index,
         unsigned global_index);

  const DeviceInfo& info() const { return info_; }
  const Classification& classification() const { return class_; }
  const cl::Device& cl_device() const { return device_; }
  const cl::Platform& cl_platform() const { return platform_; }
  unsigned platform_index() const { return platform_index_; }
  unsigned device_index() const { return device_index_; }
  unsigned index() const { return global_index_; }  ///< position in all_devices()
  /// "[0] pthread-haswell-AMD EPYC (Portable Computing Language) cpu"
  std::string describe() const;

 private:
  cl::Platform platform_;
  cl::Device device_;
  unsigned platform_index_, device_index_, global_index_;
  DeviceInfo info_;
  Classification class_;
};

/// Every device of every platform, in platform order. Empty when there is no
/// OpenCL platform (that is not an error here; selection reports it).
std::vector<Device> all_devices();

/// Selector grammar:
///   ""            PORTACL_DEVICE if set, else VexCL's OCL_DEVICE (name),
///                 OCL_PLATFORM (platform name) and OCL_TYPE (GPU, CPU,
///                 ACCELERATOR) if any is set, else the first GPU, else the
///                 first device
///   "2"           the third device of all_devices()
///   "1:0"         platform 1, device 0
///   "gpu:1"       the second GPU (also cpu:N, accelerator:N)
///   otherwise comma-separated conditions, all of which must hold, the
///   first device meeting them chosen:
///     gpu, cpu, accelerator (or type=...)   the device type
///     fp64, fp16                            the precision
///     name=S, platform=S, vendor=S          case-insensitive substrings
///     ext=cl_khr_subgroups                  an extension
///     a bare word                           a substring of the device name,
///                                           else of the platform name or a
///                                           vendor ("pocl", "H100", "nvidia")
///   e.g. "gpu,name=H100", "cpu,fp64", "vendor=amd,gpu".
/// Throws portacl::Error listing the available devices when nothing matches.
Device select_device(const std::string& selector = "");
/// The first device `accept` returns true for; throws portacl::Error listing
/// the devices when it accepts none.
Device select_device(const std::function<bool(const Device&)>& accept);

/// The Device of an OpenCL device handle the program already holds (the
/// device of its own queue). Throws portacl::Error when it is not one of
/// all_devices() (a sub-device made by clCreateSubDevices, for example).
Device device_of(const cl::Device& device);

}  // namespace portacl
