// SPDX-License-Identifier: Apache-2.0
// Binarised layers (kernels/ml_binary_layers.cl): the signs packed by
// pack_signs, the products by binary_gemm, then scaled into floats; the
// dense layer's bias and ReLU by its own kernel, the convolution's (and
// its layout) by the convolution's epilogue.
#include "portacl/ml.hpp"

#include <algorithm>
#include <string>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/ml/conv_layer_tunables.hpp"
#include "kernels/ml/layer_kernels.hpp"
#include "kernels/ml/tensor_strides.hpp"
#include "portacl/error.hpp"
#include "portacl/blas.hpp"

namespace portacl {

namespace {

cl_uint u32(std::size_t v) { return static_cast<cl_uint>(v); }

// The scales and bias: each `count` floats of ctx, none written here.
void check_per_output(const char* op, Context& ctx, const Buffer<float>* scales, const Buffer<float>* bias,
                      std::size_t count, const Buffer<float>& out) {
  for (const auto& [b, name] : {std::pair{scales, "scales"}, std::pair{bias, "bias"}}) {
    if (!b) continue;
    kernel_call::same_context(ctx, *b, op, name);
    kernel_call::need_elements(op, name, b->size(), count, "a value an output");
    aliasing::refuse_overlap(op, aliasing::whole(out), "output", aliasing::whole(*b), name,
                             "the output is written while it is read");
  }
}

void check_packed(const char* op, Context& ctx, const Buffer<std::uint32_t>& packed, std::size_t rows, std::size_t k) {
  kernel_call::same_context(ctx, packed, op, "packed weights");
  kernel_call::need_elements(op, "packed weights", packed.size(), checked_product(rows, packed_words(k), op),
                             std::to_string(rows) + " rows of " + std::to_string(packed_words(k)) + " words");
}

// c (ints) times the scales from `scale_offset`, into `out` (floats).
void scale_products(Context& ctx, const LaunchPlan& like, std::size_t rows, std::size_t cols, const Buffer<int>& c,
                    const Buffer<float>* scales, std::size_t scale_offset, Buffer<float>& out) {
  const LaunchPlan plan = binary_scale_plan(like, rows * cols, scales != nullptr);
  const BufferStorage& scale_or_unused = scales ? static_cast<const BufferStorage&>(*scales) : out;
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"ml_binary_layers.cl", "binary_scale", ""}, plan), u32(rows),
                      u32(cols), u32(cols), u32(scale_offset), c, scale_or_unused, out);
}

}  // namespace

LaunchPlan binarise_weights(Context& ctx, const Buffer<float>& weights, std::size_t rows, std::size_t k,
                            Buffer<std::uint32_t>& packed, Buffer<float>* scales, const PlanOptions& options) {
  const char* op = "binarise_weights";
  PackOptions pack;
  pack.plan = options;
  const LaunchPlan plan = pack_signs(ctx, weights, rows, k, packed, pack);  // checks the weights and the words
  if (!scales) return plan;
  kernel_call::same_context(ctx, *scales, op, "scales");
  kernel_call::need_elements(op, "scales", scales->size(), rows, "a scale a row");
  aliasing::refuse_overlap(op, aliasing::whole(*scales), "scales", aliasing::whole(weights), "weights",
                           "the scales are written while the weights are read");
  if (k > 0xffffffffull || rows > 0xffffffffull) throw Error("binarise_weights: past 2^32 - 1 rows or weights a row");
  const LaunchPlan means = ctx.plan(binary_layer_traits(), ProblemSize(std::max<std::size_t>(rows, 1)), options);
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"ml_binary_layers.cl", "row_mean_abs", ""}, one_per_item(means, rows)),
                      u32(rows), u32(k), weights, *scales);
  return plan;
}

LaunchPlan binary_dense_forward(Context& ctx, const DenseShape& s, const Buffer<float>& x,
                                const Buffer<std::uint32_t>& packed_weights, const Buffer<float>* scales,
                                const Buffer<float>* bias, Buffer<float>& y, const BinaryLayerOptions& o) {
  const char* op = "binary_dense_forward";
  if (s.batch == 0 || s.inputs == 0 || s.outputs == 0)
    throw Error(std::string(op) + ": a size is 0 (batch " + std::to_string(s.batch) + ", inputs " +
                std::to_string(s.inputs) + ", outputs " + std::to_string(s.outputs) + ")");
  kernel_call::same_context(ctx, x, op, "x");
  kernel_call::same_context(ctx, y, op, "y");
  kernel_call::need_elements(op, "x", x.size(), checked_product(s.batch, s.inputs, op),
                             std::to_string(s.batch) + " x " + std::to_string(s.inputs));
  kernel_call::need_elements(op, "y", y.size(), checked_product(s.batch, s.outputs, op),
                             std::to_string(s.batch) + " x " + std::to_string(s.outputs));
  if (s.batch * s.outputs > 0xffffffffull) throw Error(std::string(op) + ": y past 2^32 - 1 floats");
  check_packed(op, ctx, packed_weights, s.outputs, s.inputs);
  check_per_output(op, ctx, scales, bias, s.outputs, y);
  aliasing::refuse_overlap(op, aliasing::whole(y), "y", aliasing::whole(x), "x", "y is written while x is read");
  const LaunchPlan plan =
      layer_output_plan(ctx.plan(binary_layer_traits(), ProblemSize(s.batch * s.outputs), o.plan), bias, o.relu);
  auto held = ctx.hold_scratch();
  const std::size_t words = packed_words(s.inputs);
  Buffer<std::uint32_t> packed_x(ctx, ctx.scratch("binary.signs", s.batch * words * 4), s.batch * words);
  Buffer<int> product(ctx, ctx.scratch("binary.product", s.batch * s.outputs * 4), s.batch * s.outputs);
  PackOptions pack;
  pack.plan = o.plan;
  pack.plan.override_values.reset();  // the layer's knobs are not the packing's
  pack_signs(ctx, x, s.batch, s.inputs, packed_x, pack);
  binary_gemm(ctx, s.batch, s.outputs, s.inputs, packed_x, packed_weights, product, s.outputs, pack.plan);
  scale_products(ctx, plan, s.batch, s.outputs, product, scales, 0, y);
  if (bias || o.relu)
    kernel_call::launch(
        ctx, ctx.prepare(KernelRef{"ml_dense_layer.cl", "dense_bias", ""}, one_per_item(plan, s.batch * s.outputs)),
        u32(s.batch), u32(s.outputs), bias ? static_cast<const BufferStorage&>(*bias) : y, y);
  return plan;
}

LaunchPlan binary_conv_forward(Context& ctx, const ConvLayerShape& s, const Buffer<float>& input,
                               const Buffer<std::uint32_t>& packed_filters, const Buffer<float>* scales,
                               const Buffer<float>* bias, Buffer<float>& output, const BinaryLayerOptions& o) {
  const char* op = "binary_conv_forward";
  check_conv_shape(op, s);
  const std::size_t positions = s.out_height() * s.out_width(), fg = s.filters / s.groups;
  const std::size_t taps = s.channels / s.groups * s.filter_height * s.filter_width, words = packed_words(taps);
  kernel_call::same_context(ctx, input, op, "input");
  kernel_call::same_context(ctx, output, op, "output");
  kernel_call::need_elements(op, "input", input.size(), s.images * s.channels * s.height * s.width, "the input tensor");
  kernel_call::need_elements(op, "output", output.size(), s.images * s.filters * positions, "the output tensor");
  check_packed(op, ctx, packed_filters, s.filters, taps);
  check_per_output(op, ctx, scales, bias, s.filters, output);
  aliasing::refuse_overlap(op, aliasing::whole(output), "output", aliasing::whole(input), "input",
                           "the output is written while the input is read");
  ConvLayerOptions unrolled;
  unrolled.layout = o.layout;
  unrolled.algorithm = ConvAlgorithm::im2col_gemm;
  unrolled.relu = o.relu;
  unrolled.plan = o.plan;
  const ConvLaunch l = plan_conv_layer(live_planner(ctx, o.plan), s, unrolled, bias != nullptr);
  const TensorStrides in = tensor_strides(o.layout, s.channels, s.height, s.width);
  const TensorStrides out = tensor_strides(o.layout, s.filters, s.out_height(), s.out_width());
  const std::size_t chunk = l.choice.chunk, most_rows = chunk * positions;
  auto held = ctx.hold_scratch();
  Buffer<float> cols(ctx, ctx.scratch("conv.cols", most_rows * taps * 4), most_rows * taps);
  Buffer<std::uint32_t> signs(ctx, ctx.scratch("binary.signs", most_rows * words * 4), most_rows * words);
  Buffer<int> product(ctx, ctx.scratch("binary.product", most_rows * fg * 4), most_rows * fg);
  Buffer<float> scaled(ctx, ctx.scratch("conv.product", most_rows * fg * 4), most_rows * fg);
  Buffer<std::uint32_t> group_filters(ctx, ctx.scratch("binary.filters", fg * words * 4), fg * words);
  PlanOptions inner = o.plan;
  inner.override_values.reset();  // the layer's knobs are not the packing's or the product's
  PackOptions pack;
  pack.plan = inner;
  const BufferStorage& bias_or_unused = bias ? static_cast<const BufferStorage&>(*bias) : input;  // HAS_BIAS 0
  for (std::size_t g = 0; g < s.groups; ++g) {
    // A group's packed filters on their own (the binary GEMM takes whole buffers), once a group.
    const Buffer<std::uint32_t>* filters = &packed_filters;
    if (s.groups > 1) {
      check_cl(ctx.queue().enqueueCopyBuffer(packed_filters.cl_buffer(), group_filters.cl_buffer(), g * fg * words * 4,
                                             0, fg * words * 4),
               "clEnqueueCopyBuffer(a group's packed filters)");
      filters = &group_filters;
    }
    for (std::size_t first = 0; first < s.images; first += chunk) {
      const std::size_t count = std::min(chunk, s.images - first), rows = count * positions;
      kernel_call::launch(
          ctx, ctx.prepare(KernelRef{"ml_conv_layer.cl", "conv_im2col", ""}, one_per_item(l.plan, rows * taps)),
          u32(first), u32(count), u32(g), u32(s.height), u32(s.width), u32(s.out_height()), u32(s.out_width()), in.n,
          in.c, in.y, in.x, input, cols);
      pack_signs(ctx, cols, rows, taps, signs, pack);
      binary_gemm(ctx, rows, fg, taps, signs, *filters, product, fg, inner);
      scale_products(ctx, l.plan, rows, fg, product, scales, g * fg, scaled);
      kernel_call::launch(
          ctx, ctx.prepare(KernelRef{"ml_conv_layer.cl", "conv_epilogue", ""}, one_per_item(l.plan, rows * fg)),
          u32(first), u32(count), u32(g), u32(s.out_height()), u32(s.out_width()), out.n, out.c, out.y, out.x, scaled,
          bias_or_unused, output);
    }
  }
  return l.plan;
}

}  // namespace portacl
