// SPDX-License-Identifier: Apache-2.0
#include "portacl/device.hpp"

#include "clinfo_json.hpp"

#include <cctype>
#include <fstream>
#include <functional>
#include <sstream>

#include "portacl/error.hpp"
#include "util/checked.hpp"
#include "../util/files.hpp"
#include "../util/text.hpp"

namespace portacl {
namespace {

using text::trim;

// The number a clinfo value starts with: "524288 (512KiB)", "1996MHz",
// "0x10de", "64 bytes"; leading zeros are decimal. A value that does not
// start with a digit ("(n/a)") is unknown, 0. A sign or a number above
// `max` is refused: portacl::Error naming the value (the caller adds the
// line), never wrapped or read as 0.
std::uint64_t leading_u64(const std::string& v, std::uint64_t max = UINT64_MAX) {
  const std::string t = trim(v);
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) throw Error("'" + t + "' is signed; the field is an unsigned count");
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0]))) return 0;
  std::size_t end = 0;
  const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  if (hex) {
    end = 2;
    while (end < t.size() && std::isxdigit(static_cast<unsigned char>(t[end]))) ++end;
  } else {
    while (end < t.size() && std::isdigit(static_cast<unsigned char>(t[end]))) ++end;
  }
  const auto n = parse_unsigned(t.substr(0, end), true, max);
  if (!n) throw Error("'" + t + "' does not fit the field (at most " + std::to_string(max) + ")");
  return *n;
}

bool yes(const std::string& v) {
  std::string t = trim(v);
  return t == "Yes" || t == "CL_TRUE" || t == "1";
}

std::vector<std::string> split_words(const std::string& v, const char* seps = " \t,") {
  std::vector<std::string> out;
  std::string cur;
  for (char c : v) {
    if (std::string(seps).find(c) != std::string::npos) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// "4096x4096x4096" (human) or "4096 4096 4096" (raw).
std::vector<std::uint64_t> item_sizes(const std::string& v) {
  std::vector<std::uint64_t> out;
  for (const auto& w : split_words(v, " x\t")) out.push_back(leading_u64(w));
  return out;
}

DeviceType type_of(const std::string& v) {
  std::string t = trim(v);
  if (t.find("CPU") != std::string::npos) return DeviceType::cpu;
  if (t.find("GPU") != std::string::npos) return DeviceType::gpu;
  if (t.find("Accelerator") != std::string::npos || t.find("ACCELERATOR") != std::string::npos)
    return DeviceType::accelerator;
  if (t.find("Custom") != std::string::npos || t.find("CUSTOM") != std::string::npos) return DeviceType::custom;
  return DeviceType::unknown;
}

LocalMemType lmem_of(const std::string& v) {
  std::string t = trim(v);
  if (t == "Local" || t == "CL_LOCAL") return LocalMemType::local;
  if (t == "Global" || t == "CL_GLOBAL") return LocalMemType::global;
  if (t == "None" || t == "CL_NONE") return LocalMemType::none;
  return LocalMemType::unknown;
}

std::uint32_t u32(const std::string& v) { return static_cast<std::uint32_t>(leading_u64(v, UINT32_MAX)); }

NvidiaAttributes& nv(DeviceInfo& d) {
  if (!d.nvidia) d.nvidia = NvidiaAttributes{};
  return *d.nvidia;
}
AmdAttributes& amd(DeviceInfo& d) {
  if (!d.amd) d.amd = AmdAttributes{};
  return *d.amd;
}

// "9.2" -> (9, 2).
void major_minor(const std::string& v, std::uint32_t& major, std::uint32_t& minor) {
  auto words = split_words(trim(v), " .");
  if (!words.empty()) major = u32(words[0]);
  if (words.size() > 1) minor = u32(words[1]);
}

using Setter = std::function<void(DeviceInfo&, const std::string&)>;

struct Field {
  const char* human;  // label in clinfo's default output (nullptr: raw only)
  const char* raw;    // CL_* name in --raw output (nullptr: human only)
  Setter set;
};

// One table for both output forms: a field clinfo prints is read the same
// way whichever form the dump uses.
const std::vector<Field>& fields() {
  static const std::vector<Field> table = {
      {"Device Vendor", "CL_DEVICE_VENDOR", [](DeviceInfo& d, const std::string& v) { d.vendor = v; }},
      {"Device Vendor ID", "CL_DEVICE_VENDOR_ID", [](DeviceInfo& d, const std::string& v) { d.vendor_id = u32(v); }},
      {"Device Version", "CL_DEVICE_VERSION", [](DeviceInfo& d, const std::string& v) { d.version = v; }},
      {"Driver Version", "CL_DRIVER_VERSION", [](DeviceInfo& d, const std::string& v) { d.driver_version = v; }},
      {"Device OpenCL C Version", "CL_DEVICE_OPENCL_C_VERSION",
       [](DeviceInfo& d, const std::string& v) { d.opencl_c_version = v; }},
      {"Device Type", "CL_DEVICE_TYPE", [](DeviceInfo& d, const std::string& v) { d.type = type_of(v); }},
      {"Max compute units", "CL_DEVICE_MAX_COMPUTE_UNITS",
       [](DeviceInfo& d, const std::string& v) { d.compute_units = u32(v); }},
      {"Max clock frequency", "CL_DEVICE_MAX_CLOCK_FREQUENCY",
       [](DeviceInfo& d, const std::string& v) { d.clock_mhz = u32(v); }},
      {"Max work item sizes", "CL_DEVICE_MAX_WORK_ITEM_SIZES",
       [](DeviceInfo& d, const std::string& v) { d.max_work_item_sizes = item_sizes(v); }},
      {"Max work group size", "CL_DEVICE_MAX_WORK_GROUP_SIZE",
       [](DeviceInfo& d, const std::string& v) { d.max_work_group_size = leading_u64(v); }},
      // Older clinfo prints one line, newer prints "(device)" and "(kernel)";
      // the device's own value wins when both are present.
      {"Preferred work group size multiple", "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE",
       [](DeviceInfo& d, const std::string& v) {
         if (d.preferred_work_group_multiple == 0) d.preferred_work_group_multiple = u32(v);
       }},
      {"Preferred work group size multiple (kernel)", nullptr,
       [](DeviceInfo& d, const std::string& v) {
         if (d.preferred_work_group_multiple == 0) d.preferred_work_group_multiple = u32(v);
       }},
      {"Preferred work group size multiple (device)", "CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE",
       [](DeviceInfo& d, const std::string& v) { d.preferred_work_group_multiple = u32(v); }},
      {"Local memory type", "CL_DEVICE_LOCAL_MEM_TYPE",
       [](DeviceInfo& d, const std::string& v) { d.local_mem_type = lmem_of(v); }},
      {"Local memory size", "CL_DEVICE_LOCAL_MEM_SIZE",
       [](DeviceInfo& d, const std::string& v) { d.local_mem_size = leading_u64(v); }},
      {"Global memory size", "CL_DEVICE_GLOBAL_MEM_SIZE",
       [](DeviceInfo& d, const std::string& v) { d.global_mem_size = leading_u64(v); }},
      {"Max memory allocation", "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
       [](DeviceInfo& d, const std::string& v) { d.max_mem_alloc_size = leading_u64(v); }},
      {"Global Memory cache size", "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE",
       [](DeviceInfo& d, const std::string& v) { d.global_cache_size = leading_u64(v); }},
      {"Global Memory cache line size", "CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE",
       [](DeviceInfo& d, const std::string& v) { d.global_cache_line_size = u32(v); }},
      // Older clinfo versions print the label without "size".
      {"Global Memory cache line", nullptr,
       [](DeviceInfo& d, const std::string& v) { d.global_cache_line_size = u32(v); }},
      {"Max constant buffer size", "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE",
       [](DeviceInfo& d, const std::string& v) { d.max_constant_buffer_size = leading_u64(v); }},
      {"Unified memory for Host and Device", "CL_DEVICE_HOST_UNIFIED_MEMORY",
       [](DeviceInfo& d, const std::string& v) { d.host_unified_memory = yes(v); }},
      {"Double-precision Floating-point support", "CL_DEVICE_DOUBLE_FP_CONFIG",
       [](DeviceInfo& d, const std::string& v) {
         std::string t = trim(v);
         if (!t.empty() && t != "(n/a)" && t != "0") d.fp64 = true;
       }},
      {"Half-precision Floating-point support", "CL_DEVICE_HALF_FP_CONFIG",
       [](DeviceInfo& d, const std::string& v) {
         std::string t = trim(v);
         if (!t.empty() && t != "(n/a)" && t != "0") d.fp16 = true;
       }},
      {"Device Extensions", "CL_DEVICE_EXTENSIONS",
       [](DeviceInfo& d, const std::string& v) {
         d.extensions = split_words(v, " \t");
         if (d.has_extension("cl_khr_fp64")) d.fp64 = true;
         if (d.has_extension("cl_khr_fp16")) d.fp16 = true;
       }},
      {"Compute Capability (NV)", nullptr,
       [](DeviceInfo& d, const std::string& v) {
         major_minor(v, nv(d).compute_capability_major, nv(d).compute_capability_minor);
       }},
      {nullptr, "CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV",
       [](DeviceInfo& d, const std::string& v) { nv(d).compute_capability_major = u32(v); }},
      {nullptr, "CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV",
       [](DeviceInfo& d, const std::string& v) { nv(d).compute_capability_minor = u32(v); }},
      {"Warp size (NV)", "CL_DEVICE_WARP_SIZE_NV",
       [](DeviceInfo& d, const std::string& v) { nv(d).warp_size = u32(v); }},
      {"Registers per block (NV)", "CL_DEVICE_REGISTERS_PER_BLOCK_NV",
       [](DeviceInfo& d, const std::string& v) { nv(d).registers_per_block = u32(v); }},
      {"Integrated memory (NV)", "CL_DEVICE_INTEGRATED_MEMORY_NV",
       [](DeviceInfo& d, const std::string& v) { nv(d).integrated_memory = yes(v); }},
      {"Device Board Name (AMD)", "CL_DEVICE_BOARD_NAME_AMD",
       [](DeviceInfo& d, const std::string& v) { amd(d).board_name = v; }},
      {"Wavefront width (AMD)", "CL_DEVICE_WAVEFRONT_WIDTH_AMD",
       [](DeviceInfo& d, const std::string& v) { amd(d).wavefront_width = u32(v); }},
      {"SIMD per compute unit (AMD)", "CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD",
       [](DeviceInfo& d, const std::string& v) { amd(d).simd_per_compute_unit = u32(v); }},
      {"SIMD width (AMD)", "CL_DEVICE_SIMD_WIDTH_AMD",
       [](DeviceInfo& d, const std::string& v) { amd(d).simd_width = u32(v); }},
      {"SIMD instruction width (AMD)", "CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD",
       [](DeviceInfo& d, const std::string& v) { amd(d).simd_instruction_width = u32(v); }},
      {"Graphics IP (AMD)", nullptr,
       [](DeviceInfo& d, const std::string& v) { major_minor(v, amd(d).gfxip_major, amd(d).gfxip_minor); }},
      {nullptr, "CL_DEVICE_GFXIP_MAJOR_AMD", [](DeviceInfo& d, const std::string& v) { amd(d).gfxip_major = u32(v); }},
      {nullptr, "CL_DEVICE_GFXIP_MINOR_AMD", [](DeviceInfo& d, const std::string& v) { amd(d).gfxip_minor = u32(v); }},
      {"Sub-group sizes (Intel)", "CL_DEVICE_SUB_GROUP_SIZES_INTEL",
       [](DeviceInfo& d, const std::string& v) {
         d.intel_sub_group_sizes.clear();
         for (const auto& w : split_words(v, " ,\t")) d.intel_sub_group_sizes.push_back(u32(w));
       }},
  };
  return table;
}

std::uint32_t* width_slot(VectorWidths& w, const std::string& type) {
  if (type == "char") return &w.char_;
  if (type == "short") return &w.short_;
  if (type == "int") return &w.int_;
  if (type == "long") return &w.long_;
  if (type == "half") return &w.half;
  if (type == "float") return &w.float_;
  if (type == "double") return &w.double_;
  return nullptr;
}

struct Platform {
  std::string name, vendor, version;
};

struct Line {
  std::string key, value;
  bool raw = false;
};

// Splits "  Label text     value" at the first run of two or more spaces
// (labels contain single spaces). Raw lines carry a "[SUFFIX/n]" prefix.
Line split_line(std::string s) {
  Line l;
  std::string t = trim(s);
  if (!t.empty() && t[0] == '[') {
    size_t close = t.find(']');
    if (close != std::string::npos) t = trim(t.substr(close + 1));
  }
  size_t gap = t.find("  ");
  size_t tab = t.find('\t');
  if (tab != std::string::npos && (gap == std::string::npos || tab < gap)) gap = tab;
  if (gap == std::string::npos) {
    l.key = t;
  } else {
    l.key = t.substr(0, gap);
    l.value = trim(t.substr(gap));
  }
  l.raw = l.key.rfind("CL_", 0) == 0 || l.key.rfind("#", 0) == 0;
  return l;
}

}  // namespace

std::vector<DeviceInfo> parse_clinfo(const std::string& given, const std::string& origin) {
  // clinfo --json (after any '#' comment lines): read as the --raw text it holds.
  std::string text = given;
  for (std::size_t at = 0; at < given.size();) {
    const std::size_t start = given.find_first_not_of(" \t\r\n", at);
    if (start == std::string::npos) break;
    if (given[start] == '{') {
      text = clinfo_json_as_raw(given.substr(start), origin);
      break;
    }
    if (given[start] != '#') break;
    at = given.find('\n', start);
  }
  std::vector<DeviceInfo> devices;
  std::vector<Platform> platforms;  // as listed in the platform section
  size_t device_sections = 0;       // "Number of devices" headers seen so far
  bool pending_platform = false;    // last "Platform Name" may head a device section
  Platform current_platform;
  bool in_vector_sizes = false;  // human form: inside "Preferred / native vector sizes"
  DeviceInfo* dev = nullptr;

  std::istringstream in(text);
  std::string raw_line;
  std::size_t line_no = 0;
  // A field's value that cannot be read names the input, line and field.
  auto set = [&](const std::string& key, const std::function<void()>& apply) {
    try {
      apply();
    } catch (const Error& e) {
      throw Error(origin + " line " + std::to_string(line_no) + ", field '" + key + "': " + e.what());
    }
  };
  while (std::getline(in, raw_line)) {
    ++line_no;
    std::string t = trim(raw_line);
    if (t.empty()) continue;
    // Comment lines (provenance headers), but not clinfo's raw "#PLATFORMS"/"#DEVICES".
    if (t[0] == '#' && t.rfind("#PLATFORMS", 0) != 0 && t.rfind("#DEVICES", 0) != 0 &&
        t.find("#DEVICES") == std::string::npos)
      continue;
    Line l = split_line(raw_line);
    const std::string& k = l.key;
    const std::string& v = l.value;

    if (k == "Platform Name" || k == "CL_PLATFORM_NAME") {
      platforms.push_back(Platform{v, "", ""});
      pending_platform = true;
      dev = nullptr;
      continue;
    }
    if ((k == "Platform Vendor" || k == "CL_PLATFORM_VENDOR") && !platforms.empty()) {
      platforms.back().vendor = v;
      pending_platform = false;
      continue;
    }
    if ((k == "Platform Version" || k == "CL_PLATFORM_VERSION") && !platforms.empty()) {
      platforms.back().version = v;
      pending_platform = false;
      continue;
    }
    if (k == "Number of devices" || k == "#DEVICES") {
      // The "Platform Name" just before this header repeats a listed
      // platform: drop the repeat and bind to the listed one, in order.
      std::string name = pending_platform && !platforms.empty() ? platforms.back().name : "";
      if (pending_platform && !platforms.empty()) platforms.pop_back();
      pending_platform = false;
      current_platform = Platform{name, "", ""};
      if (device_sections < platforms.size() && platforms[device_sections].name == name) {
        current_platform = platforms[device_sections];
      } else {
        for (const auto& p : platforms)
          if (p.name == name) current_platform = p;
      }
      ++device_sections;
      dev = nullptr;
      continue;
    }
    // clinfo's trailing sections describe the ICD loader and NULL-platform
    // behaviour; their "Device Name" lines repeat devices already read.
    if (k == "NULL platform behavior" || k == "ICD loader properties" || k == "CL_ICDL_NAME") break;
    if (k == "Device Name" || k == "CL_DEVICE_NAME") {
      devices.emplace_back();
      dev = &devices.back();
      dev->name = v;
      dev->platform_name = current_platform.name;
      dev->platform_vendor = current_platform.vendor;
      dev->platform_version = current_platform.version;
      dev->source = origin;
      in_vector_sizes = false;
      continue;
    }
    if (!dev) continue;

    if (k == "Preferred / native vector sizes") {
      in_vector_sizes = true;
      continue;
    }
    if (in_vector_sizes) {
      if (std::uint32_t* p = width_slot(dev->preferred_vector_width, k)) {
        // "16 / 16" or "1 / 8  (cl_khr_fp64)"
        auto parts = split_words(v, " /");
        set(k, [&] {
          if (!parts.empty()) *p = u32(parts[0]);
          if (parts.size() > 1) *width_slot(dev->native_vector_width, k) = u32(parts[1]);
        });
        continue;
      }
      in_vector_sizes = false;
    }
    static const std::string pref = "CL_DEVICE_PREFERRED_VECTOR_WIDTH_";
    static const std::string nat = "CL_DEVICE_NATIVE_VECTOR_WIDTH_";
    if (k.rfind(pref, 0) == 0 || k.rfind(nat, 0) == 0) {
      bool is_pref = k.rfind(pref, 0) == 0;
      std::string type = k.substr(is_pref ? pref.size() : nat.size());
      for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (std::uint32_t* p = width_slot(is_pref ? dev->preferred_vector_width : dev->native_vector_width, type))
        set(k, [&] { *p = u32(v); });
      continue;
    }
    for (const auto& f : fields()) {
      if ((f.human && k == f.human) || (f.raw && k == f.raw)) {
        set(k, [&] { f.set(*dev, v); });
        break;
      }
    }
  }
  if (devices.empty())
    throw Error("no OpenCL device found in the clinfo text from " + origin +
                " (expected 'Device Name' or CL_DEVICE_NAME lines as printed by clinfo or clinfo --raw)");
  for (DeviceInfo& d : devices) d.missing_fields = missing_rule_fields(d);
  return devices;
}

std::vector<DeviceInfo> parse_clinfo_file(const std::string& path) {
  std::string text, why;
  if (files::read_regular_file(path, text, files::kMaxDescriptionBytes, why) != files::ReadFailure::none)
    throw Error("clinfo file: " + why);
  return parse_clinfo(text, "clinfo:" + path);
}

}  // namespace portacl
