// SPDX-License-Identifier: Apache-2.0
// How a convolution layer is computed on a device
// (src/kernels/ml/conv_layer.cpp carries it out). Each choice records its
// decision and rule in the plan.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"
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
  std::size_t taps = 1;                ///< C / groups x R x S: a filter's weights
  std::size_t filters_per_group = 1;   ///< F / groups
  std::size_t positions = 1;           ///< P x Q: an output plane
  std::size_t channels_per_group = 1;  ///< C / groups
  /// 2 x 2 output tiles an image for Winograd F(2x2, 3x3); 0 where the
  /// layer is not 3 x 3 of stride 1 and dilation 1.
  std::size_t winograd_tiles = 0;
  std::size_t channels = 1;          ///< C: the input planes an image transformed by the FFT
  std::size_t filters = 1;           ///< F
  std::size_t fft_rows = 1;          ///< G0: the FFT's grid (conv_fft_grid)
  std::size_t fft_cols = 1;          ///< G1
  std::size_t filter_positions = 1;  ///< R x S
};

enum class ConvMethod {
  direct,    ///< each work-item several images x filters of one output position, in registers
  im2col,    ///< the taps unrolled into a matrix, multiplied by the filters with the GEMM
  winograd,  ///< F(2x2, 3x3): 16 GEMMs over channels between transforms of tiles and filters
  fft,       ///< planes and filters transformed, their spectra multiplied and summed over channels
};

struct ConvChoice {
  ConvMethod method = ConvMethod::direct;
  std::size_t images = 1;     ///< direct, FFT: images a work-item
  std::size_t filters = 1;    ///< direct, FFT: filters a work-item
  std::size_t chunk = 1;      ///< im2col, Winograd, FFT: images transformed at a time
  std::size_t grid_rows = 1;  ///< FFT: the grid (ConvGeometry::fft_rows)
  std::size_t grid_cols = 1;  ///< FFT: ConvGeometry::fft_cols
};

/// The FFT's grid along one axis of a layer of `size` input rows (or
/// columns), `pad` zeros before them and a filter spanning `extent`
/// (dilation (R - 1) + 1): the smallest 2^a 3^b 5^c at least size + pad
/// and extent. Reading output p at p stride - pad modulo the grid, no tap
/// of a kept output wraps onto the image (the padding's zeros on either
/// side are the grid's tail).
std::size_t conv_fft_extent(std::size_t size, std::size_t pad, std::size_t extent);

/// The method for a layer of geometry `g` under `plan` (tuned knobs from
/// `space`), unless the caller `asked` for one (rule conv.algorithm):
/// Winograd F(2x2, 3x3) for 3 x 3 layers of stride 1 and dilation 1 with
/// at least 16 channels and 16 filters a group (2.25 times fewer
/// multiplications, each of its 16 GEMMs still deep and wide enough);
/// else the taps unrolled and multiplied by the GEMM where a group has at
/// least 32 taps and 16 filters, so the product has the depth and width
/// its tiles need; directly otherwise. A tuned Winograd on a layer it
/// does not fit falls back to the rule. The FFT where its multiplications
/// (4 a complex product, an image's and a filter's spectra, over the
/// channels, and the transforms' 5 / 2 G log2 G a plane) are at most a
/// device class's fraction of the direct sum's, and the direct sum's are
/// many enough to outweigh the FFT's launches (conv.fft): a large filter
/// over a plane its grid hardly exceeds. The direct kernel's block:
/// 4 images x 8 filters a work-item on GPUs, 1 x 8 on CPUs, unless tuned
/// (conv.direct-block); im2col's and Winograd's images at a time so that
/// each transformed matrix holds at most 2^26 floats (conv.im2col-chunk);
/// the FFT's, 4 images x 4 filters of a frequency a work-item
/// (conv.fft-block), and images at a time so that their planes and spectra
/// hold at most 2^26 floats.
/// Sets the plan's block macros; the grid and the geometry's macros are
/// the caller's.
/// A convolution layer's build: its geometry (filter R x S, CG channels
/// and FG filters a group, GROUPS, strides SH SW, padding PH PW, dilation
/// DH DW) compiled in, with the bias (HAS_BIAS) and ReLU (RELU) epilogue.
void conv_layer_build(LaunchPlan& plan, const std::map<std::string, std::size_t>& geometry, bool has_bias, bool relu);

ConvChoice choose_conv(LaunchPlan& plan, const TuningSpace& space, const ConvGeometry& g, const ConvMethod* asked);

/// Whether the backward pass computes the filters' gradient (per group
/// filters_per_group x taps weights, each a sum over every image and
/// output position) by a work-group a weight reducing over the images and
/// positions, rather than by the GEMM: where the GEMM's 64 x 64 output
/// tiles are fewer than the compute units, it cannot fill the device, and
/// without a split of its deep sum a few work-groups would walk all of it
/// (rule conv.filter-gradient).
bool reduce_filter_gradient(LaunchPlan& plan, std::size_t filters_per_group, std::size_t taps, std::size_t groups,
                            std::size_t compute_units);

}  // namespace portacl
