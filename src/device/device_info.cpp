// SPDX-License-Identifier: Apache-2.0
#include "portacl/device.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

#include "portacl/error.hpp"
#include "../util/files.hpp"

namespace portacl {

std::string to_string(DeviceType t) {
  switch (t) {
    case DeviceType::cpu: return "cpu";
    case DeviceType::gpu: return "gpu";
    case DeviceType::accelerator: return "accelerator";
    case DeviceType::custom: return "custom";
    case DeviceType::unknown: break;
  }
  return "unknown";
}

DeviceType device_type_from_string(const std::string& s) {
  for (auto t : {DeviceType::unknown, DeviceType::cpu, DeviceType::gpu, DeviceType::accelerator, DeviceType::custom})
    if (to_string(t) == s) return t;
  throw Error("unknown device type '" + s + "' (expected cpu, gpu, accelerator, custom or unknown)");
}

std::string to_string(LocalMemType t) {
  switch (t) {
    case LocalMemType::none: return "none";
    case LocalMemType::local: return "local";
    case LocalMemType::global: return "global";
    case LocalMemType::unknown: break;
  }
  return "unknown";
}

LocalMemType local_mem_type_from_string(const std::string& s) {
  for (auto t : {LocalMemType::unknown, LocalMemType::none, LocalMemType::local, LocalMemType::global})
    if (to_string(t) == s) return t;
  throw Error("unknown local memory type '" + s + "' (expected local, global, none or unknown)");
}

std::uint32_t VectorWidths::of(ElementType t) const {
  switch (t) {
    case ElementType::i8: return char_;
    case ElementType::i16: return short_;
    case ElementType::i32: return int_;
    case ElementType::i64: return long_;
    case ElementType::f16: return half;
    case ElementType::f32: return float_;
    case ElementType::f64: return double_;
  }
  return 0;
}

bool VectorWidths::operator==(const VectorWidths& o) const {
  return char_ == o.char_ && short_ == o.short_ && int_ == o.int_ && long_ == o.long_ && half == o.half &&
         float_ == o.float_ && double_ == o.double_;
}

bool NvidiaAttributes::operator==(const NvidiaAttributes& o) const {
  return compute_capability_major == o.compute_capability_major &&
         compute_capability_minor == o.compute_capability_minor && warp_size == o.warp_size &&
         registers_per_block == o.registers_per_block && integrated_memory == o.integrated_memory;
}

bool AmdAttributes::operator==(const AmdAttributes& o) const {
  return board_name == o.board_name && wavefront_width == o.wavefront_width &&
         simd_per_compute_unit == o.simd_per_compute_unit && simd_width == o.simd_width &&
         simd_instruction_width == o.simd_instruction_width && gfxip_major == o.gfxip_major &&
         gfxip_minor == o.gfxip_minor;
}

std::string CommandBufferSupport::version_text() const {
  if (!version) return "unknown";
  // CL_MAKE_VERSION: major in the top 10 bits, minor in the next 10, patch in the low 12.
  return std::to_string(version >> 22) + "." + std::to_string((version >> 12) & 0x3ff) + "." +
         std::to_string(version & 0xfff);
}

bool CommandBufferSupport::operator==(const CommandBufferSupport& o) const {
  return version == o.version && capabilities == o.capabilities &&
         required_queue_properties == o.required_queue_properties;
}

bool DeviceInfo::has_extension(const std::string& ext) const {
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

std::uint64_t DeviceInfo::max_item_size(unsigned d) const {
  return d < max_work_item_sizes.size() ? max_work_item_sizes[d] : 0;
}

bool DeviceInfo::operator==(const DeviceInfo& o) const {
  // The JSON form is the canonical one; comparing it keeps this in step with
  // every field without a second list of members.
  return to_json().dump(0) == o.to_json().dump(0);
}

namespace {

Json widths_to_json(const VectorWidths& w) {
  Json j = Json::object();
  j["char"] = w.char_;
  j["short"] = w.short_;
  j["int"] = w.int_;
  j["long"] = w.long_;
  j["half"] = w.half;
  j["float"] = w.float_;
  j["double"] = w.double_;
  return j;
}

// Field readers: absent means "unknown" (keep the default); present with the
// wrong type is an error naming the field.
struct Reader {
  const Json& j;
  std::string where;

  std::string field(const std::string& k) const { return where + "." + k; }

  void str(const char* k, std::string& out) const {
    if (const Json* v = j.find(k)) out = v->as_string(field(k).c_str());
  }
  template <class U>
  void num(const char* k, U& out) const {
    if (const Json* v = j.find(k)) {
      std::uint64_t x = v->as_u64(field(k).c_str());
      if (x > std::numeric_limits<U>::max()) throw Error("JSON: " + field(k) + " is out of range");
      out = static_cast<U>(x);
    }
  }
  void flag(const char* k, bool& out) const {
    if (const Json* v = j.find(k)) out = v->as_bool(field(k).c_str());
  }
  const Json* obj(const char* k) const {
    const Json* v = j.find(k);
    if (v) v->as_object(field(k).c_str());
    return v;
  }
};

VectorWidths widths_from_json(const Json& j, const std::string& where) {
  VectorWidths w;
  Reader r{j, where};
  r.num("char", w.char_);
  r.num("short", w.short_);
  r.num("int", w.int_);
  r.num("long", w.long_);
  r.num("half", w.half);
  r.num("float", w.float_);
  r.num("double", w.double_);
  return w;
}

}  // namespace

Json DeviceInfo::to_json() const {
  Json j = Json::object();
  j["format"] = "portacl-device-1";
  Json& p = j["platform"];
  p["name"] = platform_name;
  p["vendor"] = platform_vendor;
  p["version"] = platform_version;
  j["name"] = name;
  j["vendor"] = vendor;
  j["vendor_id"] = vendor_id;
  j["version"] = version;
  j["driver_version"] = driver_version;
  j["opencl_c_version"] = opencl_c_version;
  j["type"] = to_string(type);
  j["compute_units"] = compute_units;
  j["clock_mhz"] = clock_mhz;
  j["max_work_group_size"] = max_work_group_size;
  Json sizes = Json::array();
  for (auto s : max_work_item_sizes) sizes.push_back(s);
  j["max_work_item_sizes"] = sizes;
  j["preferred_work_group_multiple"] = preferred_work_group_multiple;
  j["local_mem_type"] = to_string(local_mem_type);
  j["local_mem_size"] = local_mem_size;
  j["global_mem_size"] = global_mem_size;
  j["max_mem_alloc_size"] = max_mem_alloc_size;
  j["global_cache_size"] = global_cache_size;
  j["global_cache_line_size"] = global_cache_line_size;
  j["max_constant_buffer_size"] = max_constant_buffer_size;
  j["host_unified_memory"] = host_unified_memory;
  j["preferred_vector_width"] = widths_to_json(preferred_vector_width);
  j["native_vector_width"] = widths_to_json(native_vector_width);
  j["fp64"] = fp64;
  j["fp16"] = fp16;
  Json ext = Json::array();
  for (const auto& e : extensions) ext.push_back(e);
  j["extensions"] = ext;
  if (nvidia) {
    Json& n = j["nvidia"];
    n["compute_capability_major"] = nvidia->compute_capability_major;
    n["compute_capability_minor"] = nvidia->compute_capability_minor;
    n["warp_size"] = nvidia->warp_size;
    n["registers_per_block"] = nvidia->registers_per_block;
    n["integrated_memory"] = nvidia->integrated_memory;
  }
  if (amd) {
    Json& a = j["amd"];
    a["board_name"] = amd->board_name;
    a["wavefront_width"] = amd->wavefront_width;
    a["simd_per_compute_unit"] = amd->simd_per_compute_unit;
    a["simd_width"] = amd->simd_width;
    a["simd_instruction_width"] = amd->simd_instruction_width;
    a["gfxip_major"] = amd->gfxip_major;
    a["gfxip_minor"] = amd->gfxip_minor;
  }
  if (!intel_sub_group_sizes.empty()) {
    Json sg = Json::array();
    for (auto s : intel_sub_group_sizes) sg.push_back(s);
    j["intel_sub_group_sizes"] = sg;
  }
  if (command_buffer) {
    Json& c = j["command_buffer"];
    c["version"] = command_buffer->version;
    c["capabilities"] = command_buffer->capabilities;
    c["required_queue_properties"] = command_buffer->required_queue_properties;
  }
  j["source"] = source;
  return j;
}

DeviceInfo DeviceInfo::from_json(const Json& j) {
  j.as_object("device description");
  DeviceInfo d;
  Reader r{j, "device"};
  if (const Json* f = j.find("format")) {
    if (f->as_string("device.format") != "portacl-device-1")
      throw Error("JSON: device.format is '" + f->as_string() + "', this library reads 'portacl-device-1'");
  }
  if (!j.contains("name")) throw Error("JSON: device description has no 'name'");
  if (!j.contains("type")) throw Error("JSON: device description has no 'type'");
  if (const Json* p = r.obj("platform")) {
    Reader pr{*p, "device.platform"};
    pr.str("name", d.platform_name);
    pr.str("vendor", d.platform_vendor);
    pr.str("version", d.platform_version);
  }
  r.str("name", d.name);
  r.str("vendor", d.vendor);
  r.num("vendor_id", d.vendor_id);
  r.str("version", d.version);
  r.str("driver_version", d.driver_version);
  r.str("opencl_c_version", d.opencl_c_version);
  d.type = device_type_from_string(j.find("type")->as_string("device.type"));
  r.num("compute_units", d.compute_units);
  r.num("clock_mhz", d.clock_mhz);
  r.num("max_work_group_size", d.max_work_group_size);
  if (const Json* s = j.find("max_work_item_sizes"))
    for (const auto& v : s->as_array("device.max_work_item_sizes"))
      d.max_work_item_sizes.push_back(v.as_u64("device.max_work_item_sizes[]"));
  r.num("preferred_work_group_multiple", d.preferred_work_group_multiple);
  if (const Json* t = j.find("local_mem_type"))
    d.local_mem_type = local_mem_type_from_string(t->as_string("device.local_mem_type"));
  r.num("local_mem_size", d.local_mem_size);
  r.num("global_mem_size", d.global_mem_size);
  r.num("max_mem_alloc_size", d.max_mem_alloc_size);
  r.num("global_cache_size", d.global_cache_size);
  r.num("global_cache_line_size", d.global_cache_line_size);
  r.num("max_constant_buffer_size", d.max_constant_buffer_size);
  r.flag("host_unified_memory", d.host_unified_memory);
  if (const Json* w = r.obj("preferred_vector_width"))
    d.preferred_vector_width = widths_from_json(*w, "device.preferred_vector_width");
  if (const Json* w = r.obj("native_vector_width"))
    d.native_vector_width = widths_from_json(*w, "device.native_vector_width");
  r.flag("fp64", d.fp64);
  r.flag("fp16", d.fp16);
  if (const Json* e = j.find("extensions"))
    for (const auto& v : e->as_array("device.extensions")) d.extensions.push_back(v.as_string("device.extensions[]"));
  if (const Json* n = r.obj("nvidia")) {
    NvidiaAttributes a;
    Reader nr{*n, "device.nvidia"};
    nr.num("compute_capability_major", a.compute_capability_major);
    nr.num("compute_capability_minor", a.compute_capability_minor);
    nr.num("warp_size", a.warp_size);
    nr.num("registers_per_block", a.registers_per_block);
    nr.flag("integrated_memory", a.integrated_memory);
    d.nvidia = a;
  }
  if (const Json* m = r.obj("amd")) {
    AmdAttributes a;
    Reader ar{*m, "device.amd"};
    ar.str("board_name", a.board_name);
    ar.num("wavefront_width", a.wavefront_width);
    ar.num("simd_per_compute_unit", a.simd_per_compute_unit);
    ar.num("simd_width", a.simd_width);
    ar.num("simd_instruction_width", a.simd_instruction_width);
    ar.num("gfxip_major", a.gfxip_major);
    ar.num("gfxip_minor", a.gfxip_minor);
    d.amd = a;
  }
  if (const Json* s = j.find("intel_sub_group_sizes"))
    for (const auto& v : s->as_array("device.intel_sub_group_sizes")) {
      auto x = v.as_u64("device.intel_sub_group_sizes[]");
      d.intel_sub_group_sizes.push_back(static_cast<std::uint32_t>(x));
    }
  if (const Json* c = r.obj("command_buffer")) {
    CommandBufferSupport cb;
    Reader cr{*c, "device.command_buffer"};
    cr.num("version", cb.version);
    cr.num("capabilities", cb.capabilities);
    cr.num("required_queue_properties", cb.required_queue_properties);
    d.command_buffer = cb;
  }
  r.str("source", d.source);
  return d;
}

}  // namespace portacl

namespace portacl {

std::vector<std::string> missing_rule_fields(const DeviceInfo& d) {
  std::vector<std::string> missing;
  auto need = [&](bool present, const char* field) {
    if (!present) missing.push_back(field);
  };
  need(d.type != DeviceType::unknown, "Device Type");
  need(d.compute_units != 0, "Max compute units");
  need(d.max_work_group_size != 0, "Max work group size");
  need(!d.max_work_item_sizes.empty(), "Max work item sizes");
  need(d.local_mem_type != LocalMemType::unknown, "Local memory type");
  need(d.local_mem_size != 0, "Local memory size");
  need(d.global_mem_size != 0, "Global memory size");
  need(d.max_mem_alloc_size != 0, "Max memory allocation");
  need(d.preferred_vector_width.float_ != 0, "Preferred vector width (float)");
  return missing;
}

std::vector<DeviceInfo> DeviceInfo::from_json_file(const std::string& path) {
  std::string text, why;
  if (files::read_regular_file(path, text, files::kMaxDescriptionBytes, why) != files::ReadFailure::none)
    throw Error("device description: " + why);
  std::vector<DeviceInfo> out;
  try {
    const Json j = Json::parse(text);
    auto add = [&](const Json& v) {
      DeviceInfo d = from_json(v.contains("device") ? *v.find("device") : v);
      d.source = "json:" + path;
      d.missing_fields = missing_rule_fields(d);
      out.push_back(d);
    };
    if (j.is_array()) {
      for (const auto& v : j.as_array()) add(v);
    } else if (const Json* devs = j.find("devices")) {
      for (const auto& v : devs->as_array("devices")) add(v);
    } else {
      add(j);
    }
  } catch (const Error& e) {
    throw Error("device description '" + path + "': " + e.what());
  }
  if (out.empty()) throw Error("'" + path + "' holds no device description");
  return out;
}

}  // namespace portacl
