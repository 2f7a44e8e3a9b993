// SPDX-License-Identifier: Apache-2.0
// What each family's call would do on a device, planned without running
// anything: SpMV on a banded, a regular and a power-law matrix; the heat
// equation, the 3D star, a 2D convolution and NCC; the histogram into 256
// and 65536 bins; GEMM at a small and a large size. The same plan functions the calls use (planner.hpp), so
// portacl-query --explain shows a device that is not attached (a clinfo
// dump, a fixture) exactly as a call on it would decide.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"

namespace portacl {

struct ReferenceCall {
  std::string family;  ///< "sparse", "stencil", "histogram", "gemm"
  std::string label;   ///< the call and its problem: "spmv, 5-point Poisson 512^2 (banded)"
  /// Decisions of the call itself, beyond its launches' plans (SpMV's method).
  std::vector<Decision> decisions;
  /// Each launch the call makes: the kernel's entry point and its plan.
  std::vector<std::pair<std::string, LaunchPlan>> launches;
  std::string error;  ///< "" or why the call cannot run on this device
};

std::vector<ReferenceCall> reference_calls(const DeviceInfo& device, const PlanOptions& options);

}  // namespace portacl
