// SPDX-License-Identifier: Apache-2.0
// How a convolution layer is computed on a device
// (src/kernels/ml/conv_layer.cpp carries it out). Each choice records its
// decision and rule in the plan.
#pragma once

#include <cstddef>

#include "portacl/device/device_class.hpp"
#include "portacl/rules/launch_plan.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// Whether a device class reads channel-first tensors (NCHW) best: GPUs do
/// (neighbouring work-items take neighbouring output columns of one
/// channel), CPUs read channel-last (NHWC) best (a position's channels are
/// contiguous for the SIMD lanes) (rule conv.layout).
bool prefers_channels_first(DeviceClass device_class);

/// What the choice needs of a layer.
struct ConvGeometry {
  std::size_t images = 1;
  std::size_t taps = 1;               ///< C / groups x R x S: a filter's weights
  std::size_t filters_per_group = 1;  ///< F / groups
  std::size_t positions = 1;          ///< P x Q: an output plane
};

enum class ConvMethod {
  direct,  ///< each work-item several images x filters of one output position, in registers
  im2col,  ///< the taps unrolled into a matrix, multiplied by the filters with the GEMM
};

struct ConvChoice {
  ConvMethod method = ConvMethod::direct;
  std::size_t images = 1;   ///< direct: images a work-item
  std::size_t filters = 1;  ///< direct: filters a work-item
  std::size_t chunk = 1;    ///< im2col: images whose taps are unrolled at a time
};

/// The method for a layer of geometry `g` under `plan` (tuned knobs from
/// `space`), unless the caller `asked` for one: the taps unrolled and
/// multiplied by the GEMM where a group has at least 32 taps and 16
/// filters, so the product has the depth and width its tiles need;
/// directly otherwise (rule conv.algorithm). The direct kernel's block:
/// 4 images x 8 filters a work-item on GPUs, 1 x 8 on CPUs, unless tuned
/// (conv.direct-block); im2col's images at a time so that the unrolled
/// matrix holds at most 2^26 floats (conv.im2col-chunk). Sets the plan's
/// block macros; the grid and the geometry's macros are the caller's.
ConvChoice choose_conv(LaunchPlan& plan, const TuningSpace& space, const ConvGeometry& g, const ConvMethod* asked);

}  // namespace portacl
