// SPDX-License-Identifier: Apache-2.0
// Pooling layers (kernels/ml_pooling.cl): validate, plan (a work-item an
// element, the planner's rules), launch.
#include "portacl/ml.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/ml/layer_kernels.hpp"
#include "kernels/planner.hpp"
#include "kernels/ml/tensor_strides.hpp"
#include "portacl/error.hpp"
#include "portacl/plan.hpp"

namespace portacl {

std::size_t PoolShape::out_height() const {
  const std::size_t padded = height + 2 * pad_h;
  return padded < window_h || stride_h == 0 ? 0 : (padded - window_h) / stride_h + 1;
}
std::size_t PoolShape::out_width() const {
  const std::size_t padded = width + 2 * pad_w;
  return padded < window_w || stride_w == 0 ? 0 : (padded - window_w) / stride_w + 1;
}

namespace {

constexpr std::size_t kMaxExtent = 0xffffffffull;

void check_shape(const char* op, const PoolShape& s) {
  const std::string o(op);
  if (s.images == 0 || s.channels == 0 || s.height == 0 || s.width == 0 || s.window_h == 0 || s.window_w == 0)
    throw Error(o + ": a size is 0 (images " + std::to_string(s.images) + ", channels " + std::to_string(s.channels) +
                ", " + std::to_string(s.height) + " x " + std::to_string(s.width) + ", window " +
                std::to_string(s.window_h) + " x " + std::to_string(s.window_w) + ")");
  if (s.stride_h == 0 || s.stride_w == 0) throw Error(o + ": strides must be at least 1");
  if (s.pad_h >= s.window_h || s.pad_w >= s.window_w)
    throw Error(o + ": padding " + std::to_string(s.pad_h) + " x " + std::to_string(s.pad_w) +
                " must be smaller than the window " + std::to_string(s.window_h) + " x " + std::to_string(s.window_w) +
                " (a window of padding alone has nothing to pool)");
  if (s.out_height() == 0 || s.out_width() == 0)
    throw Error(o + ": the window " + std::to_string(s.window_h) + " x " + std::to_string(s.window_w) +
                " is larger than the padded image " + std::to_string(s.height + 2 * s.pad_h) + " x " +
                std::to_string(s.width + 2 * s.pad_w));
  const std::size_t image = checked_product(checked_product(s.channels, s.height, o), s.width, o);
  if (image > kMaxExtent || s.images > kMaxExtent) throw Error(o + ": an image past 2^32 - 1 floats");
}

struct PoolCounts {
  std::size_t inputs, outputs;
};

// What both passes check: the shape, and a tensor of the input's size and
// one of the output's, in ctx and long enough.
PoolCounts check_tensors(const char* op, Context& ctx, const PoolShape& s, const Buffer<float>& input_sized,
                         const char* input_name, const Buffer<float>& output_sized, const char* output_name) {
  kernel_call::same_context(ctx, input_sized, op, input_name);
  kernel_call::same_context(ctx, output_sized, op, output_name);
  check_shape(op, s);
  const PoolCounts n{s.images * s.channels * s.height * s.width,
                     s.images * s.channels * s.out_height() * s.out_width()};
  kernel_call::need_elements(op, input_name, input_sized.size(), n.inputs, "the input tensor");
  kernel_call::need_elements(op, output_name, output_sized.size(), n.outputs, "the output tensor");
  return n;
}

// The plan and the launch both passes share: the element counts, the two
// sides' strides, the kernel's macros.
void launch(Context& ctx, const char* entry, const PoolShape& s, const PoolOptions& o, std::size_t items,
            const BufferStorage& from, const BufferStorage& to, const BufferStorage& argmax, const LaunchPlan& plan) {
  const TensorStrides in = tensor_strides(o.layout, s.channels, s.height, s.width);
  const TensorStrides out = tensor_strides(o.layout, s.channels, s.out_height(), s.out_width());
  const auto u = [](std::size_t v) { return static_cast<cl_uint>(v); };
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"ml_pooling.cl", entry, ""}, one_per_item(plan, items)), u(s.images),
                      u(s.channels), u(s.height), u(s.width), u(s.out_height()), u(s.out_width()), in.n, in.c, in.y,
                      in.x, out.n, out.c, out.y, out.x, from, to, argmax);
}

}  // namespace

LaunchPlan plan_pooling(const Planner& planner, const PoolShape& s, const PoolOptions& o, std::size_t items) {
  const PoolWindow w{
      o.kind == PoolKind::max, o.count_padding, s.window_h, s.window_w, s.stride_h, s.stride_w, s.pad_h, s.pad_w};
  return pooling_plan(planner.plan(pooling_traits(), ProblemSize(std::max<std::size_t>(items, 1))), w);
}

LaunchPlan pool_forward(Context& ctx, const PoolShape& s, const Buffer<float>& input, Buffer<float>& output,
                        Buffer<int>* argmax, const PoolOptions& o) {
  const char* op = "pool_forward";
  if (argmax) kernel_call::same_context(ctx, *argmax, op, "argmax");
  const std::size_t outputs = check_tensors(op, ctx, s, input, "input", output, "output").outputs;
  aliasing::refuse_overlap(op, aliasing::whole(output), "output", aliasing::whole(input), "input",
                           "the output is written while the input is read");
  // The maximum records its picks; without a place for them, scratch takes them.
  const bool record = o.kind == PoolKind::max;
  if (record && argmax) {
    kernel_call::need_elements(op, "argmax", argmax->size(), outputs, "a place a maximum");
    aliasing::refuse_overlap(op, aliasing::whole(*argmax), "argmax", aliasing::whole(input), "input",
                             "the picks are written while the input is read");
    aliasing::refuse_overlap(op, aliasing::whole(*argmax), "argmax", aliasing::whole(output), "output",
                             "both are written");
  }
  const LaunchPlan plan = plan_pooling(live_planner(ctx, o.plan), s, o, outputs);
  auto held = ctx.hold_scratch();
  // Where the maximum's picks go: the caller's argmax, else scratch; the
  // average writes none (the argument is then unused).
  std::optional<Buffer<int>> scratch_picks;
  if (record && !argmax) scratch_picks.emplace(ctx, ctx.scratch("pool.argmax", outputs * sizeof(cl_int)), outputs);
  const BufferStorage& picks = !record ? static_cast<const BufferStorage&>(output)
                                       : (argmax ? static_cast<const BufferStorage&>(*argmax) : *scratch_picks);
  launch(ctx, "pool_forward", s, o, outputs, input, output, picks, plan);
  return plan;
}

LaunchPlan pool_backward(Context& ctx, const PoolShape& s, const Buffer<float>& grad_output, Buffer<float>& grad_input,
                         const Buffer<int>* argmax, const PoolOptions& o) {
  const char* op = "pool_backward";
  const PoolCounts n = check_tensors(op, ctx, s, grad_input, "grad_input", grad_output, "grad_output");
  const std::size_t inputs = n.inputs, outputs = n.outputs;
  aliasing::refuse_overlap(op, aliasing::whole(grad_input), "grad_input", aliasing::whole(grad_output), "grad_output",
                           "the input's gradient is written while the output's is read");
  if (o.kind == PoolKind::max) {
    if (!argmax) throw Error("pool_backward: the maximum's gradient needs the argmax its forward pass recorded");
    kernel_call::same_context(ctx, *argmax, op, "argmax");
    kernel_call::need_elements(op, "argmax", argmax->size(), outputs, "a place a maximum");
    aliasing::refuse_overlap(op, aliasing::whole(grad_input), "grad_input", aliasing::whole(*argmax), "argmax",
                             "the input's gradient is written while the picks are read");
  }
  const LaunchPlan plan = plan_pooling(live_planner(ctx, o.plan), s, o, inputs);
  const BufferStorage& picks = argmax ? static_cast<const BufferStorage&>(*argmax) : grad_output;  // MAX 0: unread
  launch(ctx, "pool_backward", s, o, inputs, grad_output, grad_input, picks, plan);
  return plan;
}

}  // namespace portacl
