// SPDX-License-Identifier: Apache-2.0
/// \file
/// A DeviceInfo read from a live OpenCL device.
#pragma once

#include "portacl/cl.hpp"
#include "portacl/device/device_info.hpp"

namespace portacl {

DeviceInfo read_device_info(const cl::Platform& platform, const cl::Device& device);

}  // namespace portacl
