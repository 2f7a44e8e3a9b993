// SPDX-License-Identifier: Apache-2.0
// Softmax cross-entropy (kernels/ml_softmax_loss.cl): a work-item a sample;
// the per-sample losses come back and are summed in double on the host,
// where a bad label is named.
#include "portacl/ml.hpp"

#include <string>
#include <vector>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/ml/layer_kernels.hpp"
#include "kernels/planner.hpp"
#include "portacl/error.hpp"

namespace portacl {

namespace {

constexpr std::size_t kMaxExtent = 0xffffffffull;

KernelRef kernel(const char* entry) { return KernelRef{"ml_softmax_loss.cl", entry, ""}; }

void check_rows(const char* op, Context& ctx, std::size_t batch, std::size_t classes, const Buffer<float>& logits) {
  const std::string o(op);
  if (batch == 0 || classes == 0)
    throw Error(o + ": a size is 0 (batch " + std::to_string(batch) + ", classes " + std::to_string(classes) + ")");
  if (checked_product(batch, classes, o) > kMaxExtent) throw Error(o + ": logits past 2^32 - 1 floats");
  kernel_call::same_context(ctx, logits, op, "logits");
  kernel_call::need_elements(op, "logits", logits.size(), batch * classes,
                             std::to_string(batch) + " x " + std::to_string(classes));
}

cl_uint u32(std::size_t v) { return static_cast<cl_uint>(v); }

}  // namespace

LaunchPlan plan_softmax_loss(const Planner& planner, std::size_t batch, bool grad) {
  return softmax_loss_plan(planner.plan(softmax_loss_traits(), ProblemSize(batch)), grad);
}

double softmax_cross_entropy(Context& ctx, std::size_t batch, std::size_t classes, const Buffer<float>& logits,
                             const Buffer<int>& labels, Buffer<float>* grad, const PlanOptions& options) {
  const char* op = "softmax_cross_entropy";
  check_rows(op, ctx, batch, classes, logits);
  kernel_call::same_context(ctx, labels, op, "labels");
  kernel_call::need_elements(op, "labels", labels.size(), batch, "a label a sample");
  if (grad) {
    kernel_call::same_context(ctx, *grad, op, "grad_logits");
    kernel_call::need_elements(op, "grad_logits", grad->size(), batch * classes, "the logits' gradient");
    aliasing::refuse_overlap(op, aliasing::whole(*grad), "grad_logits", aliasing::whole(logits), "logits",
                             "the gradient is written while the logits are read");
  }
  const LaunchPlan plan = plan_softmax_loss(live_planner(ctx, options), batch, grad);
  auto held = ctx.hold_scratch();
  Buffer<float> losses(ctx, ctx.scratch("softmax.losses", batch * sizeof(float)), batch);
  const BufferStorage& grad_or_unused = grad ? static_cast<const BufferStorage&>(*grad) : losses;  // WRITE_GRAD 0
  kernel_call::launch(ctx, ctx.prepare(kernel("softmax_cross_entropy"), one_per_item(plan, batch)), u32(batch),
                      u32(classes), logits, labels, losses, grad_or_unused);
  const std::vector<float> each = losses.download();
  double sum = 0;
  for (std::size_t i = 0; i < batch; ++i) {
    if (each[i] < 0.0f) {
      const std::vector<int> given = labels.download();
      throw Error(std::string(op) + ": sample " + std::to_string(i) + " has label " + std::to_string(given[i]) +
                  ", outside 0 .. " + std::to_string(classes - 1));
    }
    sum += each[i];
  }
  return sum / double(batch);
}

LaunchPlan predict_classes(Context& ctx, std::size_t batch, std::size_t classes, const Buffer<float>& logits,
                           Buffer<int>& predicted, const PlanOptions& options) {
  const char* op = "predict_classes";
  check_rows(op, ctx, batch, classes, logits);
  kernel_call::same_context(ctx, predicted, op, "predicted");
  kernel_call::need_elements(op, "predicted", predicted.size(), batch, "a class a sample");
  aliasing::refuse_overlap(op, aliasing::whole(predicted), "predicted", aliasing::whole(logits), "logits",
                           "the classes are written while the logits are read");
  const LaunchPlan plan = ctx.plan(softmax_loss_traits(), ProblemSize(batch), options);
  kernel_call::launch(ctx, ctx.prepare(kernel("row_argmax"), one_per_item(plan, batch)), u32(batch), u32(classes),
                      logits, predicted);
  return plan;
}

}  // namespace portacl
