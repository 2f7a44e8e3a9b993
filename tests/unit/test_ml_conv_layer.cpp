// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>
#include <functional>

#include "test_support.hpp"
#include "kernels/ml/conv_layer_tunables.hpp"
#include "tuning/ml_conv_layer_reference.hpp"

using namespace portacl;

namespace {

// A shape from its sizes: images, channels, H, W, filters, R, S, stride,
// padding, dilation, groups (the same along both axes unless set after).
ConvLayerShape layer(std::size_t n, std::size_t c, std::size_t h, std::size_t w, std::size_t f, std::size_t r,
                     std::size_t s, std::size_t stride, std::size_t pad, std::size_t dilation, std::size_t groups) {
  // In the order ConvLayerShape declares its fields; strides, pads and dilations the same both ways.
  return {n, c, h, w, f, r, s, stride, stride, pad, pad, dilation, dilation, groups};
}

std::string describe(const ConvLayerShape& s) {
  return std::to_string(s.images) + "x" + std::to_string(s.channels) + "x" + std::to_string(s.height) + "x" +
         std::to_string(s.width) + " * " + std::to_string(s.filters) + "x" + std::to_string(s.channels / s.groups) +
         "x" + std::to_string(s.filter_height) + "x" + std::to_string(s.filter_width) + ", stride " +
         std::to_string(s.stride_h) + "x" + std::to_string(s.stride_w) + ", pad " + std::to_string(s.pad_h) + "x" +
         std::to_string(s.pad_w) + ", dilation " + std::to_string(s.dilation_h) + "x" + std::to_string(s.dilation_w) +
         ", groups " + std::to_string(s.groups);
}

bool ran_winograd(const LaunchPlan& p) {
  return p.decision("algorithm") && p.decision("algorithm")->value.find("Winograd") != std::string::npos;
}
bool ran_fft(const LaunchPlan& p) { return p.decision("algorithm") && p.decision("algorithm")->value == "FFT"; }

// Runs the layer on fresh data, dyadic (sums exact in float, but for
// Winograd's and the FFT's transforms) or uniform in [-1, 1), into a
// poisoned output and compares every output with the seven loops in
// double, within the bound of the algorithm that ran (the FFT's on each
// output plane's 2-norm). Returns the plan.
LaunchPlan check_layer(Context& ctx, const ConvLayerShape& s, TensorLayout layout, ConvAlgorithm algorithm,
                       bool with_bias, bool relu, const PlanOptions& plan = {}, bool dyadic = true) {
  INFO(describe(s) << (layout == TensorLayout::nchw ? ", NCHW" : ", NHWC")
                   << (algorithm == ConvAlgorithm::direct        ? ", direct"
                       : algorithm == ConvAlgorithm::im2col_gemm ? ", im2col"
                       : algorithm == ConvAlgorithm::winograd    ? ", Winograd"
                       : algorithm == ConvAlgorithm::fft         ? ", FFT"
                                                                 : ", automatic")
                   << (with_bias ? ", bias" : "") << (relu ? ", ReLU" : ""));
  const auto data = [dyadic](std::size_t count, int bits, int scale) {
    return dyadic ? test::random_dyadic<float>(count, bits, scale) : test::random_vector<float>(count);
  };
  const std::vector<float> input = data(s.images * s.channels * s.height * s.width, 2, 8);
  const std::vector<float> filters =
      data(s.filters * (s.channels / s.groups) * s.filter_height * s.filter_width, 1, 16);
  const std::vector<float> bias = data(s.filters, 2, 4);
  const std::size_t outputs = s.images * s.filters * s.out_height() * s.out_width();
  Buffer<float> din(ctx, input), dfilters(ctx, filters), dbias(ctx, bias);
  Buffer<float> dout(ctx, std::vector<float>(outputs + 3, std::nanf("")));
  ConvLayerOptions o;
  o.layout = layout;
  o.algorithm = algorithm;
  o.relu = relu;
  o.plan = plan;
  const LaunchPlan p = conv_layer_forward(ctx, s, din, dfilters, with_bias ? &dbias : nullptr, dout, o);
  std::vector<float> got = dout.download();
  CHECK(std::isnan(got[outputs]));  // nothing past the output
  got.resize(outputs);
  if (algorithm != ConvAlgorithm::automatic) {
    CHECK(ran_winograd(p) == (algorithm == ConvAlgorithm::winograd));
    CHECK(ran_fft(p) == (algorithm == ConvAlgorithm::fft));
  }
  const reference::ConvReference want =
      reference::conv_layer(s, layout, input, filters, with_bias ? &bias : nullptr, relu);
  if (ran_fft(p)) {
    REQUIRE(p.decision("fft_grid"));
    const std::vector<std::size_t> grid = reference::fft_grid_named(p.decision("fft_grid")->value);
    CHECK(grid.back() >= std::max(s.width + s.pad_w, s.dilation_w * (s.filter_width - 1) + 1));
    CHECK((grid.size() == 2 ? grid[0] : 1) >= std::max(s.height + s.pad_h, s.dilation_h * (s.filter_height - 1) + 1));
    const std::vector<double> bounds =
        reference::conv_fft_plane_bounds(s, layout, input, filters, with_bias ? &bias : nullptr, grid);
    CHECK(reference::compare_conv_fft(got, want, s, layout, bounds) == "");
    // The bound sees image 0's filter 0 moved by one column.
    const std::size_t p_count = s.out_height(), q_count = s.out_width();
    std::vector<float> shifted = got;
    bool moved = false;
    for (std::size_t y = 0; y < p_count; ++y)
      for (std::size_t x = 0; x + 1 < q_count; ++x) {
        const std::size_t at = reference::tensor_index(layout, s.filters, p_count, q_count, 0, 0, y, x);
        shifted[at] = got[reference::tensor_index(layout, s.filters, p_count, q_count, 0, 0, y, x + 1)];
        moved = moved || std::fabs(double(shifted[at]) - want.value[at]) > 1e-3;
      }
    if (moved) CHECK(reference::compare_conv_fft(shifted, want, s, layout, bounds) != "");
    return p;
  }
  CHECK(reference::compare_conv(got, want, ran_winograd(p)) == "");
  // The margins see the largest output off by one part in 10^4 (direct,
  // im2col); Winograd's documented bound, 81 (C + 16) eps times the
  // tile's scale, is a few parts in 10^4 at least: one part in 10^2 there.
  if (outputs > 0) {
    const std::size_t largest =
        std::size_t(std::max_element(want.value.begin(), want.value.end(),
                                     [](double a, double b) { return std::fabs(a) < std::fabs(b); }) -
                    want.value.begin());
    if (want.value[largest] != 0) {
      std::vector<float> planted = got;
      planted[largest] = float(want.value[largest] * (1 + (ran_winograd(p) ? 1e-2 : 1e-4)));
      CHECK(reference::compare_conv(planted, want, ran_winograd(p)) != "");
    }
  }
  return p;
}

const std::vector<ConvLayerShape>& odd_shapes() {
  static const std::vector<ConvLayerShape> shapes{
      layer(1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1),      // the smallest
      layer(1, 1, 7, 5, 1, 3, 3, 1, 1, 1, 1),      // batch 1, 1 channel
      layer(3, 5, 9, 11, 7, 3, 3, 2, 0, 1, 1),     // stride 2, no padding
      layer(2, 3, 8, 7, 5, 5, 3, 1, 2, 1, 1),      // padding 2, a 5 x 3 filter
      layer(2, 4, 11, 9, 6, 3, 3, 1, 2, 2, 2),     // dilation 2, 2 groups
      layer(3, 6, 5, 6, 6, 3, 3, 1, 1, 1, 6),      // depthwise
      layer(2, 17, 6, 5, 19, 1, 1, 1, 0, 1, 1),    // 1 x 1, odd channels
      layer(1, 12, 13, 13, 20, 3, 3, 1, 1, 1, 1),  // the book's layer, small: 108 taps, 20 filters
      layer(2, 5, 6, 9, 3, 3, 3, 1, 2, 1, 1),      // 3 x 3, padding 2: tiles wholly in the padding's edge
      layer(3, 3, 4, 4, 2, 3, 3, 1, 0, 1, 1),      // 3 x 3, no padding: a single 2 x 2 tile
  };
  return shapes;
}

// The algorithms that compute `s`.
std::vector<ConvAlgorithm> algorithms_for(const ConvLayerShape& s) {
  std::vector<ConvAlgorithm> all{ConvAlgorithm::direct, ConvAlgorithm::im2col_gemm, ConvAlgorithm::fft};
  if (winograd_fits(s)) all.push_back(ConvAlgorithm::winograd);
  return all;
}

}  // namespace

TEST_CASE("convolution layers equal the seven loops in double: every algorithm, both layouts, odd shapes",
          "[conv_layer]") {
  Context& ctx = test::cpu_context();
  for (const ConvLayerShape& s : odd_shapes())
    for (TensorLayout layout : {TensorLayout::nchw, TensorLayout::nhwc})
      for (ConvAlgorithm algorithm : algorithms_for(s))
        check_layer(ctx, s, layout, algorithm, s.filters % 2 == 1, s.channels % 2 == 0);
  // Stride and padding differ by axis.
  ConvLayerShape s = layer(2, 3, 10, 9, 4, 3, 2, 1, 0, 1, 1);
  s.stride_h = 3;
  s.pad_w = 1;
  s.dilation_w = 3;
  for (ConvAlgorithm algorithm : {ConvAlgorithm::direct, ConvAlgorithm::im2col_gemm, ConvAlgorithm::fft})
    check_layer(ctx, s, TensorLayout::nchw, algorithm, true, true);
}

TEST_CASE("convolution layers run right under every device class's plan, each algorithm and tuned blocks",
          "[conv_layer]") {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(ElementType::f32)) {
    INFO(f);
    const DeviceClass c = classify(*opt.plan_as).device_class;
    CHECK(prefers_channels_first(c) == gpu_class(c));
    const TensorLayout layout = prefers_channels_first(c) ? TensorLayout::nchw : TensorLayout::nhwc;
    const LaunchPlan big =
        check_layer(ctx, layer(2, 12, 7, 6, 20, 3, 3, 1, 1, 1, 1), layout, ConvAlgorithm::automatic, true, true, opt);
    REQUIRE(big.decision("algorithm"));
    CHECK(big.decision("algorithm")->value == "im2col + GEMM");  // 108 taps, 20 filters
    const LaunchPlan small =
        check_layer(ctx, layer(3, 2, 9, 8, 5, 3, 3, 2, 1, 1, 1), layout, ConvAlgorithm::automatic, false, false, opt);
    CHECK(small.decision("algorithm")->value == "direct");  // 18 taps, 5 filters
    const LaunchPlan wide =
        check_layer(ctx, layer(2, 16, 6, 7, 17, 3, 3, 1, 1, 1, 1), layout, ConvAlgorithm::automatic, true, true, opt);
    CHECK(ran_winograd(wide));  // 3 x 3, stride 1, 16 channels and 17 filters
    // A tuned Winograd where it fits, and its fall back to the rule where it does not.
    PlanOptions tuned_winograd = opt;
    PlanOverride winograd_knob;
    winograd_knob.macros = {{"ALGORITHM", "2"}};
    tuned_winograd.override_values = winograd_knob;
    CHECK(ran_winograd(check_layer(ctx, layer(2, 3, 5, 8, 4, 3, 3, 1, 1, 1, 1), layout, ConvAlgorithm::automatic, false,
                                   false, tuned_winograd)));
    CHECK_FALSE(ran_winograd(check_layer(ctx, layer(2, 3, 9, 8, 4, 3, 3, 2, 1, 1, 1), layout, ConvAlgorithm::automatic,
                                         false, false, tuned_winograd)));
    // A tuned FFT on a layer the rule gives another.
    PlanOptions tuned_fft = opt;
    PlanOverride fft_knob;
    fft_knob.macros = {{"ALGORITHM", "3"}};
    tuned_fft.override_values = fft_knob;
    CHECK(ran_fft(check_layer(ctx, layer(3, 5, 9, 8, 6, 3, 5, 1, 2, 1, 1), layout, ConvAlgorithm::automatic, true, true,
                              tuned_fft)));
    for (const auto& [ib, fb] : std::vector<std::pair<int, int>>{{1, 1}, {4, 8}, {2, 2}}) {
      INFO("IB " << ib << ", FB " << fb);
      PlanOptions tuned = opt;
      PlanOverride ov;
      ov.macros = {{"IB", std::to_string(ib)}, {"FB", std::to_string(fb)}};
      tuned.override_values = ov;
      check_layer(ctx, layer(5, 4, 6, 7, 6, 3, 3, 1, 1, 1, 2), layout, ConvAlgorithm::direct, true, false, tuned);
    }
  }
}

TEST_CASE("convolution layers: rule conv.fft gives the FFT large filters over many products, on every class",
          "[conv_layer]") {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(ElementType::f32)) {
    INFO(f);
    const bool gpu = gpu_class(classify(*opt.plan_as).device_class);
    ConvLayerOptions o;
    o.plan = opt;
    const auto algorithm = [&](const ConvLayerShape& s) {
      const LaunchPlan p = plan_conv_layer(live_planner(ctx, opt), s, o, false).plan;
      REQUIRE(p.decision("fft_gain"));
      return p.decision("algorithm")->value;
    };
    // 32 images of 64 x 32 x 32 through 64 filters of 11 x 11: the direct
    // sum's multiplications 20.6 times the FFT's, 1.6e10 of them.
    CHECK(algorithm(layer(32, 64, 32, 32, 64, 11, 11, 1, 5, 1, 1)) == "FFT");
    CHECK(algorithm(layer(32, 64, 32, 32, 64, 3, 3, 1, 1, 1, 1)) == "Winograd F(2x2, 3x3)");  // 1.9 times
    // 8 images of 3 channels of 64 x 64, 64 filters of 11 x 11: 5.7 times
    // but 7.6e8, under a GPU's 2^30.
    CHECK((algorithm(layer(8, 3, 64, 64, 64, 11, 11, 1, 5, 1, 1)) == "FFT") == !gpu);
    // 32 images of 32 x 64 x 64, 32 filters of 5 x 5: 3.99 times, past a
    // GPU's 3.5, short of a CPU's 4.5.
    CHECK((algorithm(layer(32, 32, 64, 64, 32, 5, 5, 1, 2, 1, 1)) == "FFT") == gpu);
  }
}

TEST_CASE("convolution layers: Winograd F(2x2, 3x3) on uniform floats stays within its stated bound", "[conv_layer]") {
  Context& ctx = test::cpu_context();
  for (TensorLayout layout : {TensorLayout::nchw, TensorLayout::nhwc}) {
    check_layer(ctx, layer(2, 40, 9, 10, 24, 3, 3, 1, 1, 1, 1), layout, ConvAlgorithm::winograd, true, false, {},
                false);
    check_layer(ctx, layer(3, 8, 7, 5, 6, 3, 3, 1, 2, 1, 2), layout, ConvAlgorithm::winograd, false, true, {}, false);
  }
}

TEST_CASE("convolution layers: a 1 x 1 filter is a GEMM over channels, a centred delta copies its channel",
          "[conv_layer]") {
  Context& ctx = test::cpu_context();
  const std::size_t n = 2, c = 5, h = 4, w = 3;
  const std::vector<float> input = test::random_dyadic<float>(n * c * h * w, 2, 8);
  Buffer<float> din(ctx, input);
  // Filter f is a delta on channel f % c at the centre of a 3 x 3 window, padding 1.
  const std::size_t f_count = 7;
  std::vector<float> delta(f_count * c * 9, 0.0f);
  for (std::size_t f = 0; f < f_count; ++f) delta[(f * c + f % c) * 9 + 4] = 1.0f;
  Buffer<float> dfilters(ctx, delta), dout(ctx, n * f_count * h * w);
  for (ConvAlgorithm algorithm : {ConvAlgorithm::direct, ConvAlgorithm::im2col_gemm, ConvAlgorithm::winograd}) {
    ConvLayerOptions o;
    o.algorithm = algorithm;
    conv_layer_forward(ctx, layer(n, c, h, w, f_count, 3, 3, 1, 1, 1, 1), din, dfilters, nullptr, dout, o);
    const std::vector<float> got = dout.download();
    bool copies = true;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t f = 0; f < f_count; ++f)
        for (std::size_t p = 0; p < h * w; ++p)
          copies = copies && got[(i * f_count + f) * h * w + p] == input[(i * c + f % c) * h * w + p];
    CHECK(copies);
  }
  // A layout round trip is the identity.
  Buffer<float> nhwc(ctx, input.size()), back(ctx, input.size());
  convert_tensor_layout(ctx, n, c, h, w, din, TensorLayout::nchw, nhwc, TensorLayout::nhwc);
  const std::vector<float> moved = nhwc.download();
  CHECK(moved[reference::tensor_index(TensorLayout::nhwc, c, h, w, 1, 3, 2, 1)] ==
        input[reference::tensor_index(TensorLayout::nchw, c, h, w, 1, 3, 2, 1)]);
  convert_tensor_layout(ctx, n, c, h, w, nhwc, TensorLayout::nhwc, back, TensorLayout::nchw);
  CHECK(back.download() == input);
}

TEST_CASE("convolution layers refuse what they cannot compute, naming the problem", "[conv_layer]") {
  Context& ctx = test::cpu_context();
  Buffer<float> in(ctx, 2 * 4 * 5 * 5), filters(ctx, 6 * 4 * 9), out(ctx, 2 * 6 * 5 * 5), bias(ctx, 5);
  const ConvLayerShape ok = layer(2, 4, 5, 5, 6, 3, 3, 1, 1, 1, 1);
  // Each wrong shape: what differs from `ok`, and the words its error must hold.
  const std::pair<std::function<void(ConvLayerShape&)>, const char*> wrong_shapes[] = {
      {[](ConvLayerShape& s) { s.groups = 3; }, "groups 3 must divide"},
      {[](ConvLayerShape& s) { s.stride_w = 0; }, "at least 1"},
      {[](ConvLayerShape& s) {
         s.pad_h = 0;
         s.filter_height = 7;
       },
       "larger than the padded"},
      {[](ConvLayerShape& s) { s.images = 0; }, "a size is 0"},
      {[](ConvLayerShape& s) { s.images = 3; }, "input has 200 elements"},
      {[](ConvLayerShape& s) { s.filters = 7; }, "filters has 216 elements"},
  };
  for (const auto& [change, words] : wrong_shapes) {
    INFO(words);
    ConvLayerShape s = ok;
    change(s);
    CHECK_THROWS_WITH(conv_layer_forward(ctx, s, in, filters, nullptr, out), Catch::Contains(words));
  }
  ConvLayerShape s = ok;
  s.stride_w = 2;
  ConvLayerOptions winograd;
  winograd.algorithm = ConvAlgorithm::winograd;
  CHECK_THROWS_WITH(conv_layer_forward(ctx, s, in, filters, nullptr, out, winograd),
                    Catch::Contains("Winograd F(2x2, 3x3) needs a 3 x 3 filter of stride 1"));
  CHECK_THROWS_WITH(conv_layer_forward(ctx, ok, in, filters, &bias, out), Catch::Contains("bias has 5 elements"));
  CHECK_THROWS_WITH(conv_layer_forward(ctx, ok, in, filters, nullptr, in), Catch::Contains("output"));
  Context& other = test::another_context();
  Buffer<float> foreign(other, 200);
  CHECK_THROWS_WITH(conv_layer_forward(ctx, ok, foreign, filters, nullptr, out), Catch::Contains("another context"));
}

namespace {

// "" when every entry is within `margin` of the double reference.
std::string compare_gradient(const char* what, const std::vector<float>& got, const std::vector<double>& want,
                             double margin) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(got[i] - want[i]) <= margin))
      return std::string(what) + " " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " +
             std::to_string(want[i]);
  return "";
}

// The three gradients of a layer on dyadic data (every product and sum
// exact in float, so they must equal the reference exactly), against the
// scattered double reference, into poisoned buffers.
void check_backward(Context& ctx, const ConvLayerShape& s, TensorLayout layout, bool relu,
                    const PlanOptions& plan = {}) {
  INFO(describe(s) << (layout == TensorLayout::nchw ? ", NCHW" : ", NHWC") << (relu ? ", ReLU" : ""));
  const std::size_t outputs = s.images * s.filters * s.out_height() * s.out_width();
  const std::size_t weights = s.filters * (s.channels / s.groups) * s.filter_height * s.filter_width;
  const std::vector<float> input = test::random_dyadic<float>(s.images * s.channels * s.height * s.width, 2, 8);
  const std::vector<float> filters = test::random_dyadic<float>(weights, 1, 16);
  const std::vector<float> grad = test::random_dyadic<float>(outputs, 2, 4);
  const std::vector<float> output = test::random_dyadic<float>(outputs, 1, 2);  // the mask's source, with zeros
  Buffer<float> din(ctx, input), dw(ctx, filters), dgrad(ctx, grad), dout(ctx, output);
  Buffer<float> gi(ctx, std::vector<float>(input.size(), std::nanf(""))),
      gw(ctx, std::vector<float>(weights, std::nanf(""))), gb(ctx, std::vector<float>(s.filters, std::nanf("")));
  ConvLayerOptions o;
  o.layout = layout;
  o.relu = relu;
  o.plan = plan;
  const LaunchPlan p =
      conv_layer_backward(ctx, s, din, dw, relu ? &dout : nullptr, dgrad, ConvLayerGradients{&gi, &gw, &gb}, o);
  // The filters' gradient by the GEMM where its 64 x 64 tiles fill the compute units, else a work-group a weight.
  const std::size_t tiles = (s.filters / s.groups + 63) / 64 *
                            ((s.channels / s.groups * s.filter_height * s.filter_width + 63) / 64) * s.groups;
  REQUIRE(p.decision("filter_gradient"));
  CHECK(p.decision("filter_gradient")->value == (tiles < ctx.info().compute_units ? "a work-group a weight" : "GEMM"));
  const reference::ConvGradients want =
      reference::conv_layer_gradients(s, layout, input, filters, grad, relu ? &output : nullptr);
  CHECK(compare_gradient("input gradient", gi.download(), want.input, 0.0) == "");
  CHECK(compare_gradient("filter gradient", gw.download(), want.filters, 0.0) == "");
  CHECK(compare_gradient("bias gradient", gb.download(), want.bias, 0.0) == "");
}

}  // namespace

TEST_CASE("convolution layers, backward: the input, filter and bias gradients equal the double ones, odd shapes",
          "[conv_layer]") {
  Context& ctx = test::cpu_context();
  for (const ConvLayerShape& s : odd_shapes())
    for (TensorLayout layout : {TensorLayout::nchw, TensorLayout::nhwc}) check_backward(ctx, s, layout, s.images == 2);
  for (const auto& [f, opt] : test::class_plans(ElementType::f32)) {
    INFO(f);
    check_backward(ctx, layer(3, 4, 7, 6, 6, 3, 3, 2, 1, 1, 2), TensorLayout::nchw, true, opt);
    check_backward(ctx, layer(2, 3, 6, 5, 4, 3, 3, 1, 1, 1, 1), TensorLayout::nhwc, false, opt);
  }
  // 12 output tiles: the GEMM on a device of up to 12 compute units, a work-group a weight on larger ones.
  check_backward(ctx, layer(1, 40, 4, 5, 70, 3, 3, 1, 1, 1, 1), TensorLayout::nchw, true);
}

TEST_CASE("convolution layers, backward: the gradients are the loss's finite differences in double", "[conv_layer]") {
  Context& ctx = test::cpu_context();
  // L = sum of g * conv(x, w) + b: linear in x, w and b, so a central
  // difference in double is exact up to rounding of the double sums.
  ConvLayerShape s = layer(2, 3, 6, 5, 4, 3, 2, 2, 1, 1, 1);
  s.dilation_w = 2;
  const std::vector<float> input = test::random_vector<float>(2 * 3 * 6 * 5);
  const std::vector<float> filters = test::random_vector<float>(4 * 3 * 6), bias = test::random_vector<float>(4);
  const std::size_t outputs = 2 * 4 * s.out_height() * s.out_width();
  const std::vector<float> grad = test::random_vector<float>(outputs);
  Buffer<float> din(ctx, input), dw(ctx, filters), dgrad(ctx, grad), gi(ctx, input.size()), gw(ctx, filters.size()),
      gb(ctx, 4);
  conv_layer_backward(ctx, s, din, dw, nullptr, dgrad, ConvLayerGradients{&gi, &gw, &gb});
  const std::vector<float> got_input = gi.download(), got_filters = gw.download(), got_bias = gb.download();
  const auto loss = [&](const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b) {
    const reference::ConvReference y = reference::conv_layer(s, TensorLayout::nchw, x, w, &b, false);
    double l = 0;
    for (std::size_t i = 0; i < outputs; ++i) l += y.value[i] * grad[i];
    return l;
  };
  const double h = 0.25;  // exact in float: x +- h changes x exactly
  // The device's gradients round their products and sums: an input's
  // gradient adds filters x taps terms g w, a filter's and the bias's
  // images x positions terms g x and g; each within that count of
  // roundings of the terms' magnitudes (the same gradients of |g|, |x|,
  // |w|). The central difference of the double loss errs by the rounding
  // of its sums, taps + outputs roundings of sum |g| (|w x| + |b|), over 2 h.
  const auto absolute = [](std::vector<float> v) {
    for (float& e : v) e = std::fabs(e);
    return v;
  };
  const reference::ConvGradients size = reference::conv_layer_gradients(s, TensorLayout::nchw, absolute(input),
                                                                        absolute(filters), absolute(grad), nullptr);
  const std::vector<float> bias_size = absolute(bias);
  const reference::ConvReference y_size =
      reference::conv_layer(s, TensorLayout::nchw, absolute(input), absolute(filters), &bias_size, false);
  double loss_size = 0;
  for (std::size_t i = 0; i < outputs; ++i) loss_size += y_size.value[i] * std::fabs(grad[i]);
  const double taps = double(3 * 3 * 2), positions = double(2 * s.out_height() * s.out_width());
  const double fd_margin = 2 * (taps + double(outputs) + 2) * test::kDoubleU * loss_size / (2 * h);
  const double input_terms = double(4 * 3 * 2), weight_terms = positions;
  for (std::size_t i = 0; i < input.size(); i += 7) {
    std::vector<float> x = input;
    const double fd = [&] {
      const float saved = x[i];
      x[i] = saved + float(h);
      const double up = loss(x, filters, bias);
      x[i] = saved - float(h);
      return (up - loss(x, filters, bias)) / (2 * h);
    }();
    CHECK(std::fabs(got_input[i] - fd) <= (input_terms + 1) * test::kFloatU * size.input[i] + fd_margin);
  }
  for (std::size_t i = 0; i < filters.size(); i += 5) {
    std::vector<float> w = filters;
    const float saved = w[i];
    w[i] = saved + float(h);
    const double up = loss(input, w, bias);
    w[i] = saved - float(h);
    CHECK(std::fabs(got_filters[i] - (up - loss(input, w, bias)) / (2 * h)) <=
          (weight_terms + 1) * test::kFloatU * size.filters[i] + fd_margin);
  }
  for (std::size_t f = 0; f < 4; ++f) {
    std::vector<float> b = bias;
    b[f] += float(h);
    const double up = loss(input, filters, b);
    b[f] -= float(2 * h);
    CHECK(std::fabs(got_bias[f] - (up - loss(input, filters, b)) / (2 * h)) <=
          weight_terms * test::kFloatU * size.bias[f] + fd_margin);
  }
}

TEST_CASE("convolution layers, backward: refusals", "[conv_layer]") {
  Context& ctx = test::cpu_context();
  const ConvLayerShape s = layer(2, 4, 5, 5, 6, 3, 3, 1, 1, 1, 1);
  Buffer<float> in(ctx, 2 * 4 * 25), w(ctx, 6 * 4 * 9), grad(ctx, 2 * 6 * 25), gi(ctx, 2 * 4 * 25), small(ctx, 3);
  ConvLayerOptions relu;
  relu.relu = true;
  CHECK_THROWS_WITH(conv_layer_backward(ctx, s, in, w, nullptr, grad, ConvLayerGradients{&gi, nullptr, nullptr}, relu),
                    Catch::Contains("forward output is needed"));
  CHECK_THROWS_WITH(conv_layer_backward(ctx, s, in, w, nullptr, grad, ConvLayerGradients{&small, nullptr, nullptr}),
                    Catch::Contains("input has 3 elements"));
  CHECK_THROWS_WITH(conv_layer_backward(ctx, s, in, w, nullptr, grad, ConvLayerGradients{&in, nullptr, nullptr}),
                    Catch::Contains("a gradient is written while it is used"));
  CHECK_THROWS_WITH(conv_layer_backward(ctx, s, in, w, nullptr, grad, ConvLayerGradients{nullptr, nullptr, &small}),
                    Catch::Contains("bias has 3 elements"));
}
