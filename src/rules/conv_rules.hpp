// SPDX-License-Identifier: Apache-2.0
// How a convolution layer is computed on a device
// (src/kernels/ml/conv_layer.cpp carries it out). Each choice records its
// decision and rule in the plan.
#pragma once

#include <cstddef>

#include "portacl/kernels/ml/conv_layer.hpp"
#include "portacl/rules/launch_plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// The tensor layout a device class reads best: NCHW on GPUs (neighbouring
/// work-items take neighbouring output columns of one channel), NHWC on
/// CPUs (a position's channels are contiguous, for the SIMD lanes) (rule
/// conv.layout).
TensorLayout preferred_layout(DeviceClass device_class);

struct ConvChoice {
  ConvAlgorithm algorithm = ConvAlgorithm::direct;
  std::size_t images = 1;   ///< direct: images a work-item
  std::size_t filters = 1;  ///< direct: filters a work-item
  std::size_t chunk = 1;    ///< im2col: images whose taps are unrolled at a time
};

/// The algorithm for `shape` under `plan` (tuned knobs from `space`), unless
/// `asked` names one: the taps unrolled and multiplied by the GEMM where a
/// group has at least 32 taps (C / groups x R x S) and 16 filters, so the
/// product has the depth and width its tiles need; directly otherwise
/// (rule conv.algorithm). The direct kernel's 2 images x 4 filters a
/// work-item unless tuned (conv.direct-block); im2col's images at a time
/// so that the unrolled matrix holds at most 2^26 floats (conv.im2col-chunk).
/// Sets the plan's macros; the grid is the caller's.
ConvChoice choose_conv(LaunchPlan& plan, const TuningSpace& space, const ConvLayerShape& shape, ConvAlgorithm asked);

}  // namespace portacl
