// SPDX-License-Identifier: Apache-2.0
// The int scans' benchmark problem, shared by their operations and the
// baselines portacl-bench supplies (Boost.Compute's scans): n ints from 0
// to 15 (the sums stay below 2^31 up to 2^27 elements), so every result is
// exact and checked bit for bit.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "operations.hpp"
#include "portacl/error.hpp"

namespace portacl {

struct IntScanCase {
  IntScanCase(Context& ctx, std::size_t n) : host(draw(n)), x(ctx, host), y(ctx, n) {}
  static std::vector<int> draw(std::size_t n) {
    std::mt19937_64 rng(0x5ca9ull ^ n);
    std::uniform_int_distribution<int> digit(0, 15);
    std::vector<int> v(n);
    for (int& e : v) e = digit(rng);
    return v;
  }
  std::vector<int> host;
  Buffer<int> x, y;  ///< y: the output
  void poison(Context& ctx) {
    check_cl(ctx.queue().enqueueFillBuffer(y.cl_buffer(), int(0x7f7f7f7f), 0, sizeof(int) * host.size()),
             "clEnqueueFillBuffer(int scan output)");
  }
  /// "" when y holds the exact scan of x; else the first element that differs.
  std::string verify(bool inclusive) {
    const std::vector<int> got = y.download();
    std::int64_t run = 0;
    for (std::size_t i = 0; i < host.size(); ++i) {
      if (inclusive) run += host[i];
      if (got[i] != run)
        return "element " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " + std::to_string(run);
      if (!inclusive) run += host[i];
    }
    return "";
  }
};

/// The workload's int scan case, made on first use.
inline IntScanCase& int_scan_case(Workload& w) {
  auto& slot = w.derived["scan.int"];
  if (!slot) slot = std::make_shared<IntScanCase>(w.ctx, w.n);
  return *std::static_pointer_cast<IntScanCase>(slot);
}

}  // namespace portacl
