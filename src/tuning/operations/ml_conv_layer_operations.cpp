// SPDX-License-Identifier: Apache-2.0
// The convolution layer operations: the book's layer, images of 384
// channels of 13 x 13 through 256 filters of 3 x 3, padding 1, stride 1,
// with 128 n / 2^24 images (2^24: the book's 128, 38.3 GFLOP), NCHW, by
// each algorithm (the FFT too, though rule conv.fft gives a 3 x 3 layer
// another). Counted: 2 flops a tap of every output (padded taps
// included, as cuDNN's figures count them), so the GFLOP/s column is the
// effective rate (Winograd does fewer). Checked on 64 outputs against the
// double sum, within the algorithm's bound. cuDNN's
// time for the layer comes from tools/gpu/cudnn_conv.py.
#include <cmath>
#include <optional>

#include "../ml_conv_layer_reference.hpp"
#include "../host_reference.hpp"
#include "../family.hpp"
#include "kernels/ml/conv_layer_tunables.hpp"
#include "portacl/ml.hpp"

namespace portacl {
namespace {

constexpr std::size_t kChannels = 384, kSide = 13, kFilters = 256, kTaps = kChannels * 9;
constexpr double kImagesPerElement = 128.0 / double(1u << 24);

ConvLayerShape book_layer(std::size_t images) {
  ConvLayerShape s;
  s.images = images;
  s.channels = kChannels;
  s.height = s.width = kSide;
  s.filters = kFilters;
  s.filter_height = s.filter_width = 3;
  s.pad_h = s.pad_w = 1;
  return s;
}

struct ConvCase {
  ConvCase(Context& ctx, std::size_t images)
      : shape(book_layer(images)),
        input(reference::uniform_floats(images * kChannels * kSide * kSide, 0xc0417ull ^ images)),
        filters(reference::uniform_floats(kFilters * kTaps, 0xf1173ull)),
        din(ctx, input),
        dfilters(ctx, filters),
        dout(ctx, images * kFilters * kSide * kSide) {}
  // The backward pass's buffers, made on its first use.
  void make_gradients(Context& ctx) {
    if (grad_input) return;
    grad_output.emplace(ctx, reference::uniform_floats(dout.size(), 0x9badull));
    grad_input.emplace(ctx, din.size());
    grad_filters.emplace(ctx, dfilters.size());
  }
  ConvLayerShape shape;
  std::vector<float> input, filters;
  Buffer<float> din, dfilters, dout;
  std::optional<Buffer<float>> grad_output, grad_input, grad_filters;
};

ConvCase& conv_case(Workload& w) {
  auto& slot = w.derived["conv_layer"];
  if (!slot) {
    const auto images = static_cast<std::size_t>(std::llround(kImagesPerElement * double(w.n)));
    slot = std::make_shared<ConvCase>(w.ctx, std::max<std::size_t>(images, 1));
  }
  return *std::static_pointer_cast<ConvCase>(slot);
}

Operation conv_operation(const char* name, ConvAlgorithm algorithm) {
  const auto run = [algorithm](Workload& w, const PlanOptions& o) {
    ConvCase& c = conv_case(w);
    ConvLayerOptions options;
    options.algorithm = algorithm;
    options.plan = o;
    return conv_layer_forward(w.ctx, c.shape, c.din, c.dfilters, nullptr, c.dout, options);
  };
  const auto check = [run](Workload& w, const PlanOptions& o) -> std::string {
    ConvCase& c = conv_case(w);
    c.dout.upload(std::vector<float>(c.dout.size(), std::nanf("")));
    const LaunchPlan plan = run(w, o);
    const bool winograd = plan.decision("algorithm")->value.find("Winograd") != std::string::npos;
    // By FFT, an output's error is within its plane's 2-norm bound.
    const std::vector<double> fft_bounds =
        plan.decision("algorithm")->value == "FFT"
            ? reference::conv_fft_plane_bounds(c.shape, TensorLayout::nchw, c.input, c.filters, nullptr,
                                               reference::fft_grid_named(plan.decision("fft_grid")->value))
            : std::vector<double>{};
    const std::vector<float> got = c.dout.download();
    // 64 outputs spread over the images, filters and positions (edges included).
    for (std::size_t s = 0; s < 64; ++s) {
      const std::size_t n = s * (c.shape.images - 1) / 63, f = (s * 37) % kFilters, p = (s * 53) % (kSide * kSide);
      const reference::ConvPoint point =
          reference::conv_point(c.shape, TensorLayout::nchw, c.input, c.filters, n, f, p / kSide, p % kSide);
      const float value = got[(n * kFilters + f) * kSide * kSide + p];
      const double margin =
          fft_bounds.empty() ? reference::conv_margin(c.shape, point, 0.0, winograd) : fft_bounds[n * kFilters + f];
      if (!(std::fabs(value - point.sum) <= margin))
        return "image " + std::to_string(n) + " filter " + std::to_string(f) + " position " + std::to_string(p) + ": " +
               std::to_string(value) + ", want " + std::to_string(point.sum);
    }
    return "";
  };
  const double flops = 2.0 * kTaps * kFilters * kSide * kSide * kImagesPerElement;
  return Operation{name, 0, flops, &conv_layer_tunables(), run, check};
}

// The backward pass of the same layer: the input's and the filters'
// gradients (twice the forward's flops), checked on 32 filter weights
// against the double sum over images and positions.
Operation conv_backward_operation() {
  const auto run = [](Workload& w, const PlanOptions& o) {
    ConvCase& c = conv_case(w);
    c.make_gradients(w.ctx);
    ConvLayerOptions options;
    options.plan = o;
    return conv_layer_backward(w.ctx, c.shape, c.din, c.dfilters, nullptr, *c.grad_output,
                               ConvLayerGradients{&*c.grad_input, &*c.grad_filters, nullptr}, options);
  };
  const auto check = [run](Workload& w, const PlanOptions& o) -> std::string {
    ConvCase& c = conv_case(w);
    c.make_gradients(w.ctx);
    c.grad_filters->upload(std::vector<float>(c.dfilters.size(), std::nanf("")));
    run(w, o);
    const std::vector<float> got = c.grad_filters->download(), grad = c.grad_output->download();
    for (std::size_t k = 0; k < 32; ++k) {
      const std::size_t at = (k * 104729) % (kFilters * kTaps), f = at / kTaps, ch = (at % kTaps) / 9;
      const std::size_t i = (at % 9) / 3, j = at % 3;
      double sum = 0, magnitude = 0;
      for (std::size_t n = 0; n < c.shape.images; ++n)
        for (std::size_t p = 0; p < kSide * kSide; ++p) {
          const long y = long(p / kSide + i) - 1, x = long(p % kSide + j) - 1;
          if (y < 0 || x < 0 || y >= long(kSide) || x >= long(kSide)) continue;
          const double term = double(grad[(n * kFilters + f) * kSide * kSide + p]) *
                              c.input[((n * kChannels + ch) * kSide + std::size_t(y)) * kSide + std::size_t(x)];
          sum += term;
          magnitude += std::fabs(term);
        }
      const double terms = double(c.shape.images * kSide * kSide + 2);
      if (!(std::fabs(got[at] - sum) <= terms * 1.2e-7 * magnitude))
        return "filter gradient " + std::to_string(at) + ": " + std::to_string(got[at]) + ", want " +
               std::to_string(sum);
    }
    return "";
  };
  const double flops = 4.0 * kTaps * kFilters * kSide * kSide * kImagesPerElement;
  return Operation{"conv backward", 0, flops, &conv_layer_tunables(), run, check};
}

std::vector<Operation> conv_layer_operations() {
  return {conv_operation("conv direct", ConvAlgorithm::direct),
          conv_operation("conv im2col", ConvAlgorithm::im2col_gemm),
          conv_operation("conv winograd", ConvAlgorithm::winograd), conv_operation("conv fft", ConvAlgorithm::fft),
          conv_backward_operation()};
}

const FamilyRegistration conv_layer_family({"conv_layer", 44, conv_layer_operations});

}  // namespace
}  // namespace portacl
