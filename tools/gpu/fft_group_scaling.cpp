// SPDX-License-Identifier: Apache-2.0
// The 3D FFT over a device group against one device: n^3 complex floats,
// forward, on one GPU alone (BasicFft), and over groups of the first 1 and
// 2 GPUs (GroupFft3d: planes, the host all-to-all, columns, back; and
// forward_to_columns, one all-to-all), wall clock a call with every queue
// finished (median of 5 after a warm-up, and the range), and the share the
// all-to-alls took.
//   fft_group_scaling [N ...]
#include <portacl/portacl.hpp>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "call_timing.hpp"

using namespace portacl;

int main(int argc, char** argv) {
  std::vector<std::size_t> sides;
  for (int a = 1; a < argc; ++a) sides.push_back(std::strtoul(argv[a], nullptr, 10));
  if (sides.empty()) sides = {128, 256};
  std::mt19937 g(1);
  std::uniform_real_distribution<float> d(-1, 1);
  for (std::size_t n : sides) {
    std::vector<float> x(2 * n * n * n);
    for (float& v : x) v = d(g);
    {
      Context ctx("gpu:0");
      const Fft f(ctx, {n, n, n});
      Buffer<float> data(ctx, x);
      const WallTiming t = wall_timing([&] {
        f.forward(data);
        ctx.finish();
      });
      std::printf("%zu^3 one device (%s): %.3f ms (%.3f-%.3f)\n", n, ctx.device().info().name.c_str(), t.median, t.low,
                  t.high);
    }
    for (const char* selector : {"gpu:0", "gpu:0,gpu:1"}) {
      DeviceGroup group(selector);
      const GroupFft3d f(group, {n, n, n});
      std::vector<Buffer<float>> slabs = f.scatter(x);
      const double before = f.exchange_seconds();
      const WallTiming t = wall_timing([&] {
        f.forward(slabs);
        for (std::size_t m = 0; m < group.size(); ++m) group.context(m).finish();
      });
      const double exchange_ms = (f.exchange_seconds() - before) * 1e3 / 6;  // a call's, over the 6 calls
      std::printf("%zu^3 group %-12s (%zu members): %.3f ms (%.3f-%.3f), all-to-alls %.3f ms a call on average\n", n,
                  selector, group.size(), t.median, t.low, t.high, exchange_ms);
      std::vector<Buffer<float>> columns = f.make_columns();
      const double before_columns = f.exchange_seconds();
      const WallTiming c = wall_timing([&] {
        f.forward_to_columns(slabs, columns);
        for (std::size_t m = 0; m < group.size(); ++m) group.context(m).finish();
      });
      std::printf("%zu^3 group %-12s to the columns: %.3f ms (%.3f-%.3f), its all-to-all %.3f ms a call on average\n",
                  n, selector, c.median, c.low, c.high, (f.exchange_seconds() - before_columns) * 1e3 / 6);
    }
    std::fflush(stdout);
  }
}
