// SPDX-License-Identifier: Apache-2.0
#include "rules/ml_conv_rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "rules/fft_rules.hpp"

namespace portacl {

namespace {

constexpr std::size_t kMinTaps = 32, kMinFilters = 16, kChunkFloats = std::size_t{1} << 26;

constexpr std::size_t kWinogradMinChannels = 16, kWinogradPoints = 16;

// The FFT where the direct sum takes at least this many times its
// multiplications, and at least this many of them (below, its ten
// launches and the filters' transforms cost more than the whole direct
// sum); measured crossovers: tools/gpu/conv_layer_fft_crossover.cpp,
// docs/bench/conv_layer_fft_crossover_*.
constexpr double kFftGainGpu = 3.5, kFftGainCpu = 4.5;
constexpr double kFftLeastProductsGpu = double(1ull << 30), kFftLeastProductsCpu = double(1ull << 26);
constexpr std::size_t kFftImages = 4, kFftFilters = 4;

const char* name(ConvMethod m) {
  return m == ConvMethod::direct   ? "direct"
         : m == ConvMethod::im2col ? "im2col + GEMM"
         : m == ConvMethod::fft    ? "FFT"
                                   : "Winograd F(2x2, 3x3)";
}

ConvMethod method_of(int algorithm) {
  return algorithm == 0   ? ConvMethod::direct
         : algorithm == 1 ? ConvMethod::im2col
         : algorithm == 3 ? ConvMethod::fft
                          : ConvMethod::winograd;
}

// How many times the FFT's multiplications the direct sum's are: a
// complex product (4) a frequency of the half spectrum for every image,
// filter and channel of its group, against R S a position; the
// transforms 5 / 2 G log2 G a real plane of G cells (an image's channels,
// the filters' and the outputs').
double fft_gain(const ConvGeometry& g) {
  const double cells = double(g.fft_rows * g.fft_cols), half = double(g.fft_rows * (g.fft_cols / 2 + 1));
  const double pairs = double(g.images * g.filters * g.channels_per_group);
  const double planes = double(g.images * (g.channels + g.filters) + g.filters * g.channels_per_group);
  const double fft = 4 * pairs * half + 2.5 * planes * cells * std::log2(std::max(cells, 2.0));
  return pairs * double(g.positions * g.filter_positions) / fft;
}

// Records how many times the FFT's multiplications the direct sum's are,
// against the class's least; whether the FFT clears it.
bool decide_fft_gain(LaunchPlan& plan, const ConvGeometry& g) {
  const bool gpu = gpu_class(plan.device_class);
  const double gain = fft_gain(g), least = gpu ? kFftGainGpu : kFftGainCpu;
  const double products =
      double(g.images * g.filters * g.channels_per_group) * double(g.positions * g.filter_positions);
  const double least_products = gpu ? kFftLeastProductsGpu : kFftLeastProductsCpu;
  char ratio[32], text[128];
  std::snprintf(ratio, sizeof ratio, "%.2f", gain);
  std::snprintf(text, sizeof text, " times the FFT's (at least %.1f on this class) and %.3g (at least 2^%d)", least,
                products, gpu ? 30 : 26);
  plan.decide("fft_gain", ratio, "conv.fft",
              std::to_string(g.filter_positions) + " taps a channel over " + std::to_string(g.positions) +
                  " positions, through a " + std::to_string(g.fft_rows) + " x " + std::to_string(g.fft_cols) +
                  " grid: the direct sum's multiplications are " + ratio + text);
  return gain >= least && products >= least_products;
}

}  // namespace

bool prefers_channels_first(DeviceClass device_class) { return gpu_class(device_class); }

std::size_t conv_fft_extent(std::size_t size, std::size_t pad, std::size_t extent) {
  return fft_smooth_at_least(std::max(size + pad, extent), 5);
}

ConvChoice choose_conv(LaunchPlan& plan, const TuningSpace& space, const ConvGeometry& g, const ConvMethod* asked) {
  ConvChoice c;
  const std::string sizes =
      std::to_string(g.taps) + " taps and " + std::to_string(g.filters_per_group) + " filters a group";
  if (asked) {
    c.method = *asked;
    plan.decide("algorithm", name(c.method), "caller.choice", "ConvLayerOptions::algorithm");
  } else if (const auto tuned = space.chosen(plan, "ALGORITHM");
             tuned && (method_of(*tuned) != ConvMethod::winograd || g.winograd_tiles)) {
    c.method = method_of(*tuned);
    plan.decide("algorithm", name(c.method), "tuning.override", plan.provenance);
  } else if (decide_fft_gain(plan, g)) {
    c.method = ConvMethod::fft;
    plan.decide("algorithm", name(c.method), "conv.fft",
                "the direct sum's multiplications are many and many times the FFT's (fft_gain)");
  } else if (g.winograd_tiles && g.channels_per_group >= kWinogradMinChannels &&
             g.filters_per_group >= kWinogradMinChannels) {
    c.method = ConvMethod::winograd;
    plan.decide("algorithm", name(c.method), "conv.algorithm",
                "3 x 3, stride 1, dilation 1, " + std::to_string(g.channels_per_group) + " channels and " +
                    std::to_string(g.filters_per_group) +
                    " filters a group: 16 products over the channels a 2 x 2 output tile, 2.25 times fewer "
                    "multiplications than the taps, each a GEMM deep and wide enough for its tiles");
  } else if (g.taps >= kMinTaps && g.filters_per_group >= kMinFilters) {
    c.method = ConvMethod::im2col;
    plan.decide("algorithm", name(c.method), "conv.algorithm",
                sizes +
                    ": a product deep and wide enough for the GEMM's tiles, whose tuned kernel outruns a "
                    "direct sum");
  } else {
    c.method = ConvMethod::direct;
    plan.decide("algorithm", name(c.method), "conv.algorithm",
                sizes + ": too small a product for the GEMM's tiles; the sums stay in registers");
  }
  if (c.method == ConvMethod::direct) {
    // The book's layer (128 x 384 x 13 x 13 by 256 x 384 x 3 x 3,
    // portacl-tune): H100, 4 images x 8 filters 2.50 ms against 3.82 with
    // 2 x 4; PoCL (2 images), 1 x 8 16-17 ms against 25.
    const bool gpu = gpu_class(plan.device_class);
    const auto tuned_images = space.chosen(plan, "IB"), tuned_filters = space.chosen(plan, "FB");
    c.images = std::min<std::size_t>(tuned_images ? std::size_t(*tuned_images) : (gpu ? 4 : 1), g.images);
    c.filters = std::min<std::size_t>(tuned_filters ? std::size_t(*tuned_filters) : 8, g.filters_per_group);
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
  if (c.method == ConvMethod::fft) {
    c.grid_rows = g.fft_rows;
    c.grid_cols = g.fft_cols;
    c.images = std::min(kFftImages, g.images);
    c.filters = std::min(kFftFilters, g.filters_per_group);
    plan.macros["FFT_IB"] = std::to_string(c.images);
    plan.macros["FFT_FB"] = std::to_string(c.filters);
    plan.decide("fft_grid", std::to_string(g.fft_rows) + " x " + std::to_string(g.fft_cols), "conv.fft",
                "the smallest 2^a 3^b 5^c at least the image and its padding on one side, and the dilated filter, "
                "along each axis: no kept output's tap wraps onto the image");
    plan.decide("fft_block", std::to_string(c.images) + " images x " + std::to_string(c.filters) + " filters",
                "conv.fft-block",
                "a work-item sums one frequency's products for " + std::to_string(c.images * c.filters) +
                    " image-filter pairs: each spectrum value read serves " + std::to_string(c.filters) +
                    " filters or " + std::to_string(c.images) + " images");
  }
  const std::size_t half = g.fft_rows * (g.fft_cols / 2 + 1), cells = g.fft_rows * g.fft_cols;
  const std::size_t per_image =
      c.method == ConvMethod::winograd
          ? kWinogradPoints * g.winograd_tiles * std::max(g.channels_per_group, g.filters_per_group)
      : c.method == ConvMethod::fft ? 2 * half * (g.channels + g.filters) + cells * std::max(g.channels, g.filters)
                                    : g.positions * std::max(g.taps, g.filters_per_group);
  c.chunk = std::clamp<std::size_t>(kChunkFloats / std::max<std::size_t>(per_image, 1), 1, g.images);
  plan.decide("chunk", std::to_string(c.chunk) + " images", "conv.im2col-chunk",
              std::string(c.method == ConvMethod::winograd ? "the tiles"
                          : c.method == ConvMethod::fft    ? "the planes"
                                                           : "the taps") +
                  " of " + std::to_string(c.chunk) + " images transformed at a time: at most 2^26 floats of matrix");
  return c;
}

bool reduce_filter_gradient(LaunchPlan& plan, std::size_t filters_per_group, std::size_t taps, std::size_t groups,
                            std::size_t compute_units) {
  constexpr std::size_t kTile = 64;
  const std::size_t tiles = (filters_per_group + kTile - 1) / kTile * ((taps + kTile - 1) / kTile) * groups;
  const bool reduce = tiles < std::max<std::size_t>(compute_units, 1);
  plan.decide("filter_gradient", reduce ? "a work-group a weight" : "GEMM", "conv.filter-gradient",
              std::to_string(tiles) + " output tiles of 64 x 64 for " + std::to_string(compute_units) +
                  " compute units: " +
                  (reduce ? "too few for the GEMM to fill the device; each weight's sum over the images and "
                            "positions is shared by a work-group"
                          : "enough for the GEMM to fill the device"));
  return reduce;
}

void conv_layer_build(LaunchPlan& plan, const std::map<std::string, std::size_t>& geometry, bool has_bias, bool relu) {
  for (const auto& [macro, value] : geometry) plan.macros[macro] = std::to_string(value);
  plan.macros["HAS_BIAS"] = has_bias ? "1" : "0";
  plan.macros["RELU"] = relu ? "1" : "0";
}

}  // namespace portacl
