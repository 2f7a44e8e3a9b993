// SPDX-License-Identifier: Apache-2.0
// SGD with momentum and weight decay (kernels/ml_sgd.cl): validate, a
// work-item a parameter.
#include "portacl/ml.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/ml/layer_kernels.hpp"
#include "kernels/planner.hpp"
#include "portacl/error.hpp"

namespace portacl {

LaunchPlan plan_sgd(const Planner& planner, std::size_t n) {
  return planner.plan(sgd_traits(), ProblemSize(std::max<std::size_t>(n, 1)));
}

LaunchPlan sgd_step(Context& ctx, Buffer<float>& w, const Buffer<float>& g, Buffer<float>& v, const SgdOptions& o) {
  const char* op = "sgd_step";
  kernel_call::same_context(ctx, w, op, "parameters");
  kernel_call::same_context(ctx, g, op, "gradients");
  kernel_call::same_context(ctx, v, op, "velocity");
  kernel_call::same_length(op, "parameters", w.size(), "gradients", g.size());
  kernel_call::same_length(op, "parameters", w.size(), "velocity", v.size());
  if (w.size() > 0xffffffffull) throw Error("sgd_step: more than 2^32 - 1 parameters");
  for (const auto& [value, name] :
       {std::pair{o.learning_rate, "learning_rate"}, std::pair{o.momentum, "momentum"},
        std::pair{o.weight_decay, "weight_decay"}, std::pair{o.gradient_scale, "gradient_scale"}})
    if (!std::isfinite(value) || value < 0.0f)
      throw Error(std::string(op) + ": " + name + " is " + std::to_string(value) + "; it must be finite and >= 0");
  aliasing::refuse_overlap(op, aliasing::whole(w), "parameters", aliasing::whole(g), "gradients",
                           "the parameters are written while the gradients are read");
  aliasing::refuse_overlap(op, aliasing::whole(v), "velocity", aliasing::whole(g), "gradients",
                           "the velocity is written while the gradients are read");
  aliasing::refuse_overlap(op, aliasing::whole(v), "velocity", aliasing::whole(w), "parameters", "both are written");
  const LaunchPlan plan = plan_sgd(live_planner(ctx, o.plan), w.size());
  if (w.size() == 0) return plan;
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"ml_sgd.cl", "sgd_momentum", ""}, one_per_item(plan, w.size())),
                      static_cast<cl_uint>(w.size()), o.learning_rate, o.momentum, o.weight_decay, o.gradient_scale, w,
                      g, v);
  return plan;
}

}  // namespace portacl
