// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "portacl/blas.hpp"
#include "portacl/ml.hpp"
#include "test_support.hpp"
#include "tuning/ml_conv_layer_reference.hpp"
#include "tuning/ml_training_reference.hpp"

using namespace portacl;

namespace {

std::vector<float> signs_of(const std::vector<float>& v) {
  std::vector<float> s(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) s[i] = v[i] < 0.0f ? -1.0f : 1.0f;
  return s;
}

// Values of both signs with exact zeros among them (zeros count as +1).
std::vector<float> mixed(std::size_t n) {
  std::vector<float> v = test::random_vector<float>(n);
  for (std::size_t i = 0; i < n; i += 7) v[i] = 0.0f;
  return v;
}

// The reference scaled: scale_k x (the product of the signs) + bias_k, then
// the ReLU, each output within one float rounding of the product and one
// of the sum (the product of signs, an integer below 2^24, is exact).
std::string compare_scaled(const std::vector<float>& got, const std::vector<double>& products,
                           const std::vector<float>& scales, const std::vector<float>& bias, std::size_t outputs,
                           bool relu) {
  for (std::size_t i = 0; i < products.size(); ++i) {
    const std::size_t k = i % outputs;
    const double scaled = products[i] * (scales.empty() ? 1.0 : scales[k]);
    double want = scaled + (bias.empty() ? 0.0 : bias[k]);
    if (relu) want = std::max(want, 0.0);
    const double margin = test::kFloatU * (2 * std::fabs(scaled) + (bias.empty() ? 0.0 : std::fabs(bias[k])));
    if (!(std::fabs(got[i] - want) <= margin))
      return "output " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " + std::to_string(want);
  }
  return "";
}

}  // namespace

TEST_CASE("binarised dense layers: the sign product exactly, then scales, bias and ReLU, every class plan",
          "[binary_layers]") {
  Context& ctx = test::cpu_context();
  const std::vector<test::ClassPlan> plans = test::rules_and_class_plans(ElementType::f32);
  for (const auto& [plan_name, plan] : plans)
    for (const DenseShape s : {DenseShape{1, 1, 1}, DenseShape{5, 31, 3}, DenseShape{9, 33, 17}, DenseShape{4, 130, 6}})
      for (bool scaled : {false, true})
        for (bool relu : {false, true}) {
          if (plan_name != "rules" && (s.inputs != 33 || !scaled || !relu)) continue;  // one case a class
          INFO(plan_name << ": " << s.batch << " x " << s.inputs << " -> " << s.outputs << (scaled ? ", scaled" : "")
                         << (relu ? ", ReLU" : ""));
          const std::vector<float> x = mixed(s.batch * s.inputs), w = mixed(s.outputs * s.inputs);
          const std::vector<float> bias = test::random_vector<float>(s.outputs);
          Buffer<float> dx(ctx, x), dw(ctx, w), db(ctx, bias),
              scales(ctx, std::vector<float>(s.outputs, std::nanf("")));
          Buffer<std::uint32_t> packed(ctx, s.outputs * packed_words(s.inputs));
          binarise_weights(ctx, dw, s.outputs, s.inputs, packed, scaled ? &scales : nullptr, plan);
          Buffer<float> y(ctx, std::vector<float>(s.batch * s.outputs + 1, std::nanf("")));
          BinaryLayerOptions o;
          o.relu = relu;
          o.plan = plan;
          binary_dense_forward(ctx, s, dx, packed, scaled ? &scales : nullptr, &db, y, o);
          const std::vector<float> got = y.download();
          CHECK(std::isnan(got.back()));
          // The signs' product in double (exact: integers), the scales each row's mean |w|.
          const std::vector<double> products =
              reference::dense_forward<float, float>(s, signs_of(x), signs_of(w), nullptr, false);
          std::vector<float> want_scales;
          if (scaled) {
            const std::vector<float> got_scales = scales.download();
            for (std::size_t k = 0; k < s.outputs; ++k) {
              double mean = 0;
              for (std::size_t i = 0; i < s.inputs; ++i) mean += std::fabs(w[k * s.inputs + i]);
              mean /= double(s.inputs);
              // A float sum of the inputs' |w| in turn, then a division.
              INFO("row " << k << " of " << s.inputs);
              CHECK(std::fabs(got_scales[k] - mean) <=
                    (double(s.inputs) - 1 + test::kDivisionU) * test::kFloatU * mean);
              want_scales.push_back(got_scales[k]);
            }
          }
          CHECK(compare_scaled(got, products, want_scales, bias, s.outputs, relu) == "");
        }
}

TEST_CASE("binarised convolution layers: the sign product with +1 padding exactly, both layouts, groups",
          "[binary_layers]") {
  Context& ctx = test::cpu_context();
  const std::vector<std::tuple<std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, std::size_t,
                               std::size_t>>
      shapes{// images, channels, side, filters, filter side, stride, groups
             {1, 1, 5, 1, 3, 1, 1},
             {2, 5, 7, 6, 3, 2, 1},
             {3, 4, 6, 6, 3, 1, 2},
             {2, 40, 5, 3, 1, 1, 1}};
  for (const auto& [n, c, side, f, r, stride, groups] : shapes)
    for (TensorLayout layout : {TensorLayout::nchw, TensorLayout::nhwc}) {
      ConvLayerShape s;
      s.images = n;
      s.channels = c;
      s.height = side;
      s.width = side + 1;
      s.filters = f;
      s.filter_height = s.filter_width = r;
      s.stride_h = s.stride_w = stride;
      s.pad_h = s.pad_w = r / 2;
      s.groups = groups;
      INFO(n << "x" << c << "x" << side << " * " << f << " " << r << "x" << r << ", stride " << stride << ", groups "
             << groups << (layout == TensorLayout::nchw ? ", NCHW" : ", NHWC"));
      const std::size_t taps = c / groups * r * r;
      const std::vector<float> input = mixed(n * c * s.height * s.width), filters = mixed(f * taps);
      const std::vector<float> bias = test::random_vector<float>(f);
      Buffer<float> din(ctx, input), dw(ctx, filters), db(ctx, bias), scales(ctx, f);
      Buffer<std::uint32_t> packed(ctx, f * packed_words(taps));
      binarise_weights(ctx, dw, f, taps, packed, &scales);
      const std::size_t outputs = n * f * s.out_height() * s.out_width();
      Buffer<float> out(ctx, std::vector<float>(outputs, std::nanf("")));
      BinaryLayerOptions o;
      o.layout = layout;
      o.relu = groups == 2;
      binary_conv_forward(ctx, s, din, packed, &scales, &db, out, o);
      // The reference: the signs, padded with +1 explicitly, through the
      // seven loops with no padding.
      ConvLayerShape padded = s;
      padded.height = s.height + 2 * s.pad_h;
      padded.width = s.width + 2 * s.pad_w;
      padded.pad_h = padded.pad_w = 0;
      std::vector<float> signs(n * c * padded.height * padded.width, 1.0f);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t ch = 0; ch < c; ++ch)
          for (std::size_t y = 0; y < s.height; ++y)
            for (std::size_t x = 0; x < s.width; ++x)
              signs[reference::tensor_index(layout, c, padded.height, padded.width, i, ch, y + s.pad_h, x + s.pad_w)] =
                  input[reference::tensor_index(layout, c, s.height, s.width, i, ch, y, x)] < 0.0f ? -1.0f : 1.0f;
      const reference::ConvReference products =
          reference::conv_layer(padded, layout, signs, signs_of(filters), nullptr, false);
      // Every output is the exact product times its filter's scale, plus its bias.
      const std::vector<float> got = out.download(), got_scales = scales.download();
      const std::size_t p = s.out_height(), q = s.out_width();
      bool all = true;
      for (std::size_t i = 0; i < n && all; ++i)
        for (std::size_t k = 0; k < f && all; ++k)
          for (std::size_t y = 0; y < p && all; ++y)
            for (std::size_t x = 0; x < q && all; ++x) {
              const std::size_t at = reference::tensor_index(layout, f, p, q, i, k, y, x);
              const double scaled = products.value[at] * got_scales[k];
              const double want = o.relu ? std::max(scaled + bias[k], 0.0) : scaled + bias[k];
              all = std::fabs(got[at] - want) <= test::kFloatU * (2 * std::fabs(scaled) + std::fabs(bias[k]));
              if (!all)
                FAIL_CHECK("output (" << i << ", " << k << ", " << y << ", " << x << "): " << got[at] << ", want "
                                      << want);
            }
      CHECK(all);
    }
}

TEST_CASE("binarised layers refuse what they cannot compute, naming the problem", "[binary_layers]") {
  Context& ctx = test::cpu_context();
  Buffer<float> x(ctx, 6), y(ctx, 4), short_scales(ctx, 1);
  Buffer<std::uint32_t> packed(ctx, 1);
  CHECK_THROWS_WITH(binary_dense_forward(ctx, DenseShape{2, 3, 2}, x, packed, nullptr, nullptr, y),
                    Catch::Contains("packed weights has 1 elements"));
  Buffer<std::uint32_t> packed2(ctx, 2);
  CHECK_THROWS_WITH(binary_dense_forward(ctx, DenseShape{2, 3, 2}, x, packed2, &short_scales, nullptr, y),
                    Catch::Contains("scales has 1 elements"));
  CHECK_THROWS_WITH(binary_dense_forward(ctx, DenseShape{2, 3, 2}, x, packed2, nullptr, nullptr, x),
                    Catch::Contains("y is written while x is read"));
  ConvLayerShape s;
  s.channels = 2;
  s.groups = 3;
  Buffer<float> in(ctx, 2), out(ctx, 1);
  CHECK_THROWS_WITH(binary_conv_forward(ctx, s, in, packed2, nullptr, nullptr, out), Catch::Contains("groups 3"));
}
