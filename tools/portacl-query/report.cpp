// SPDX-License-Identifier: Apache-2.0
#include "report.hpp"

#include <sstream>

#include "rules/replay_rules.hpp"

namespace portacl_query {

using namespace portacl;

namespace {

// One decision, as --explain prints it.
void print(std::ostream& os, const char* indent, const Decision& d) {
  os << indent << d.what << " = " << d.value << "  [" << d.rule << "] " << d.why << "\n";
}

std::string human_bytes(std::uint64_t b) {
  const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  std::ostringstream os;
  os.precision(v < 10 && u ? 2 : 0);
  os << std::fixed << v << " " << unit[u];
  return os.str();
}

}  // namespace

std::string text_report(const DeviceInfo& d, const std::string& heading, bool explain, const DeviceLimits* live) {
  Classification c = classify(d);
  std::ostringstream os;
  os << heading << " " << d.name << "\n";
  os << "  platform        " << (d.platform_name.empty() ? "(unknown)" : d.platform_name) << "\n";
  os << "  class           " << to_string(c.device_class) << "  (" << c.architecture << ")\n";
  if (explain) os << "  classified by   " << c.reason << "\n";
  os << "  vendor          " << d.vendor << " (0x" << std::hex << d.vendor_id << std::dec << "), driver "
     << d.driver_version << "\n";
  os << "  compute units   " << d.compute_units << " @ " << d.clock_mhz << " MHz, execution width " << c.execution_width
     << "\n";
  os << "  work-group max  " << d.max_work_group_size << " (items";
  for (auto s : d.max_work_item_sizes) os << " " << s;
  os << ")\n";
  os << "  local memory    " << human_bytes(d.local_mem_size) << " (" << to_string(d.local_mem_type) << ")\n";
  os << "  global memory   " << human_bytes(d.global_mem_size) << ", max alloc " << human_bytes(d.max_mem_alloc_size)
     << ", cache " << human_bytes(d.global_cache_size) << " / line " << d.global_cache_line_size << " B\n";
  os << "  vector widths   float " << d.preferred_vector_width.float_ << "/" << d.native_vector_width.float_
     << ", double " << d.preferred_vector_width.double_ << "/" << d.native_vector_width.double_
     << " (preferred/native); fp64 " << (d.fp64 ? "yes" : "no") << ", fp16 " << (d.fp16 ? "yes" : "no") << "\n";
  if (d.nvidia)
    os << "  NVIDIA          compute capability " << d.nvidia->compute_capability_major << "."
       << d.nvidia->compute_capability_minor << ", warp " << d.nvidia->warp_size << ", registers/block "
       << d.nvidia->registers_per_block << "\n";
  if (d.amd)
    os << "  AMD             gfx IP " << d.amd->gfxip_major << "." << d.amd->gfxip_minor << ", wavefront "
       << d.amd->wavefront_width << ", " << d.amd->simd_per_compute_unit << " SIMD x " << d.amd->simd_width
       << " per CU\n";
  if (!d.intel_sub_group_sizes.empty()) {
    os << "  Intel           sub-group sizes";
    for (auto s : d.intel_sub_group_sizes) os << " " << s;
    os << "\n";
  }
  // portacl's own queues profile; a queue the program hands in may differ.
  const portacl::ReplaySupport replay = portacl::command_replay_support(d, CL_QUEUE_PROFILING_ENABLE);
  os << "  command buffers " << (replay.usable ? "replayable: " : "not used: ") << replay.why << "\n";
  os << "  plans:\n";
  for (const auto& shape : reference_shapes(d.fp64)) {
    PlanOptions opt;
    if (live) opt.live_limits = *live;
    try {
      LaunchPlan p = make_plan(d, shape.traits, shape.size, opt);
      os << "    " << shape.label << ": " << p.summary() << "  [" << p.provenance << "]\n";
      if (explain) {
        for (const auto& dec : p.decisions) print(os, "        ", dec);
        os << "        build options: " << p.build_options() << "\n";
      }
    } catch (const Error& e) {
      os << "    " << shape.label << ": not plannable: " << e.what() << "\n";
    }
  }
  os << "  family calls (what each would run; the same plan functions as the calls):\n";
  PlanOptions opt;
  if (live) opt.live_limits = *live;
  for (const ReferenceCall& c : reference_calls(d, opt)) {
    os << "    " << c.label << ":";
    if (!c.error.empty()) {
      os << " not plannable: " << c.error << "\n";
      continue;
    }
    os << "\n";
    for (const auto& dec : c.decisions)
      if (explain) print(os, "        ", dec);
    for (const auto& [kernel, p] : c.launches) {
      os << "      " << kernel << ": " << p.summary() << "  [" << p.provenance << "]\n";
      if (explain)
        for (const auto& dec : p.decisions) print(os, "          ", dec);
    }
  }
  return os.str();
}

Json json_report(const DeviceInfo& d, const DeviceLimits* live) {
  Classification c = classify(d);
  Json j = Json::object();
  j["device"] = d.to_json();
  Json& cj = j["classification"];
  cj["class"] = to_string(c.device_class);
  cj["architecture"] = c.architecture;
  cj["execution_width"] = c.execution_width;
  cj["simd_width_float"] = c.simd_width_float;
  cj["reason"] = c.reason;
  Json plans = Json::array();
  for (const auto& shape : reference_shapes(d.fp64)) {
    PlanOptions opt;
    if (live) opt.live_limits = *live;
    Json entry = Json::object();
    entry["shape"] = shape.label;
    try {
      entry["plan"] = make_plan(d, shape.traits, shape.size, opt).to_json();
    } catch (const Error& e) {
      entry["error"] = e.what();
    }
    plans.push_back(entry);
  }
  j["plans"] = plans;
  Json calls = Json::array();
  PlanOptions opt;
  if (live) opt.live_limits = *live;
  for (const ReferenceCall& c : reference_calls(d, opt)) {
    Json entry = Json::object();
    entry["family"] = c.family;
    entry["call"] = c.label;
    if (!c.error.empty()) entry["error"] = c.error;
    Json decisions = Json::array();
    for (const auto& dec : c.decisions) decisions.push_back(to_json(dec));
    entry["decisions"] = decisions;
    Json launches = Json::array();
    for (const auto& [kernel, p] : c.launches) {
      Json l = Json::object();
      l["kernel"] = kernel;
      l["plan"] = p.to_json();
      launches.push_back(l);
    }
    entry["launches"] = launches;
    calls.push_back(entry);
  }
  j["calls"] = calls;
  return j;
}

std::string quirk_book_report() {
  std::ostringstream out;
  out << "known driver and library bugs portacl works around (quirk ids are cited in the code):\n";
  for (const portacl::Quirk& q : portacl::quirk_book())
    out << "  " << q.id << "  (" << q.applies_to << ")\n"
        << "    symptom:    " << q.symptom << "\n"
        << "    workaround: " << q.workaround << "\n";
  return out.str();
}

std::string quirks_report(const portacl::DeviceInfo& d, const std::string& heading) {
  std::ostringstream out;
  out << heading << " " << d.name << " (" << d.platform_name << "):";
  const auto quirks = portacl::quirks_of(d);
  if (quirks.empty()) out << " no known quirks";
  for (const portacl::Quirk* q : quirks) out << "\n  " << q->id;
  out << "\n";
  return out.str();
}

}  // namespace portacl_query
