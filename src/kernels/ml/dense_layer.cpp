// SPDX-License-Identifier: Apache-2.0
// Fully connected layers (kernels/ml_dense_layer.cl): validate, then the
// products by portacl's GEMM and the bias, mask and column sums by the
// layer's own kernels, a work-item an element.
#include "portacl/ml.hpp"

#include <algorithm>
#include <string>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/ml/layer_kernels.hpp"
#include "kernels/planner.hpp"
#include "portacl/error.hpp"
#include "portacl/blas.hpp"

namespace portacl {

LaunchPlan plan_dense(const Planner& planner, std::size_t batch, std::size_t outputs, bool has_bias, bool relu) {
  return layer_output_plan(planner.plan(dense_layer_traits(), ProblemSize(batch * outputs)), has_bias, relu);
}

namespace {

constexpr std::size_t kMaxExtent = 0xffffffffull;  // counts are 32-bit in the kernels

KernelRef kernel(const char* entry) { return KernelRef{"ml_dense_layer.cl", entry, ""}; }

// The shape's sizes, the operands' contexts and lengths.
void check_dense(const char* op, Context& ctx, const DenseShape& s, const Buffer<float>& x,
                 const Buffer<float>& weights) {
  const std::string o(op);
  if (s.batch == 0 || s.inputs == 0 || s.outputs == 0)
    throw Error(o + ": a size is 0 (batch " + std::to_string(s.batch) + ", inputs " + std::to_string(s.inputs) +
                ", outputs " + std::to_string(s.outputs) + ")");
  const std::size_t xs = checked_product(s.batch, s.inputs, o), ws = checked_product(s.outputs, s.inputs, o);
  const std::size_t ys = checked_product(s.batch, s.outputs, o);
  if (std::max({xs, ws, ys}) > kMaxExtent) throw Error(o + ": a matrix past 2^32 - 1 floats");
  kernel_call::same_context(ctx, x, op, "x");
  kernel_call::same_context(ctx, weights, op, "weights");
  kernel_call::need_elements(op, "x", x.size(), xs, std::to_string(s.batch) + " x " + std::to_string(s.inputs));
  kernel_call::need_elements(op, "weights", weights.size(), ws,
                             std::to_string(s.outputs) + " x " + std::to_string(s.inputs));
}

// A buffer the call writes: its context, its length, and no memory shared
// with what the call reads.
void check_written(const char* op, Context& ctx, const Buffer<float>& out, const char* name, std::size_t need,
                   std::initializer_list<std::pair<const BufferStorage*, const char*>> read) {
  kernel_call::same_context(ctx, out, op, name);
  kernel_call::need_elements(op, name, out.size(), need, std::string("the ") + name);
  for (const auto& [other, other_name] : read)
    if (other)
      aliasing::refuse_overlap(op, aliasing::whole(out), name, aliasing::whole(*other), other_name,
                               "it is written while the other is read");
}

LaunchPlan plan_dense(Context& ctx, const DenseShape& s, const DenseOptions& o, bool has_bias) {
  return plan_dense(live_planner(ctx, o.plan), s.batch, s.outputs, has_bias, o.relu);
}

GemmOptions products(const DenseOptions& o) {
  GemmOptions g(o.plan);
  g.plan.override_values.reset();  // the layer's knobs are not the GEMM's
  return g;
}

cl_uint u32(std::size_t v) { return static_cast<cl_uint>(v); }

}  // namespace

LaunchPlan dense_forward(Context& ctx, const DenseShape& s, const Buffer<float>& x, const Buffer<float>& weights,
                         const Buffer<float>* bias, Buffer<float>& y, const DenseOptions& o) {
  const char* op = "dense_forward";
  check_dense(op, ctx, s, x, weights);
  if (bias) {
    kernel_call::same_context(ctx, *bias, op, "bias");
    kernel_call::need_elements(op, "bias", bias->size(), s.outputs, "a value an output");
  }
  check_written(op, ctx, y, "y", s.batch * s.outputs, {{&x, "x"}, {&weights, "weights"}, {bias, "bias"}});
  LaunchPlan plan = plan_dense(ctx, s, o, bias != nullptr);
  gemm<float>(ctx, Layout::row_major, Transpose::no, Transpose::yes, s.batch, s.outputs, s.inputs, 1.0f,
              MatrixRef<float>{x, 0, s.inputs}, MatrixRef<float>{weights, 0, s.inputs}, 0.0f, y, 0, s.outputs,
              products(o));
  if (bias || o.relu)
    kernel_call::launch(ctx, ctx.prepare(kernel("dense_bias"), one_per_item(plan, s.batch * s.outputs)), u32(s.batch),
                        u32(s.outputs), bias ? static_cast<const BufferStorage&>(*bias) : weights, y);
  return plan;
}

LaunchPlan dense_backward(Context& ctx, const DenseShape& s, const Buffer<float>& x, const Buffer<float>& weights,
                          const Buffer<float>* y, const Buffer<float>& grad_y, const DenseGradients& g,
                          const DenseOptions& o) {
  const char* op = "dense_backward";
  check_dense(op, ctx, s, x, weights);
  const std::size_t outs = s.batch * s.outputs;
  kernel_call::same_context(ctx, grad_y, op, "grad_y");
  kernel_call::need_elements(op, "grad_y", grad_y.size(), outs, "the output's gradient");
  if (o.relu && !y) throw Error("dense_backward: with relu, the forward output y is needed to mask the gradient");
  if (y) {
    kernel_call::same_context(ctx, *y, op, "y");
    kernel_call::need_elements(op, "y", y->size(), outs, "the forward output");
  }
  const std::initializer_list<std::pair<const BufferStorage*, const char*>> read{
      {&x, "x"}, {&weights, "weights"}, {&grad_y, "grad_y"}, {y, "y"}};
  if (g.input) check_written(op, ctx, *g.input, "input gradient", s.batch * s.inputs, read);
  if (g.weights) check_written(op, ctx, *g.weights, "weights gradient", s.outputs * s.inputs, read);
  if (g.bias) check_written(op, ctx, *g.bias, "bias gradient", s.outputs, read);
  if (g.input && g.weights)
    aliasing::refuse_overlap(op, aliasing::whole(*g.input), "input gradient", aliasing::whole(*g.weights),
                             "weights gradient", "both are written");
  LaunchPlan plan = plan_dense(ctx, s, o, false);
  auto held = ctx.hold_scratch();
  // The gradient through the ReLU, or the caller's as it is.
  std::optional<Buffer<float>> masked;
  if (o.relu) {
    masked.emplace(ctx, ctx.scratch("dense.masked", outs * sizeof(float)), outs);
    kernel_call::launch(ctx, ctx.prepare(kernel("dense_relu_mask"), one_per_item(plan, outs)), u32(outs), *y, grad_y,
                        *masked);
  }
  const Buffer<float>& dy = masked ? *masked : grad_y;
  if (g.bias)
    kernel_call::launch(ctx, ctx.prepare(kernel("dense_column_sums"), one_per_item(plan, s.outputs)), u32(s.batch),
                        u32(s.outputs), dy, *g.bias);
  if (g.weights)
    gemm<float>(ctx, Layout::row_major, Transpose::yes, Transpose::no, s.outputs, s.inputs, s.batch, 1.0f,
                MatrixRef<float>{dy, 0, s.outputs}, MatrixRef<float>{x, 0, s.inputs}, 0.0f, *g.weights, 0, s.inputs,
                products(o));
  if (g.input)
    gemm<float>(ctx, Layout::row_major, Transpose::no, Transpose::no, s.batch, s.inputs, s.outputs, 1.0f,
                MatrixRef<float>{dy, 0, s.outputs}, MatrixRef<float>{weights, 0, s.inputs}, 0.0f, *g.input, 0, s.inputs,
                products(o));
  return plan;
}

}  // namespace portacl
