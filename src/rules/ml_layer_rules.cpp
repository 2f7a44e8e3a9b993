// SPDX-License-Identifier: Apache-2.0
// The layers' small kernels' plans (src/rules/ml_layer_rules.hpp).
#include "rules/ml_layer_rules.hpp"

#include <string>

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

}  // namespace portacl
