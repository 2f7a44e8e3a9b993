// SPDX-License-Identifier: Apache-2.0
// Convolution layers by each algorithm against the FFT, on one device:
// the layers where the FFT wins, beside the FFT's gain (the direct sum's
// multiplications over the FFT's, decision fft_gain), set rule conv.fft's
// constant for the device's class (docs/ml.md, "Convolution layers by
// FFT"). Each call is timed by the wall clock around it and clFinish (5
// runs after a warm-up, median and range); the rules' choice is shown.
//   conv_layer_fft_crossover DEVICE IMAGES
#include <portacl/portacl.hpp>

#include "call_timing.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace portacl;

int main(int argc, char** argv) {
  Context ctx(argc > 1 ? argv[1] : "cpu");
  const std::size_t images = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 8;
  struct Layer {
    std::size_t c, side, k, r;
  };
  const std::vector<Layer> layers{{64, 32, 64, 3},   {64, 32, 64, 5},   {64, 32, 64, 7},   {64, 32, 64, 9},
                                  {64, 32, 64, 11},  {32, 64, 32, 3},   {32, 64, 32, 5},   {32, 64, 32, 7},
                                  {32, 64, 32, 9},   {384, 13, 256, 3}, {384, 13, 256, 5}, {128, 16, 128, 5},
                                  {128, 16, 128, 7}, {3, 64, 64, 7},    {3, 64, 64, 11},   {16, 128, 16, 9}};
  std::mt19937 g(1);
  std::uniform_real_distribution<float> d(-1, 1);
  std::printf("# %s: %zu images, NCHW, stride 1, padding (R - 1) / 2; wall ms a call, median of 5 (min-max)\n",
              ctx.device().info().name.c_str(), images);
  std::printf("%-22s %22s %22s %22s %22s %7s  %s\n", "C x HxW -> K x RxS", "direct", "im2col", "winograd", "fft",
              "gain", "rules");
  const ConvAlgorithm algorithms[] = {ConvAlgorithm::direct, ConvAlgorithm::im2col_gemm, ConvAlgorithm::winograd,
                                      ConvAlgorithm::fft};
  for (const Layer& l : layers) {
    ConvLayerShape s;
    s.images = images;
    s.channels = l.c;
    s.height = s.width = l.side;
    s.filters = l.k;
    s.filter_height = s.filter_width = l.r;
    s.pad_h = s.pad_w = (l.r - 1) / 2;
    std::vector<float> x(images * l.c * l.side * l.side), w(l.k * l.c * l.r * l.r);
    for (auto& v : x) v = d(g);
    for (auto& v : w) v = d(g);
    Buffer<float> in(ctx, x), filters(ctx, w), out(ctx, images * l.k * s.out_height() * s.out_width());
    char name[64];
    std::snprintf(name, sizeof name, "%zu x %zu^2 -> %zu x %zu^2", l.c, l.side, l.k, l.r);
    std::printf("%-22s", name);
    for (ConvAlgorithm a : algorithms) {
      if (a == ConvAlgorithm::winograd && l.r != 3) {
        std::printf(" %22s", "-");
        continue;
      }
      ConvLayerOptions o;
      o.algorithm = a;
      const WallTiming t = wall_timing([&] {
        conv_layer_forward(ctx, s, in, filters, nullptr, out, o);
        ctx.finish();
      });
      std::printf(" %8.3f (%5.2f-%5.2f)", t.median, t.low, t.high);
    }
    // The FFT's launches by their device time (profiling events), in order.
    std::string launches;
    {
      ConvLayerOptions o;
      o.algorithm = ConvAlgorithm::fft;
      LaunchRecorder recorder(ctx);
      conv_layer_forward(ctx, s, in, filters, nullptr, out, o);
      ctx.finish();
      for (const auto& e : recorder.events()) launches += " " + std::to_string(Context::elapsed_ms(e)).substr(0, 5);
    }
    const LaunchPlan p = conv_layer_forward(ctx, s, in, filters, nullptr, out);
    const Decision* gain = p.decision("fft_gain");
    std::printf(" %7s  %s\n", gain ? gain->value.c_str() : "-", p.decision("algorithm")->value.c_str());
    std::printf("#   FFT launches, device ms:%s\n", launches.c_str());
    std::fflush(stdout);
  }
}
