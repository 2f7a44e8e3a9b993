// SPDX-License-Identifier: Apache-2.0
/// \file
/// Classification: a pure function from a description to the device class
/// whose chapter-1 rules apply, plus the architecture detail those rules use.
#pragma once

#include <cstdint>
#include <string>

#include "portacl/device/device_info.hpp"

namespace portacl {

enum class DeviceClass {
  cpu,
  nvidia_gpu,
  amd_gcn_gpu,
  intel_mic,
  amd_gpu_other,  ///< pre-GCN VLIW, RDNA
  intel_gpu,
  other_gpu,
  other_accelerator,
};

std::string to_string(DeviceClass c);
/// A GPU of any maker: many SIMT lanes, real local memory, high-latency
/// memory that wants many loads in flight.
inline bool gpu_class(DeviceClass c) {
  return c == DeviceClass::nvidia_gpu || c == DeviceClass::amd_gcn_gpu || c == DeviceClass::amd_gpu_other ||
         c == DeviceClass::intel_gpu || c == DeviceClass::other_gpu;
}
DeviceClass device_class_from_string(const std::string& s);  ///< throws on unknown text

struct Classification {
  DeviceClass device_class = DeviceClass::other_accelerator;
  /// Human-readable architecture: "compute capability 9.0 (sm_90)", "gfx IP 9.2 (GCN 5)", "AVX (8 floats)".
  std::string architecture;
  /// The hardware's lock-step width in work-items: warp, wavefront, SIMD lanes
  /// for floats. Work-group sizes are multiples of it.
  std::uint32_t execution_width = 1;
  /// SIMD lanes for 32-bit floats (CPU/MIC vector unit; 1 on SIMT GPUs).
  std::uint32_t simd_width_float = 1;
  /// Why this class was chosen, for --explain.
  std::string reason;
};

Classification classify(const DeviceInfo& d);

}  // namespace portacl
