// SPDX-License-Identifier: Apache-2.0
// Heat 2D with a callback: a plate held at 1 on its north edge and 0 on the
// others warms up; every 500 steps the callback reads the field and prints
// the plate's mean. The mean only grows, and every cell stays in [0, 1]
// (the explicit scheme's maximum principle for r <= 1/4).
#include <algorithm>
#include <cstdio>
#include <vector>

#include <portacl/portacl.hpp>

int main() {
  portacl::Context ctx;
  const std::size_t rows = 129, cols = 200;
  portacl::Buffer<float> plate(ctx, std::vector<float>(rows * cols, 0.0f));
  portacl::HeatOptions<float> options;
  options.r = 0.25f;
  options.steps = 4000;
  options.sides = portacl::HeatSides<float>{1.0f, 0.0f, 0.0f, 0.0f};  // north, south, west, east
  options.output_every = 500;
  double last_mean = 0;
  bool ok = true;
  options.on_output = [&](std::size_t step, const portacl::Buffer<float>& field) {
    const std::vector<float> u = field.download();
    double sum = 0;
    for (float v : u) sum += v;
    const double mean = sum / double(u.size());
    const auto [lo, hi] = std::minmax_element(u.begin(), u.end());
    std::printf("step %4zu: mean %.5f, min %.3g, max %.3g\n", step, mean, double(*lo), double(*hi));
    ok = ok && mean >= last_mean && *lo >= 0.0f && *hi <= 1.0f;
    last_mean = mean;
  };
  portacl::heat2d(ctx, plate, rows, cols, options);
  std::printf(ok ? "heat ok\n" : "heat: the mean fell or a cell left [0, 1]\n");
  return ok && last_mean > 0.05 ? 0 : 1;
}
