// SPDX-License-Identifier: Apache-2.0
#include "rules/conv_rules.hpp"

#include <algorithm>
#include <string>

#include "portacl/device/device_class.hpp"

namespace portacl {

namespace {

constexpr std::size_t kMinTaps = 32, kMinFilters = 16, kChunkFloats = std::size_t{1} << 26;

}  // namespace

TensorLayout preferred_layout(DeviceClass device_class) {
  return gpu_class(device_class) ? TensorLayout::nchw : TensorLayout::nhwc;
}

ConvChoice choose_conv(LaunchPlan& plan, const TuningSpace& space, const ConvLayerShape& shape, ConvAlgorithm asked) {
  ConvChoice c;
  const std::size_t cg = shape.channels / shape.groups, fg = shape.filters / shape.groups;
  const std::size_t taps = cg * shape.filter_height * shape.filter_width;
  const std::string sizes = std::to_string(taps) + " taps and " + std::to_string(fg) + " filters a group";
  if (asked != ConvAlgorithm::automatic) {
    c.algorithm = asked;
    plan.decide("algorithm", asked == ConvAlgorithm::direct ? "direct" : "im2col + GEMM", "caller.choice",
                "ConvLayerOptions::algorithm");
  } else if (const auto tuned = space.chosen(plan, "ALGORITHM")) {
    c.algorithm = *tuned == 0 ? ConvAlgorithm::direct : ConvAlgorithm::im2col_gemm;
  } else if (taps >= kMinTaps && fg >= kMinFilters) {
    c.algorithm = ConvAlgorithm::im2col_gemm;
    plan.decide("algorithm", "im2col + GEMM", "conv.algorithm",
                sizes +
                    ": a product deep and wide enough for the GEMM's tiles, whose tuned kernel outruns a "
                    "direct sum");
  } else {
    c.algorithm = ConvAlgorithm::direct;
    plan.decide("algorithm", "direct", "conv.algorithm",
                sizes + ": too small a product for the GEMM's tiles; the sums stay in registers");
  }
  plan.macros["R"] = std::to_string(shape.filter_height);
  plan.macros["S"] = std::to_string(shape.filter_width);
  plan.macros["CG"] = std::to_string(cg);
  plan.macros["FG"] = std::to_string(fg);
  plan.macros["GROUPS"] = std::to_string(shape.groups);
  plan.macros["SH"] = std::to_string(shape.stride_h);
  plan.macros["SW"] = std::to_string(shape.stride_w);
  plan.macros["PH"] = std::to_string(shape.pad_h);
  plan.macros["PW"] = std::to_string(shape.pad_w);
  plan.macros["DH"] = std::to_string(shape.dilation_h);
  plan.macros["DW"] = std::to_string(shape.dilation_w);
  if (c.algorithm == ConvAlgorithm::direct) {
    c.images = std::min<std::size_t>(static_cast<std::size_t>(space.value_in(plan, "IB")), shape.images);
    c.filters = std::min<std::size_t>(static_cast<std::size_t>(space.value_in(plan, "FB")), fg);
    plan.macros["IB"] = std::to_string(c.images);
    plan.macros["FB"] = std::to_string(c.filters);
    plan.decide("block", std::to_string(c.images) + " images x " + std::to_string(c.filters) + " filters",
                "conv.direct-block",
                "a work-item sums one output position for " + std::to_string(c.images * c.filters) +
                    " image-filter pairs in registers: each input value serves " + std::to_string(c.filters) +
                    " filters, each tap " + std::to_string(c.images) + " images");
    return c;
  }
  plan.macros["IB"] = "1";
  plan.macros["FB"] = "1";
  const std::size_t per_image = shape.out_height() * shape.out_width() * std::max(taps, fg);
  c.chunk = std::clamp<std::size_t>(kChunkFloats / std::max<std::size_t>(per_image, 1), 1, shape.images);
  plan.decide("chunk", std::to_string(c.chunk) + " images", "conv.im2col-chunk",
              "the taps of " + std::to_string(c.chunk) + " images unrolled at a time: at most 2^26 floats of matrix");
  return c;
}

}  // namespace portacl
