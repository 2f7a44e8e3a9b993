// SPDX-License-Identifier: Apache-2.0
// The host reference of a convolution layer, shared by the tests, the
// tuner and portacl-bench: the seven loops in double, reading and writing
// either layout, with each output's bound on a float sum's rounding.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "portacl/ml.hpp"
#include "fft_reference.hpp"

namespace portacl::reference {

// Offset of element (n, c, y, x) of an N x C x H x W tensor in `layout`.
inline std::size_t tensor_index(TensorLayout layout, std::size_t c_count, std::size_t h_count, std::size_t w_count,
                                std::size_t n, std::size_t c, std::size_t y, std::size_t x) {
  return layout == TensorLayout::nchw ? ((n * c_count + c) * h_count + y) * w_count + x
                                      : ((n * h_count + y) * w_count + x) * c_count + c;
}

// Visits the taps of output (f, p, q) that fall inside the image: the
// input channel, row and column, and the filter weight's index.
template <class Tap>
void for_taps(const ConvLayerShape& s, std::size_t f, std::size_t p, std::size_t q, Tap&& tap) {
  const std::size_t cg = s.channels / s.groups, fg = s.filters / s.groups;
  for (std::size_t c = 0; c < cg; ++c)
    for (std::size_t i = 0; i < s.filter_height; ++i)
      for (std::size_t j = 0; j < s.filter_width; ++j) {
        const long y = long(p * s.stride_h + i * s.dilation_h) - long(s.pad_h);
        const long x = long(q * s.stride_w + j * s.dilation_w) - long(s.pad_w);
        if (y < 0 || x < 0 || y >= long(s.height) || x >= long(s.width)) continue;
        tap((f / fg) * cg + c, std::size_t(y), std::size_t(x),
            ((f * cg + c) * s.filter_height + i) * s.filter_width + j);
      }
}

// One output (n, f, p, q) in double, before bias and ReLU: its sum, the
// sum of its terms' magnitudes, and, for layers Winograd F(2x2, 3x3)
// computes, sum_c max|d_c| max|g_c| over its tile's 4 x 4 patch d_c and
// its filter g_c in each channel (the scale of that method's rounding).
struct ConvPoint {
  double sum = 0, magnitude = 0, winograd_scale = 0;
};
inline ConvPoint conv_point(const ConvLayerShape& s, TensorLayout layout, const std::vector<float>& input,
                            const std::vector<float>& filters, std::size_t n, std::size_t f, std::size_t p,
                            std::size_t q) {
  ConvPoint r;
  for_taps(s, f, p, q, [&](std::size_t c, std::size_t y, std::size_t x, std::size_t w_at) {
    const double term =
        double(input[tensor_index(layout, s.channels, s.height, s.width, n, c, y, x)]) * double(filters[w_at]);
    r.sum += term;
    r.magnitude += std::fabs(term);
  });
  const bool winograd = s.filter_height == 3 && s.filter_width == 3 && s.stride_h == 1 && s.stride_w == 1 &&
                        s.dilation_h == 1 && s.dilation_w == 1;
  if (!winograd) return r;
  const std::size_t cg = s.channels / s.groups, fg = s.filters / s.groups;
  const long y0 = long(p / 2 * 2) - long(s.pad_h), x0 = long(q / 2 * 2) - long(s.pad_w);
  for (std::size_t c = 0; c < cg; ++c) {
    double d_max = 0, g_max = 0;
    for (long y = std::max(y0, 0L); y < std::min(y0 + 4, long(s.height)); ++y)
      for (long x = std::max(x0, 0L); x < std::min(x0 + 4, long(s.width)); ++x)
        d_max =
            std::max(d_max, std::fabs(double(input[tensor_index(layout, s.channels, s.height, s.width, n,
                                                                (f / fg) * cg + c, std::size_t(y), std::size_t(x))])));
    for (std::size_t k = 0; k < 9; ++k) g_max = std::max(g_max, std::fabs(double(filters[(f * cg + c) * 9 + k])));
    r.winograd_scale += d_max * g_max;
  }
  return r;
}

// How far a float output may stand from the double sum: at most one
// rounding a term in any order of additions (direct, im2col); for
// Winograd F(2x2, 3x3) the bound conv_layer.hpp states, 81 (CG + 16) eps
// times the scale (the transforms grow the operands up to 4 and 2.25
// times, the output sums 9 products).
inline double conv_margin(const ConvLayerShape& s, const ConvPoint& point, double bias, bool winograd) {
  const double eps = std::numeric_limits<float>::epsilon();
  const std::size_t cg = s.channels / s.groups;
  const double taps = double(cg * s.filter_height * s.filter_width + 2) * eps * (point.magnitude + std::fabs(bias));
  return winograd ? std::max(taps, 81.0 * double(cg + 16) * eps * point.winograd_scale + 2 * eps * std::fabs(bias))
                  : taps;
}

struct ConvReference {
  std::vector<double> value;            // in the output's layout
  std::vector<double> margin;           // how far a float result may stand from it
  std::vector<double> winograd_margin;  // the same for Winograd F(2x2, 3x3)
};

inline ConvReference conv_layer(const ConvLayerShape& s, TensorLayout layout, const std::vector<float>& input,
                                const std::vector<float>& filters, const std::vector<float>* bias, bool relu) {
  const std::size_t p_count = s.out_height(), q_count = s.out_width();
  ConvReference r;
  r.value.assign(s.images * s.filters * p_count * q_count, 0.0);
  r.margin.assign(r.value.size(), 0.0);
  r.winograd_margin.assign(r.value.size(), 0.0);
  for (std::size_t n = 0; n < s.images; ++n)
    for (std::size_t f = 0; f < s.filters; ++f)
      for (std::size_t p = 0; p < p_count; ++p)
        for (std::size_t q = 0; q < q_count; ++q) {
          const ConvPoint point = conv_point(s, layout, input, filters, n, f, p, q);
          const double b = bias ? double((*bias)[f]) : 0.0, sum = point.sum + b;
          const std::size_t at = tensor_index(layout, s.filters, p_count, q_count, n, f, p, q);
          r.value[at] = relu ? std::max(sum, 0.0) : sum;
          r.margin[at] = conv_margin(s, point, b, false);
          r.winograd_margin[at] = conv_margin(s, point, b, true);
        }
  return r;
}

// The gradients of a layer for the output's gradient `grad` (masked where
// a ReLU cut `output`, if given), scattered from each output to every tap
// it read, in double: the input's (in the layout), the filters' and the
// bias's.
struct ConvGradients {
  std::vector<double> input, filters, bias;
};
inline ConvGradients conv_layer_gradients(const ConvLayerShape& s, TensorLayout layout, const std::vector<float>& input,
                                          const std::vector<float>& filters, const std::vector<float>& grad,
                                          const std::vector<float>* output) {
  const std::size_t p_count = s.out_height(), q_count = s.out_width();
  ConvGradients g;
  g.input.assign(input.size(), 0.0);
  g.filters.assign(filters.size(), 0.0);
  g.bias.assign(s.filters, 0.0);
  for (std::size_t n = 0; n < s.images; ++n)
    for (std::size_t f = 0; f < s.filters; ++f)
      for (std::size_t p = 0; p < p_count; ++p)
        for (std::size_t q = 0; q < q_count; ++q) {
          const std::size_t at = tensor_index(layout, s.filters, p_count, q_count, n, f, p, q);
          const double d = output && !((*output)[at] > 0.0f) ? 0.0 : double(grad[at]);
          g.bias[f] += d;
          for_taps(s, f, p, q, [&](std::size_t c, std::size_t y, std::size_t x, std::size_t w_at) {
            const std::size_t in_at = tensor_index(layout, s.channels, s.height, s.width, n, c, y, x);
            g.input[in_at] += d * filters[w_at];
            g.filters[w_at] += d * input[in_at];
          });
        }
  return g;
}

// "" when every output is within its margin (Winograd's, if `winograd`)
// of the reference.
inline std::string compare_conv(const std::vector<float>& got, const ConvReference& want, bool winograd = false) {
  const std::vector<double>& margin = winograd ? want.winograd_margin : want.margin;
  for (std::size_t i = 0; i < want.value.size(); ++i)
    if (!(std::fabs(double(got[i]) - want.value[i]) <= margin[i] + 1e-30))
      return "output " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " + std::to_string(want.value[i]) +
             " (margin " + std::to_string(margin[i]) + ")";
  return "";
}

// The FFT's bound (ConvAlgorithm::fft) on each output plane (n, f), as
// the 2-norm of its error, in the order n F + f: fft_correlation_bound
// over the plan's grid of sum_c |x_nc|_2 |w_fc|_1 over the group's C /
// groups channels, and the bias's rounding, u sqrt(P Q) |bias_f|.
inline std::vector<double> conv_fft_plane_bounds(const ConvLayerShape& s, TensorLayout layout,
                                                 const std::vector<float>& input, const std::vector<float>& filters,
                                                 const std::vector<float>* bias, const std::vector<std::size_t>& grid) {
  const std::size_t cg = s.channels / s.groups, fg = s.filters / s.groups, taps = s.filter_height * s.filter_width;
  const double u = std::numeric_limits<float>::epsilon() / 2;
  std::vector<double> x2(s.images * s.channels, 0.0), w1(s.filters * cg, 0.0), bounds(s.images * s.filters);
  for (std::size_t n = 0; n < s.images; ++n)
    for (std::size_t c = 0; c < s.channels; ++c)
      for (std::size_t y = 0; y < s.height; ++y)
        for (std::size_t x = 0; x < s.width; ++x) {
          const double v = input[tensor_index(layout, s.channels, s.height, s.width, n, c, y, x)];
          x2[n * s.channels + c] += v * v;
        }
  for (std::size_t fc = 0; fc < s.filters * cg; ++fc)  // each filter channel's 1-norm, once
    for (std::size_t k = 0; k < taps; ++k) w1[fc] += std::fabs(double(filters[fc * taps + k]));
  for (std::size_t n = 0; n < s.images; ++n)
    for (std::size_t f = 0; f < s.filters; ++f) {
      double norms = 0;
      for (std::size_t c = 0; c < cg; ++c) norms += std::sqrt(x2[n * s.channels + (f / fg) * cg + c]) * w1[f * cg + c];
      const double b = bias ? std::fabs(double((*bias)[f])) : 0.0;
      bounds[n * s.filters + f] =
          fft_correlation_bound(grid, u, norms, cg) + u * std::sqrt(double(s.out_height() * s.out_width())) * b;
    }
  return bounds;
}

// "" when every output plane's error, as a 2-norm, is within its bound
// (conv_fft_plane_bounds).
inline std::string compare_conv_fft(const std::vector<float>& got, const ConvReference& want, const ConvLayerShape& s,
                                    TensorLayout layout, const std::vector<double>& bounds) {
  const std::size_t p_count = s.out_height(), q_count = s.out_width();
  for (std::size_t n = 0; n < s.images; ++n)
    for (std::size_t f = 0; f < s.filters; ++f) {
      double e2 = 0;
      for (std::size_t p = 0; p < p_count; ++p)
        for (std::size_t q = 0; q < q_count; ++q) {
          const std::size_t at = tensor_index(layout, s.filters, p_count, q_count, n, f, p, q);
          e2 += (double(got[at]) - want.value[at]) * (double(got[at]) - want.value[at]);
        }
      if (!(std::sqrt(e2) <= bounds[n * s.filters + f]))
        return "image " + std::to_string(n) + ", filter " + std::to_string(f) + ": error 2-norm " +
               std::to_string(std::sqrt(e2)) + " past its bound " + std::to_string(bounds[n * s.filters + f]);
    }
  return "";
}

}  // namespace portacl::reference
