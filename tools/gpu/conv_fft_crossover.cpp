// SPDX-License-Identifier: Apache-2.0
// Convolution directly against convolution by FFT, by mask size, on one
// device: where the two cross sets rule convolution.fft's constant for the
// device's class (docs/stencils.md, "Convolution by FFT"). Each call is
// timed by the wall clock around it and clFinish (5 runs after a warm-up,
// median and range); the rules' own choice is shown beside.
//   g++ -O2 -std=c++17 -I include -I BUILD/generated/include conv_fft_crossover.cpp -LBUILD/lib/... -lportacl
//   conv_fft_crossover DEVICE N [MASK ...]
#include <portacl/portacl.hpp>

#include "call_timing.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace portacl;

int main(int argc, char** argv) {
  Context ctx(argc > 1 ? argv[1] : "cpu");
  const std::size_t n = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 2048;
  std::vector<std::size_t> masks;
  for (int a = 3; a < argc; ++a) masks.push_back(std::strtoul(argv[a], nullptr, 10));
  if (masks.empty()) masks = {3, 5, 7, 9, 11, 13, 17, 21, 25, 33, 41, 49};
  std::mt19937 g(1);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> img(n * n);
  for (auto& v : img) v = d(g);
  Buffer<float> in(ctx, img), out(ctx, n * n);
  std::printf("# %s: %zu x %zu float image, zero boundary, M x M masks; wall ms a call, median of 5 (min-max)\n",
              ctx.device().info().name.c_str(), n, n);
  std::printf("%5s %28s %28s %7s  %s\n", "mask", "direct ms", "by FFT ms", "d/fft", "rules (grid)");
  for (std::size_t m : masks) {
    std::vector<float> w(m * m);
    for (auto& v : w) v = d(g);
    const ConvolutionMask<float> mask(ctx, w, m, m);
    WallTiming t[2];
    for (int a = 0; a < 2; ++a) {
      ConvolutionOptions o;
      o.fft = a == 1;
      t[a] = wall_timing([&] {
        convolve2d(ctx, in, n, n, mask, out, o);
        ctx.finish();
      });  // the warm-up: the mask's spectrum
    }
    const LaunchPlan p = convolve2d(ctx, in, n, n, mask, out);
    const Decision* grid = p.decision("fft_grid");
    std::printf("%5zu %10.3f (%7.3f-%7.3f) %10.3f (%7.3f-%7.3f) %7.2f  %s%s\n", m, t[0].median, t[0].low, t[0].high,
                t[1].median, t[1].low, t[1].high, t[0].median / t[1].median, p.decision("algorithm")->value.c_str(),
                grid ? (" (" + grid->value + ")").c_str() : "");
    std::fflush(stdout);
  }
}
