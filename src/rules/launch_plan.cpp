// SPDX-License-Identifier: Apache-2.0
#include "portacl/plan.hpp"

#include <sstream>

namespace portacl {

std::string to_string(MemoryStrategy m) {
  switch (m) {
    case MemoryStrategy::map_host_memory: return "map";
    case MemoryStrategy::pinned_staging: return "pinned-staging";
    case MemoryStrategy::direct_copy: return "copy";
  }
  return "?";
}

void DecisionList::push_back(Decision d) {
  if (!items_)
    items_ = std::make_shared<std::vector<Decision>>();
  else if (items_.use_count() > 1)
    items_ = std::make_shared<std::vector<Decision>>(*items_);
  items_->push_back(std::move(d));
}

const std::vector<Decision>& DecisionList::items() const {
  static const std::vector<Decision> none;
  return items_ ? *items_ : none;
}

void LaunchPlan::decide(std::string what, std::string value, std::string rule_id, std::string why) {
  rule(rule_id);  // validates the id
  // A later decision on the same choice (a limit, an override) replaces the
  // earlier one's value but both stay visible: append, never erase.
  decisions.push_back(Decision{std::move(what), std::move(value), std::move(rule_id), std::move(why)});
}

const Decision* LaunchPlan::decision(const std::string& what) const {
  for (auto it = decisions.rbegin(); it != decisions.rend(); ++it)
    if (it->what == what) return &*it;
  return nullptr;
}

std::string LaunchPlan::build_options() const {
  std::string out;
  for (const auto& kv : macros) {
    if (!out.empty()) out += ' ';
    out += "-D" + kv.first + "=" + kv.second;
  }
  return out;
}

std::string LaunchPlan::summary() const {
  std::ostringstream os;
  os << "work-group " << local[0];
  for (unsigned d = 1; d < dimensions; ++d) os << "x" << local[d];
  os << ", " << work_groups << (work_groups == 1 ? " work-group" : " work-groups") << ", vector width " << vector_width
     << ", " << items_per_work_item << (items_per_work_item == 1 ? " item" : " items") << " per work-item, "
     << (use_local_memory ? "local memory" : "no local memory");
  if (barrier_free_variant) os << ", barrier-free";
  if (macros.count("SUB_GROUPS") && macros.at("SUB_GROUPS") != "0")
    os << (macros.at("SUB_GROUPS") == "2" ? ", warp shuffles" : ", sub-groups");
  if (macros.count("SUB_GROUPS")) os << ", " << passes << (passes == 1 ? " pass" : " passes");
  os << ", " << to_string(memory);
  return os.str();
}

std::string LaunchPlan::explain() const {
  std::ostringstream os;
  os << "plan for " << traits.name << " on a " << to_string(device_class) << " (" << provenance << ")\n";
  os << "  " << global[0];
  for (unsigned d = 1; d < dimensions; ++d) os << "x" << global[d];
  os << " work-items in all, " << summary() << "\n";
  for (const auto& d : decisions) {
    os << "  - " << d.what << " = " << d.value << "  [" << d.rule << "] " << d.why << "\n";
  }
  os << "  build options: " << build_options() << "\n";
  return os.str();
}

Json LaunchPlan::to_json() const {
  Json j = Json::object();
  j["kernel"] = traits.name;
  j["device_class"] = to_string(device_class);
  j["dimensions"] = dimensions;
  Json g = Json::array(), l = Json::array();
  for (unsigned d = 0; d < dimensions; ++d) {
    g.push_back(global[d]);
    l.push_back(local[d]);
  }
  j["global"] = g;
  j["local"] = l;
  j["work_group_size"] = work_group_size();
  j["work_groups"] = work_groups;
  j["vector_width"] = vector_width;
  j["use_local_memory"] = use_local_memory;
  j["barrier_free_variant"] = barrier_free_variant;
  j["items_per_work_item"] = items_per_work_item;
  j["passes"] = passes;
  j["memory"] = to_string(memory);
  j["build_options"] = build_options();
  j["provenance"] = provenance;
  Json ds = Json::array();
  for (const auto& d : decisions) ds.push_back(portacl::to_json(d));
  j["decisions"] = ds;
  return j;
}

Json to_json(const Decision& d) {
  Json x = Json::object();
  x["what"] = d.what;
  x["value"] = d.value;
  x["rule"] = d.rule;
  x["why"] = d.why;
  return x;
}

}  // namespace portacl
