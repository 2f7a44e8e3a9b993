// SPDX-License-Identifier: Apache-2.0
// The clock of the shape sweeps in tools/gpu: a batch of 20 calls queued back to back (the
// host's enqueue cost hidden behind the kernels), its mean per call, median
// of 7 batches. Not part of the library.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

#include "portacl/portacl.hpp"

template <class F>
double batch_ms(portacl::Context& ctx, F&& f) {
  std::vector<double> t;
  for (int rep = 0; rep < 7; ++rep) {
    ctx.queue().finish();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 20; ++i) f();
    ctx.queue().finish();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / 20);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
