// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "tuning/ml_pooling_reference.hpp"

using namespace portacl;

namespace {

PoolShape pool(std::size_t n, std::size_t c, std::size_t h, std::size_t w, std::size_t window_h, std::size_t window_w,
               std::size_t stride, std::size_t pad) {
  // In the order PoolShape declares its fields; strides and pads the same both ways.
  return {n, c, h, w, window_h, window_w, stride, stride, pad, pad};
}

// Forward and backward on fresh data into poisoned outputs, against the
// host reference (dyadic values: the maxima and the windows' sums are
// exact in float; a division by the taps rounds once).
void check_pool(Context& ctx, const PoolShape& s, const PoolOptions& o) {
  INFO(s.images << "x" << s.channels << "x" << s.height << "x" << s.width << ", window " << s.window_h << "x"
                << s.window_w << ", stride " << s.stride_h << ", pad " << s.pad_h
                << (o.kind == PoolKind::max ? ", max" : ", average") << (o.count_padding ? " counting padding" : "")
                << (o.layout == TensorLayout::nchw ? ", NCHW" : ", NHWC"));
  const std::size_t inputs = s.images * s.channels * s.height * s.width;
  const std::size_t outputs = s.images * s.channels * s.out_height() * s.out_width();
  // Few distinct values, so the maximum meets ties.
  const std::vector<float> input = test::random_dyadic<float>(inputs, 2, 2);
  Buffer<float> din(ctx, input), dout(ctx, std::vector<float>(outputs + 2, std::nanf("")));
  Buffer<int> argmax(ctx, std::vector<int>(outputs + 2, -7));
  pool_forward(ctx, s, din, dout, &argmax, o);
  const reference::PoolReference want = reference::pool_forward(s, o, input);
  const std::vector<float> got = dout.download();
  const std::vector<int> picks = argmax.download();
  std::string wrong;
  for (std::size_t i = 0; i < outputs && wrong.empty(); ++i)
    if (!(std::fabs(got[i] - want.output[i]) <= test::kDivisionU * test::kFloatU * std::fabs(want.output[i])) ||
        (o.kind == PoolKind::max && picks[i] != want.argmax[i]))
      wrong = "output " + std::to_string(i) + ": " + std::to_string(got[i]) + " at " + std::to_string(picks[i]) +
              ", want " + std::to_string(want.output[i]) + " at " + std::to_string(want.argmax[i]);
  CHECK(wrong == "");
  CHECK(std::isnan(got[outputs]));
  // Backward from a random gradient, into a poisoned input gradient.
  const std::vector<float> grad_out = test::random_dyadic<float>(outputs, 2, 4);
  Buffer<float> dgo(ctx, grad_out), dgi(ctx, std::vector<float>(inputs + 2, std::nanf("")));
  pool_backward(ctx, s, dgo, dgi, &argmax, o);
  const std::vector<double> want_in = reference::pool_backward(s, o, grad_out, picks);
  // Each input's gradient adds the shares g / taps of the windows over it
  // (at most `windows`), each share a division, then the adds: per input,
  // the sum of the shares' magnitudes (the same scatter of |g|) times
  // those roundings.
  std::vector<float> magnitudes(outputs);
  for (std::size_t i = 0; i < outputs; ++i) magnitudes[i] = std::fabs(grad_out[i]);
  const std::vector<double> share_sum = reference::pool_backward(s, o, magnitudes, picks);
  const double windows =
      double(((s.window_h + s.stride_h - 1) / s.stride_h) * ((s.window_w + s.stride_w - 1) / s.stride_w));
  const double roundings = (test::kDivisionU + windows) * test::kFloatU;
  const std::vector<float> got_in = dgi.download();
  for (std::size_t i = 0; i < inputs && wrong.empty(); ++i)
    if (!(std::fabs(got_in[i] - want_in[i]) <= roundings * share_sum[i]))
      wrong = "input gradient " + std::to_string(i) + ": " + std::to_string(got_in[i]) + ", want " +
              std::to_string(want_in[i]);
  CHECK(wrong == "");
  CHECK(std::isnan(got_in[inputs]));
  // The margins see the largest input gradient off by one part in 10^4.
  if (inputs > 0) {
    std::size_t largest = 0;
    for (std::size_t i = 1; i < inputs; ++i)
      if (std::fabs(want_in[i]) > std::fabs(want_in[largest])) largest = i;
    if (want_in[largest] != 0)
      CHECK_FALSE(std::fabs(want_in[largest] * (1 + 1e-4) - want_in[largest]) <= roundings * share_sum[largest]);
  }
  // The backward pass is the forward's adjoint: <pool(x), g> = <x, pool'(g)>,
  // both sides added in double from the device's floats, each within the
  // margins above.
  // (The double sums' own rounding: a count of adds of the magnitudes.)
  double left = 0, right = 0, margin = 0, magnitude = 0;
  for (std::size_t i = 0; i < outputs; ++i) {
    left += double(got[i]) * grad_out[i];
    magnitude += std::fabs(double(got[i]) * grad_out[i]);
    margin += test::kDivisionU * test::kFloatU * std::fabs(double(got[i]) * grad_out[i]);
  }
  for (std::size_t i = 0; i < inputs; ++i) {
    right += double(input[i]) * got_in[i];
    magnitude += std::fabs(double(input[i]) * got_in[i]);
    margin += roundings * std::fabs(double(input[i])) * share_sum[i];
  }
  margin += double(outputs + inputs) * std::numeric_limits<double>::epsilon() * magnitude;
  CHECK(std::fabs(left - right) <= margin);
}

const std::vector<PoolShape>& shapes() {
  static const std::vector<PoolShape> list{pool(1, 1, 1, 1, 1, 1, 1, 0),   pool(2, 3, 8, 8, 2, 2, 2, 0),
                                           pool(2, 3, 7, 9, 3, 3, 2, 1),   pool(3, 2, 6, 5, 3, 2, 1, 1),
                                           pool(1, 5, 13, 13, 3, 3, 2, 0), pool(2, 4, 5, 7, 5, 7, 1, 0),
                                           pool(1, 3, 9, 4, 2, 3, 3, 1)};
  return list;
}

}  // namespace

TEST_CASE("pooling forward and backward equal the host windows: max and average, both layouts, odd shapes",
          "[pooling]") {
  Context& ctx = test::cpu_context();
  for (const PoolShape& s : shapes())
    for (PoolKind kind : {PoolKind::max, PoolKind::average})
      for (TensorLayout layout : {TensorLayout::nchw, TensorLayout::nhwc})
        for (bool count_padding : {false, true}) {
          if (kind == PoolKind::max && count_padding) continue;
          PoolOptions o;
          o.kind = kind;
          o.layout = layout;
          o.count_padding = count_padding;
          check_pool(ctx, s, o);
        }
}

TEST_CASE("pooling runs right under every device class's plan", "[pooling]") {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(ElementType::f32)) {
    INFO(f);
    for (PoolKind kind : {PoolKind::max, PoolKind::average}) {
      PoolOptions o;
      o.kind = kind;
      o.plan = opt;
      check_pool(ctx, pool(3, 5, 11, 10, 3, 3, 2, 1), o);
    }
  }
}

TEST_CASE("max pooling keeps the first of equal values; without argmax it still pools", "[pooling]") {
  Context& ctx = test::cpu_context();
  // One 2 x 3 window over 2 x 3 values with the maximum twice.
  Buffer<float> in(ctx, std::vector<float>{1, 4, 2, 4, 0, 3}), out(ctx, 1);
  Buffer<int> argmax(ctx, 1);
  pool_forward(ctx, pool(1, 1, 2, 3, 2, 3, 1, 0), in, out, &argmax);
  CHECK(out.download() == std::vector<float>{4});
  CHECK(argmax.download() == std::vector<int>{1});
  Buffer<float> alone(ctx, 1);
  pool_forward(ctx, pool(1, 1, 2, 3, 2, 3, 1, 0), in, alone, nullptr);
  CHECK(alone.download() == std::vector<float>{4});
}

TEST_CASE("pooling refuses what it cannot compute, naming the problem", "[pooling]") {
  Context& ctx = test::cpu_context();
  Buffer<float> in(ctx, 2 * 3 * 8 * 8), out(ctx, 2 * 3 * 4 * 4);
  Buffer<int> argmax(ctx, 2 * 3 * 4 * 4);
  const PoolShape ok = pool(2, 3, 8, 8, 2, 2, 2, 0);
  PoolShape s = ok;
  s.pad_h = 2;
  CHECK_THROWS_WITH(pool_forward(ctx, s, in, out, &argmax), Catch::Contains("smaller than the window"));
  s = ok;
  s.window_w = 11;
  s.pad_w = 1;
  CHECK_THROWS_WITH(pool_forward(ctx, s, in, out, &argmax), Catch::Contains("larger than the padded image"));
  s = ok;
  s.stride_h = 0;
  CHECK_THROWS_WITH(pool_forward(ctx, s, in, out, &argmax), Catch::Contains("at least 1"));
  s = ok;
  s.channels = 4;
  CHECK_THROWS_WITH(pool_forward(ctx, s, in, out, &argmax), Catch::Contains("input has 384 elements"));
  Buffer<int> short_argmax(ctx, 5);
  CHECK_THROWS_WITH(pool_forward(ctx, ok, in, out, &short_argmax), Catch::Contains("argmax has 5 elements"));
  CHECK_THROWS_WITH(pool_backward(ctx, ok, out, in, nullptr), Catch::Contains("needs the argmax"));
  CHECK_THROWS_WITH(pool_forward(ctx, ok, in, in, &argmax), Catch::Contains("output"));
  Context& other = test::another_context();
  Buffer<float> foreign(other, 384);
  CHECK_THROWS_WITH(pool_forward(ctx, ok, foreign, out, &argmax), Catch::Contains("another context"));
}
