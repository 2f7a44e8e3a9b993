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

#include "portacl/kernels/ml/conv_layer.hpp"

namespace portacl::reference {

// Offset of element (n, c, y, x) of an N x C x H x W tensor in `layout`.
inline std::size_t tensor_index(TensorLayout layout, std::size_t c_count, std::size_t h_count, std::size_t w_count,
                                std::size_t n, std::size_t c, std::size_t y, std::size_t x) {
  return layout == TensorLayout::nchw ? ((n * c_count + c) * h_count + y) * w_count + x
                                      : ((n * h_count + y) * w_count + x) * c_count + c;
}

struct ConvReference {
  std::vector<double> value;   // in the output's layout
  std::vector<double> margin;  // how far a float result may stand from it
};

inline ConvReference conv_layer(const ConvLayerShape& s, TensorLayout layout, const std::vector<float>& input,
                                const std::vector<float>& filters, const std::vector<float>* bias, bool relu) {
  const std::size_t p_count = s.out_height(), q_count = s.out_width();
  const std::size_t cg = s.channels / s.groups, fg = s.filters / s.groups;
  ConvReference r;
  r.value.assign(s.images * s.filters * p_count * q_count, 0.0);
  r.margin.assign(r.value.size(), 0.0);
  const double eps = std::numeric_limits<float>::epsilon();
  for (std::size_t n = 0; n < s.images; ++n)
    for (std::size_t f = 0; f < s.filters; ++f)
      for (std::size_t p = 0; p < p_count; ++p)
        for (std::size_t q = 0; q < q_count; ++q) {
          double sum = bias ? double((*bias)[f]) : 0.0, magnitude = std::fabs(sum);
          const std::size_t g = f / fg;
          for (std::size_t c = 0; c < cg; ++c)
            for (std::size_t i = 0; i < s.filter_height; ++i)
              for (std::size_t j = 0; j < s.filter_width; ++j) {
                const long y = long(p * s.stride_h + i * s.dilation_h) - long(s.pad_h);
                const long x = long(q * s.stride_w + j * s.dilation_w) - long(s.pad_w);
                if (y < 0 || x < 0 || y >= long(s.height) || x >= long(s.width)) continue;
                const double a = input[tensor_index(layout, s.channels, s.height, s.width, n, g * cg + c,
                                                    std::size_t(y), std::size_t(x))];
                const double w = filters[((f * cg + c) * s.filter_height + i) * s.filter_width + j];
                sum += a * w;
                magnitude += std::fabs(a * w);
              }
          const std::size_t at = tensor_index(layout, s.filters, p_count, q_count, n, f, p, q);
          r.value[at] = relu ? std::max(sum, 0.0) : sum;
          // Any order of float additions: at most one rounding a term.
          r.margin[at] = double(cg * s.filter_height * s.filter_width + 2) * eps * magnitude;
        }
  return r;
}

// "" when every output is within its margin of the reference.
inline std::string compare_conv(const std::vector<float>& got, const ConvReference& want) {
  for (std::size_t i = 0; i < want.value.size(); ++i)
    if (!(std::fabs(double(got[i]) - want.value[i]) <= want.margin[i] + 1e-30))
      return "output " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " + std::to_string(want.value[i]) +
             " (margin " + std::to_string(want.margin[i]) + ")";
  return "";
}

}  // namespace portacl::reference
