// SPDX-License-Identifier: Apache-2.0
// The histogram family's benchmark problem, shared by its operations and
// the baselines portacl-bench supplies (Boost.Compute's for_each with an
// atomic increment): 32-bit keys made from the workload's values (uniform
// over all 2^32), and the counts.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "operations.hpp"

namespace portacl {

struct HistogramCase {
  HistogramCase(Context& ctx, std::vector<std::uint32_t> k, std::size_t bins)
      : host(std::move(k)), keys(ctx, host), counts(ctx, bins) {}
  std::vector<std::uint32_t> host;
  Buffer<std::uint32_t> keys, counts;
};

/// The workload's keys for `bins` bins, made on first use.
inline HistogramCase& histogram_case(Workload& w, std::size_t bins) {
  auto& slot = w.derived["histogram." + std::to_string(bins)];
  if (!slot) {
    std::vector<std::uint32_t> keys(w.n);
    for (std::size_t i = 0; i < w.n; ++i)  // [-1, 1) onto [0, 2^32)
      keys[i] = static_cast<std::uint32_t>(std::ldexp(double(w.hx[i]) + 1.0, 31));
    slot = std::make_shared<HistogramCase>(w.ctx, std::move(keys), bins);
  }
  return *std::static_pointer_cast<HistogramCase>(slot);
}

}  // namespace portacl
