// SPDX-License-Identifier: Apache-2.0
#include "portacl/device.hpp"

#include <algorithm>
#include <cctype>

#include "portacl/error.hpp"
#include "util/checked.hpp"
#include "../util/text.hpp"

namespace portacl {
namespace {

using text::lower;

bool contains(const std::string& hay, const char* needle) {
  return lower(hay).find(lower(needle)) != std::string::npos;
}

bool is_nvidia(const DeviceInfo& d) {
  return d.vendor_id == 0x10de || contains(d.vendor, "nvidia") || d.nvidia.has_value();
}
bool is_amd(const DeviceInfo& d) {
  return d.vendor_id == 0x1002 || contains(d.vendor, "advanced micro devices") || lower(d.vendor) == "amd" ||
         d.amd.has_value();
}
bool is_intel(const DeviceInfo& d) { return contains(d.vendor, "intel") || (d.vendor_id == 0x8086 && !is_amd(d)); }
bool is_mic_name(const DeviceInfo& d) {
  // "MIC" only as a whole upper-case word: "Micro" must not match.
  const std::string& n = d.name;
  size_t p = n.find("MIC");
  bool mic_word = p != std::string::npos && (p == 0 || !std::isalpha(static_cast<unsigned char>(n[p - 1]))) &&
                  (p + 3 >= n.size() || !std::isalpha(static_cast<unsigned char>(n[p + 3])));
  return contains(n, "many integrated core") || contains(n, "xeon phi") || mic_word;
}

// GCN generations by gfx IP major version; 10+ is RDNA, below 6 is VLIW.
std::string gcn_generation(std::uint32_t major, std::uint32_t minor) {
  switch (major) {
    case 6: return "GCN 1";
    case 7: return "GCN 2";
    case 8: return minor >= 1 ? "GCN 4" : "GCN 3";
    case 9: return "GCN 5 / CDNA";
    default: return "";
  }
}

// gfx IP from names such as "gfx902", "gfx90a", "gfx1032" (ROCm reports the
// ISA name as the device name and no attribute on some drivers).
bool gfxip_from_name(const std::string& name, std::uint32_t& major, std::uint32_t& minor) {
  std::string n = lower(name);
  size_t p = n.find("gfx");
  if (p == std::string::npos) return false;
  std::string digits;
  for (size_t i = p + 3; i < n.size() && std::isxdigit(static_cast<unsigned char>(n[i])); ++i) digits += n[i];
  if (digits.size() < 3) return false;
  // The last two characters are minor and stepping; the rest is the major.
  std::string maj = digits.substr(0, digits.size() - 2);
  // Digits only, and small: "gfx99999999999999999999" is not an IP version.
  const auto major_value = parse_unsigned(maj, false, 99);
  if (!major_value) return false;
  major = static_cast<std::uint32_t>(*major_value);
  minor = static_cast<std::uint32_t>(*parse_unsigned("0x" + digits.substr(digits.size() - 2, 1), true));
  return true;
}

// Marketing / code names of AMD GPUs, for descriptions without attributes
// (Mesa Clover, old drivers).
int amd_family_from_name(const std::string& name) {
  static const char* gcn[] = {"tahiti", "pitcairn", "verde", "oland", "hainan",  "bonaire", "hawaii",    "kaveri",
                              "kabini", "mullins",  "tonga", "fiji",  "carrizo", "stoney",  "ellesmere", "baffin",
                              "lexa",   "polaris",  "vega",  "raven", "renoir",  "mi25",    "mi50",      "mi60",
                              "mi100",  "mi200",    "mi210", "mi250", "mi300"};
  static const char* vliw[] = {"cypress", "cayman", "juniper",    "redwood",  "cedar",       "barts",    "turks",
                               "caicos",  "rv7",    "devastator", "scrapper", "beavercreek", "wrestler", "loveland"};
  static const char* rdna[] = {"navi", "gfx10", "gfx11", "gfx12", "rx 5", "rx 6", "rx 7", "rx 9"};
  std::string n = lower(name);
  for (auto k : rdna)
    if (n.find(k) != std::string::npos) return 2;
  for (auto k : gcn)
    if (n.find(k) != std::string::npos) return 1;
  for (auto k : vliw)
    if (n.find(k) != std::string::npos) return 0;
  return -1;
}

std::uint32_t cpu_simd_floats(const DeviceInfo& d, std::string& how) {
  // Intel's CPU runtime reports preferred width 1 (it vectorises across
  // work-items itself) and the true width as the native one: take the larger.
  std::uint32_t w = std::max(d.native_vector_width.float_, d.preferred_vector_width.float_);
  if (w >= 4) {
    how = "native float vector width " + std::to_string(w);
    return w;
  }
  how = "no float vector width reported; assuming 128-bit SIMD";
  return 4;
}

std::string simd_name(std::uint32_t floats) {
  switch (floats) {
    case 4: return "SSE/NEON 128-bit";
    case 8: return "AVX/AVX2 256-bit";
    case 16: return "AVX-512 512-bit";
    default: return std::to_string(floats * 32) + "-bit SIMD";
  }
}

}  // namespace

std::string to_string(DeviceClass c) {
  switch (c) {
    case DeviceClass::cpu: return "cpu";
    case DeviceClass::nvidia_gpu: return "nvidia_gpu";
    case DeviceClass::amd_gcn_gpu: return "amd_gcn_gpu";
    case DeviceClass::intel_mic: return "intel_mic";
    case DeviceClass::amd_gpu_other: return "amd_gpu_other";
    case DeviceClass::intel_gpu: return "intel_gpu";
    case DeviceClass::other_gpu: return "other_gpu";
    case DeviceClass::other_accelerator: return "other_accelerator";
  }
  return "?";
}

DeviceClass device_class_from_string(const std::string& s) {
  for (auto c :
       {DeviceClass::cpu, DeviceClass::nvidia_gpu, DeviceClass::amd_gcn_gpu, DeviceClass::intel_mic,
        DeviceClass::amd_gpu_other, DeviceClass::intel_gpu, DeviceClass::other_gpu, DeviceClass::other_accelerator})
    if (to_string(c) == s) return c;
  throw Error("unknown device class '" + s + "'");
}

Classification classify(const DeviceInfo& d) {
  Classification c;
  // A Xeon Phi coprocessor reports ACCELERATOR (and some old runtimes CPU);
  // its name is the reliable sign, so test it before the CPU rule.
  if (is_intel(d) && is_mic_name(d) && (d.type == DeviceType::accelerator || d.type == DeviceType::cpu)) {
    c.device_class = DeviceClass::intel_mic;
    c.simd_width_float = 16;
    c.execution_width = 16;
    c.architecture = "Knights Corner 512-bit VPU (16 floats / 8 doubles)";
    c.reason = "Intel device named '" + d.name + "' of type " + to_string(d.type) + ": a Xeon Phi (MIC) coprocessor";
    return c;
  }
  if (d.type == DeviceType::cpu) {
    std::string how;
    c.device_class = DeviceClass::cpu;
    c.simd_width_float = cpu_simd_floats(d, how);
    c.execution_width = c.simd_width_float;
    c.architecture = simd_name(c.simd_width_float) + " (" + std::to_string(c.simd_width_float) + " floats)";
    c.reason = "CL_DEVICE_TYPE_CPU; SIMD width from " + how;
    return c;
  }
  if (d.type == DeviceType::gpu && is_nvidia(d)) {
    c.device_class = DeviceClass::nvidia_gpu;
    c.execution_width = d.nvidia && d.nvidia->warp_size ? d.nvidia->warp_size : 32;
    if (d.nvidia && d.nvidia->compute_capability_major) {
      auto ma = d.nvidia->compute_capability_major, mi = d.nvidia->compute_capability_minor;
      c.architecture = "compute capability " + std::to_string(ma) + "." + std::to_string(mi) + " (sm_" +
                       std::to_string(ma) + std::to_string(mi) + ")";
    } else {
      c.architecture = "compute capability unknown (no cl_nv_device_attribute_query)";
    }
    c.reason = "GPU from NVIDIA (vendor '" + d.vendor + "'); warp " + std::to_string(c.execution_width) +
               (d.nvidia && d.nvidia->warp_size ? " from CL_DEVICE_WARP_SIZE_NV" : " (NVIDIA's fixed warp width)");
    return c;
  }
  if (d.type == DeviceType::gpu && is_amd(d)) {
    std::uint32_t major = 0, minor = 0;
    std::string from;
    if (d.amd && d.amd->gfxip_major) {
      major = d.amd->gfxip_major;
      minor = d.amd->gfxip_minor;
      from = "CL_DEVICE_GFXIP_MAJOR_AMD";
    } else if (gfxip_from_name(d.name, major, minor)) {
      from = "the device name";
    }
    std::uint32_t wave = d.amd && d.amd->wavefront_width ? d.amd->wavefront_width : 0;
    bool gcn = false;
    if (major) {
      gcn = major >= 6 && major <= 9;
    } else {
      int fam = amd_family_from_name(d.name + " " + (d.amd ? d.amd->board_name : ""));
      gcn = fam == 1 || (fam < 0 && wave == 64);
      from = fam >= 0 ? "the device's code name" : (wave ? "the wavefront width" : "nothing");
    }
    c.device_class = gcn ? DeviceClass::amd_gcn_gpu : DeviceClass::amd_gpu_other;
    c.execution_width = wave ? wave : (gcn ? 64 : (major >= 10 ? 32 : 64));
    if (major)
      c.architecture =
          "gfx IP " + std::to_string(major) + "." + std::to_string(minor) +
          (gcn ? " (" + gcn_generation(major, minor) + ")" : (major >= 10 ? " (RDNA)" : " (pre-GCN VLIW)"));
    else
      c.architecture = gcn ? "GCN (gfx IP unknown)" : "non-GCN AMD GPU (gfx IP unknown)";
    c.reason = "GPU from AMD; architecture from " + from + "; wavefront " + std::to_string(c.execution_width);
    return c;
  }
  if (d.type == DeviceType::gpu && is_intel(d)) {
    c.device_class = DeviceClass::intel_gpu;
    // The hardware is SIMD8; the compiler picks the width per kernel and
    // usually takes 16, though it advertises 8, 16 and 32. So the width is
    // the compiler's preferred multiple when the description has it, else
    // 16 when offered, never simply the largest advertised size.
    const auto& sizes = d.intel_sub_group_sizes;
    const bool offers_16 = std::find(sizes.begin(), sizes.end(), 16u) != sizes.end();
    c.execution_width = d.preferred_work_group_multiple ? d.preferred_work_group_multiple
                        : offers_16 || sizes.empty()    ? 16
                                                        : *std::max_element(sizes.begin(), sizes.end());
    c.architecture = "Intel GPU, sub-group width " + std::to_string(c.execution_width);
    c.reason = std::string("GPU from Intel; execution width ") +
               (d.preferred_work_group_multiple ? "from the compiler's preferred work-group multiple"
                                                : "16, the compiler's usual choice on SIMD8 hardware");
    return c;
  }
  if (d.type == DeviceType::gpu) {
    c.device_class = DeviceClass::other_gpu;
    c.execution_width = d.preferred_work_group_multiple ? d.preferred_work_group_multiple : 32;
    c.architecture = "GPU from '" + d.vendor + "'";
    c.reason = "GPU of a vendor without chapter-1 rules; generic GPU rules apply";
    return c;
  }
  c.device_class = DeviceClass::other_accelerator;
  c.execution_width = d.preferred_work_group_multiple ? d.preferred_work_group_multiple : 1;
  c.architecture = to_string(d.type) + " device from '" + d.vendor + "'";
  c.reason = "not a CPU or GPU and not a Xeon Phi; generic rules apply";
  return c;
}

}  // namespace portacl
