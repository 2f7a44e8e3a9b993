// SPDX-License-Identifier: Apache-2.0
#include "rules/tuning_space.hpp"

#include <algorithm>
#include <sstream>

#include "portacl/error.hpp"

namespace portacl {

namespace {

bool planner_knob(const std::string& name) {
  return name == "work_group_size" || name == "vector_width" || name == "groups_per_compute_unit" ||
         name == "use_local_memory" || name == "passes";
}

}  // namespace

namespace knobs {
Tunable work_group_size(std::vector<long> values) {
  return {"work_group_size", std::move(values), std::nullopt, "work-items per work-group"};
}
Tunable vector_width(std::vector<long> values) {
  return {"vector_width", std::move(values), std::nullopt, "elements per load and store"};
}
Tunable groups_per_compute_unit(std::vector<long> values) {
  return {"groups_per_compute_unit", std::move(values), std::nullopt,
          "work-groups launched per compute unit (the rest is grid-stride looping)"};
}
Tunable use_local_memory() {
  return {"use_local_memory", {0, 1}, std::nullopt, "combine in local memory (1) or per work-item (0)"};
}
Tunable passes() { return {"passes", {1, 2}, std::nullopt, "one launch with atomics, or two launches"}; }
std::function<std::string(const Configuration&)> within_work_group(std::string knob) {
  return [knob](const Configuration& c) -> std::string {
    if (c.count(knob) && c.count("work_group_size") && c.at(knob) > c.at("work_group_size"))
      return knob + " exceeds the work-group size";
    return "";
  };
}
}  // namespace knobs

std::string to_string(const Configuration& c) {
  std::ostringstream s;
  for (const auto& kv : c) s << (s.tellp() ? " " : "") << kv.first << "=" << kv.second;
  return c.empty() ? "rules" : s.str();
}

std::string to_string(const Configuration& numbers, const NamedValues& named) {
  std::map<std::string, std::string> all;
  for (const auto& kv : numbers) all[kv.first] = std::to_string(kv.second);
  for (const auto& kv : named) all[kv.first] = kv.second;
  std::ostringstream s;
  for (const auto& kv : all) s << (s.tellp() ? " " : "") << kv.first << "=" << kv.second;
  return all.empty() ? "rules" : s.str();
}

std::string Tunable::name_of(long value) const {
  for (std::size_t i = 0; i < values.size() && i < names.size(); ++i)
    if (values[i] == value) return names[i];
  return std::to_string(value);
}

void split_named_values(const TuningSpace& space, const Configuration& c, Configuration& numbers, NamedValues& named) {
  for (const auto& kv : c) {
    const Tunable* knob = nullptr;
    for (const auto& t : space.tunables)
      if (t.name == kv.first) knob = &t;
    if (knob && !knob->names.empty())
      named[kv.first] = knob->name_of(kv.second);
    else
      numbers[kv.first] = kv.second;
  }
}

std::string resolve_named_values(const TuningSpace& space, const NamedValues& named, Configuration& c) {
  for (const auto& kv : named) {
    const Tunable* knob = nullptr;
    for (const auto& t : space.tunables)
      if (t.name == kv.first) knob = &t;
    if (!knob) return "the kernel declares no knob '" + kv.first + "'";
    if (knob->names.empty()) return kv.first + " takes numbers, and the record names a value ('" + kv.second + "')";
    std::string known;
    for (std::size_t i = 0; i < knob->names.size() && i < knob->values.size(); ++i) {
      if (knob->names[i] == kv.second) {
        c[kv.first] = knob->values[i];
        known.clear();
        break;
      }
      known += (known.empty() ? "" : ", ") + knob->names[i];
    }
    if (!known.empty()) return kv.first + " '" + kv.second + "' is not one of its values (" + known + ")";
  }
  return "";
}

bool decided_by_tuning(const LaunchPlan& plan, const std::string& what) {
  const Decision* d = plan.decision(what);
  return d && d->rule == "tuning.override";
}

const Tunable& TuningSpace::at(const std::string& name) const {
  for (const auto& t : tunables)
    if (t.name == name) return t;
  throw Error("tuning space has no knob '" + name + "'");
}

std::optional<long> TuningSpace::chosen(const LaunchPlan& plan, const std::string& name) const {
  const Tunable& t = at(name);
  auto it = plan.macros.find(name);
  if (it != plan.macros.end()) return std::stol(it->second);
  return t.fallback;
}

long TuningSpace::value_in(const LaunchPlan& plan, const std::string& name) const {
  if (auto v = chosen(plan, name)) return *v;
  throw Error("knob '" + name + "' has no fallback value");
}

std::size_t TuningSpace::count() const {
  std::size_t n = 1;
  for (const auto& t : tunables) n *= t.values.size();
  return n;
}

Configuration TuningSpace::configuration(std::size_t index) const {
  Configuration c;
  for (const auto& t : tunables) {
    c[t.name] = t.values.at(index % t.values.size());
    index /= t.values.size();
  }
  return c;
}

std::string check_configuration(const TuningSpace& space, const Configuration& c, const DeviceInfo& device,
                                const KernelTraits& traits) {
  const DeviceLimits limits = DeviceLimits::of(device);
  for (const auto& kv : c) {
    space.at(kv.first);  // an unknown knob is an error, not a silent no-op
    if (!planner_knob(kv.first) && kv.second < 0) return kv.first + " is negative";
  }
  auto get = [&](const char* name) -> std::optional<long> {
    auto it = c.find(name);
    return it == c.end() ? std::nullopt : std::optional<long>(it->second);
  };
  if (auto wg = get("work_group_size")) {
    if (*wg < 1) return "work-group size " + std::to_string(*wg);
    if (limits.max_work_group_size && std::size_t(*wg) > limits.max_work_group_size)
      return "work-group size " + std::to_string(*wg) + " exceeds the device's " +
             std::to_string(limits.max_work_group_size);
    if (limits.max_item_sizes[0] && std::size_t(*wg) > limits.max_item_sizes[0])
      return "work-group size " + std::to_string(*wg) + " exceeds the device's first dimension " +
             std::to_string(limits.max_item_sizes[0]);
    const bool local = get("use_local_memory").value_or(1) != 0;
    if (local && limits.local_mem_size && traits.local_bytes_per_work_item * std::size_t(*wg) > limits.local_mem_size)
      return "local memory " + std::to_string(traits.local_bytes_per_work_item * std::size_t(*wg)) +
             " B exceeds the device's " + std::to_string(limits.local_mem_size);
  }
  if (auto vw = get("vector_width")) {
    if (*vw != 1 && *vw != 2 && *vw != 4 && *vw != 8 && *vw != 16)
      return "vector width " + std::to_string(*vw) + " is not an OpenCL vector size";
    if (*vw != 1 && !traits.vectorizable) return "the kernel is scalar (vector width 1 only)";
  }
  if (auto p = get("passes")) {
    if (*p != 1 && *p != 2) return "passes " + std::to_string(*p);
    if (*p == 1 && !limits.global_atomics.value_or(true)) return "a single pass needs global atomics";
  }
  if (auto g = get("groups_per_compute_unit"))
    if (*g < 1) return "groups per compute unit " + std::to_string(*g);
  if (space.constraint) return space.constraint(c);
  return "";
}

std::string stored_configuration_problem(const TuningSpace& space, const Configuration& c, const DeviceInfo& device,
                                         const KernelTraits& traits) {
  for (const auto& [name, value] : c) {
    const Tunable* knob = nullptr;
    for (const auto& t : space.tunables)
      if (t.name == name) knob = &t;
    if (!knob) {
      std::string declared;
      for (const auto& t : space.tunables) declared += (declared.empty() ? "" : ", ") + t.name;
      return "'" + name + "' is not a knob of " + traits.name + " (it declares " + declared + ")";
    }
    if (std::find(knob->values.begin(), knob->values.end(), value) == knob->values.end()) {
      std::string candidates;
      for (long v : knob->values) candidates += (candidates.empty() ? "" : ", ") + std::to_string(v);
      return name + "=" + std::to_string(value) + " is not one of its candidates (" + candidates + ")";
    }
  }
  return check_configuration(space, c, device, traits);
}

PlanOverride to_override(const Configuration& c, const DeviceInfo& device, const std::string& provenance) {
  PlanOverride ov;
  ov.provenance = provenance;
  for (const auto& [name, value] : c) {
    if (name == "work_group_size")
      ov.work_group_size = static_cast<std::size_t>(value);
    else if (name == "vector_width")
      ov.vector_width = static_cast<unsigned>(value);
    else if (name == "groups_per_compute_unit")
      ov.work_groups = static_cast<std::size_t>(value) * std::max<std::size_t>(1, device.compute_units);
    else if (name == "use_local_memory")
      ov.use_local_memory = value != 0;
    else if (name == "passes")
      ov.passes = static_cast<unsigned>(value);
    else
      ov.macros[name] = std::to_string(value);
  }
  return ov;
}

}  // namespace portacl
