// SPDX-License-Identifier: Apache-2.0
// The layers' small kernels' plans (src/rules/ml_layer_rules.hpp).
#include "rules/ml_layer_rules.hpp"

#include <string>

#include "rules/coverage_rules.hpp"

namespace portacl {

LaunchPlan pooling_plan(LaunchPlan plan, const PoolWindow& w) {
  plan.macros["MAX"] = w.max ? "1" : "0";
  plan.macros["COUNT_PADDING"] = w.count_padding ? "1" : "0";
  plan.macros["R"] = std::to_string(w.height);
  plan.macros["S"] = std::to_string(w.width);
  plan.macros["STRIDE_H"] = std::to_string(w.stride_h);
  plan.macros["STRIDE_W"] = std::to_string(w.stride_w);
  plan.macros["PAD_H"] = std::to_string(w.pad_h);
  plan.macros["PAD_W"] = std::to_string(w.pad_w);
  return plan;
}

LaunchPlan layer_output_plan(LaunchPlan plan, bool has_bias, bool relu) {
  plan.macros["HAS_BIAS"] = has_bias ? "1" : "0";
  plan.macros["RELU"] = relu ? "1" : "0";
  return plan;
}

LaunchPlan softmax_loss_plan(LaunchPlan plan, bool write_grad) {
  plan.macros["WRITE_GRAD"] = write_grad ? "1" : "0";
  return plan;
}

LaunchPlan binary_scale_plan(const LaunchPlan& like, std::size_t items, bool has_scale) {
  LaunchPlan plan = one_per_item(like, items);
  plan.macros["HAS_SCALE"] = has_scale ? "1" : "0";
  return plan;
}

}  // namespace portacl
