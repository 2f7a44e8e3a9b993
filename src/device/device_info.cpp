// SPDX-License-Identifier: Apache-2.0
#include "portacl/device.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <sstream>
#include <type_traits>

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
    case ElementType::i32:
    case ElementType::u32: return int_;  // OpenCL gives one width for int and uint
    case ElementType::i64:
    case ElementType::u64: return long_;
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

// A device description's fields, listed once: the writer (to_json) and the
// reader (from_json) walk the same lists, in the order the JSON shows them.
auto width_fields = [](auto& f, auto& w) {
  f("char", w.char_);
  f("short", w.short_);
  f("int", w.int_);
  f("long", w.long_);
  f("half", w.half);
  f("float", w.float_);
  f("double", w.double_);
};
auto platform_fields = [](auto& f, auto& d) {
  f("name", d.platform_name);
  f("vendor", d.platform_vendor);
  f("version", d.platform_version);
};
auto nvidia_fields = [](auto& f, auto& a) {
  f("compute_capability_major", a.compute_capability_major);
  f("compute_capability_minor", a.compute_capability_minor);
  f("warp_size", a.warp_size);
  f("registers_per_block", a.registers_per_block);
  f("integrated_memory", a.integrated_memory);
};
auto amd_fields = [](auto& f, auto& a) {
  f("board_name", a.board_name);
  f("wavefront_width", a.wavefront_width);
  f("simd_per_compute_unit", a.simd_per_compute_unit);
  f("simd_width", a.simd_width);
  f("simd_instruction_width", a.simd_instruction_width);
  f("gfxip_major", a.gfxip_major);
  f("gfxip_minor", a.gfxip_minor);
};
auto command_buffer_fields = [](auto& f, auto& c) {
  f("version", c.version);
  f("capabilities", c.capabilities);
  f("required_queue_properties", c.required_queue_properties);
};
auto device_fields = [](auto& f, auto& d) {
  f.object("platform", d, platform_fields);
  f("name", d.name);
  f("vendor", d.vendor);
  f("vendor_id", d.vendor_id);
  f("version", d.version);
  f("driver_version", d.driver_version);
  f("opencl_c_version", d.opencl_c_version);
  f("type", d.type);
  f("compute_units", d.compute_units);
  f("clock_mhz", d.clock_mhz);
  f("max_work_group_size", d.max_work_group_size);
  f.list("max_work_item_sizes", d.max_work_item_sizes);
  f("preferred_work_group_multiple", d.preferred_work_group_multiple);
  f("local_mem_type", d.local_mem_type);
  f("local_mem_size", d.local_mem_size);
  f("global_mem_size", d.global_mem_size);
  f("max_mem_alloc_size", d.max_mem_alloc_size);
  f("global_cache_size", d.global_cache_size);
  f("global_cache_line_size", d.global_cache_line_size);
  f("max_constant_buffer_size", d.max_constant_buffer_size);
  f("host_unified_memory", d.host_unified_memory);
  f.object("preferred_vector_width", d.preferred_vector_width, width_fields);
  f.object("native_vector_width", d.native_vector_width, width_fields);
  f("fp64", d.fp64);
  f("fp16", d.fp16);
  f.list("extensions", d.extensions);
  f.optional("nvidia", d.nvidia, nvidia_fields);
  f.optional("amd", d.amd, amd_fields);
  f.list("intel_sub_group_sizes", d.intel_sub_group_sizes, /*omitted when empty*/ true);
  f.optional("command_buffer", d.command_buffer, command_buffer_fields);
  f("source", d.source);
};

struct Writer {
  Json& j;

  void operator()(const char* k, DeviceType t) { j[k] = to_string(t); }
  void operator()(const char* k, LocalMemType t) { j[k] = to_string(t); }
  template <class U>
  void operator()(const char* k, const U& v) {
    j[k] = v;
  }
  template <class U>
  void list(const char* k, const std::vector<U>& v, bool omit_empty = false) {
    if (omit_empty && v.empty()) return;
    Json a = Json::array();
    for (const auto& x : v) a.push_back(x);
    j[k] = a;
  }
  template <class T, class Walk>
  void object(const char* k, const T& x, Walk walk) {
    Json& o = j[k];
    o = Json::object();
    Writer w{o};
    walk(w, x);
  }
  template <class T, class Walk>
  void optional(const char* k, const std::optional<T>& x, Walk walk) {
    if (x) object(k, *x, walk);
  }
};

// Absent means "unknown" (the default stays); present with the wrong type,
// or out of the field's range, is an error naming the field.
struct Reader {
  const Json& j;
  std::string where;

  std::string field(const std::string& k) const { return where + "." + k; }

  void operator()(const char* k, std::string& out) const {
    if (const Json* v = j.find(k)) out = v->as_string(field(k).c_str());
  }
  void operator()(const char* k, bool& out) const {
    if (const Json* v = j.find(k)) out = v->as_bool(field(k).c_str());
  }
  void operator()(const char* k, DeviceType& out) const {
    if (const Json* v = j.find(k)) out = device_type_from_string(v->as_string(field(k).c_str()));
  }
  void operator()(const char* k, LocalMemType& out) const {
    if (const Json* v = j.find(k)) out = local_mem_type_from_string(v->as_string(field(k).c_str()));
  }
  template <class U>
  void operator()(const char* k, U& out) const {
    if (const Json* v = j.find(k)) out = number<U>(*v, field(k));
  }
  template <class U>
  void list(const char* k, std::vector<U>& out, bool = false) const {
    const Json* v = j.find(k);
    if (!v) return;
    const std::string item = field(k) + "[]";
    for (const auto& x : v->as_array(field(k).c_str())) {
      if constexpr (std::is_same_v<U, std::string>)
        out.push_back(x.as_string(item.c_str()));
      else
        out.push_back(number<U>(x, item));
    }
  }
  template <class T, class Walk>
  bool object(const char* k, T& x, Walk walk) const {
    const Json* v = j.find(k);
    if (!v) return false;
    v->as_object(field(k).c_str());
    Reader r{*v, field(k)};
    walk(r, x);
    return true;
  }
  template <class T, class Walk>
  void optional(const char* k, std::optional<T>& x, Walk walk) const {
    T value;
    if (object(k, value, walk)) x = value;
  }

  template <class U>
  static U number(const Json& v, const std::string& name) {
    const std::uint64_t x = v.as_u64(name.c_str());
    if (x > std::numeric_limits<U>::max()) throw Error("JSON: " + name + " is out of range");
    return static_cast<U>(x);
  }
};

}  // namespace

Json DeviceInfo::to_json() const {
  Json j = Json::object();
  j["format"] = "portacl-device-1";
  Writer w{j};
  device_fields(w, *this);
  return j;
}

DeviceInfo DeviceInfo::from_json(const Json& j) {
  j.as_object("device description");
  if (const Json* f = j.find("format")) {
    if (f->as_string("device.format") != "portacl-device-1")
      throw Error("JSON: device.format is '" + f->as_string() + "', this library reads 'portacl-device-1'");
  }
  if (!j.contains("name")) throw Error("JSON: device description has no 'name'");
  if (!j.contains("type")) throw Error("JSON: device description has no 'type'");
  DeviceInfo d;
  Reader r{j, "device"};
  device_fields(r, d);
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
