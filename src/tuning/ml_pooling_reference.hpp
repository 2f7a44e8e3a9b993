// SPDX-License-Identifier: Apache-2.0
// The host reference of the pooling layers, shared by the tests and the
// tools: the windows walked in double, the maximum's pick the first of
// equal values, and the backward pass scattered from each output to its
// window (the device gathers instead, so the two meet only if both are
// right).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "ml_conv_layer_reference.hpp"
#include "portacl/ml.hpp"

namespace portacl::reference {

struct PoolReference {
  std::vector<double> output;  // in the layout's order
  std::vector<int> argmax;     // the maximum's picks, y W + x
};

// Visits the taps of window (p, q) inside the image.
template <class F>
void for_window(const PoolShape& s, std::size_t p, std::size_t q, F&& tap) {
  const long y0 = long(p * s.stride_h) - long(s.pad_h), x0 = long(q * s.stride_w) - long(s.pad_w);
  for (long y = std::max(y0, 0L); y < std::min(y0 + long(s.window_h), long(s.height)); ++y)
    for (long x = std::max(x0, 0L); x < std::min(x0 + long(s.window_w), long(s.width)); ++x)
      tap(std::size_t(y), std::size_t(x));
}

inline PoolReference pool_forward(const PoolShape& s, const PoolOptions& o, const std::vector<float>& input) {
  const std::size_t ph = s.out_height(), pw = s.out_width();
  PoolReference r;
  r.output.resize(s.images * s.channels * ph * pw);
  r.argmax.resize(r.output.size());
  for (std::size_t n = 0; n < s.images; ++n)
    for (std::size_t c = 0; c < s.channels; ++c)
      for (std::size_t p = 0; p < ph; ++p)
        for (std::size_t q = 0; q < pw; ++q) {
          double best = 0, sum = 0;
          std::size_t taps = 0;
          int where = -1;
          for_window(s, p, q, [&](std::size_t y, std::size_t x) {
            const double v = input[tensor_index(o.layout, s.channels, s.height, s.width, n, c, y, x)];
            if (where < 0 || v > best) {
              best = v;
              where = int(y * s.width + x);
            }
            sum += v;
            ++taps;
          });
          const std::size_t at = tensor_index(o.layout, s.channels, ph, pw, n, c, p, q);
          const double divisor = o.count_padding ? double(s.window_h * s.window_w) : double(taps);
          r.output[at] = o.kind == PoolKind::max ? best : sum / divisor;
          r.argmax[at] = where;
        }
  return r;
}

// The input's gradient: each output's gradient scattered over its window.
inline std::vector<double> pool_backward(const PoolShape& s, const PoolOptions& o, const std::vector<float>& grad_out,
                                         const std::vector<int>& argmax) {
  const std::size_t ph = s.out_height(), pw = s.out_width();
  std::vector<double> grad_in(s.images * s.channels * s.height * s.width, 0.0);
  for (std::size_t n = 0; n < s.images; ++n)
    for (std::size_t c = 0; c < s.channels; ++c)
      for (std::size_t p = 0; p < ph; ++p)
        for (std::size_t q = 0; q < pw; ++q) {
          const std::size_t at = tensor_index(o.layout, s.channels, ph, pw, n, c, p, q);
          if (o.kind == PoolKind::max) {
            const std::size_t y = std::size_t(argmax[at]) / s.width, x = std::size_t(argmax[at]) % s.width;
            grad_in[tensor_index(o.layout, s.channels, s.height, s.width, n, c, y, x)] += grad_out[at];
            continue;
          }
          std::size_t taps = 0;
          for_window(s, p, q, [&](std::size_t, std::size_t) { ++taps; });
          const double share = grad_out[at] / (o.count_padding ? double(s.window_h * s.window_w) : double(taps));
          for_window(s, p, q, [&](std::size_t y, std::size_t x) {
            grad_in[tensor_index(o.layout, s.channels, s.height, s.width, n, c, y, x)] += share;
          });
        }
  return grad_in;
}

}  // namespace portacl::reference
