// SPDX-License-Identifier: Apache-2.0
// The device selector: the whole-selector forms ("2", "1:0", "gpu:1") and
// comma-separated conditions that must all hold ("gpu,name=H100",
// "cpu,fp64", "pocl"), read from the argument, PORTACL_DEVICE, or VexCL's
// OCL_DEVICE / OCL_PLATFORM / OCL_TYPE, so programs that already use those
// variables need no new ones.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>

#include "portacl/error.hpp"
#include "portacl/device.hpp"
#include "util/checked.hpp"
#include "../util/text.hpp"

namespace portacl {
namespace {

using text::lower;
using text::trim;

bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool contains(const std::string& haystack, const std::string& needle_lower) {
  return lower(haystack).find(needle_lower) != std::string::npos;
}

std::string listing(const std::vector<Device>& devs) {
  if (devs.empty())
    return "\nno OpenCL device is installed (is an ICD such as pocl-opencl-icd present, and OCL_ICD_VENDORS right?)";
  std::string s = "\navailable devices:";
  for (const auto& d : devs) s += "\n  " + d.describe();
  return s;
}

DeviceType type_named(const std::string& word) {
  const std::string w = lower(word);
  if (w == "gpu") return DeviceType::gpu;
  if (w == "cpu") return DeviceType::cpu;
  if (w == "accelerator" || w == "acc") return DeviceType::accelerator;
  return DeviceType::unknown;
}

using Test = std::function<bool(const Device&)>;

// One condition of a comma-separated selector. A bare word matches device
// names only when `names_only` (the first pass: "Tesla" should find the
// device before a platform that mentions it), else also platform names and
// vendors ("pocl" is PoCL's platform vendor).
Test condition(const std::string& term, bool names_only, const std::function<void(const std::string&)>& fail) {
  if (term.empty()) fail("an empty condition (two commas, or a comma at an end)");
  const DeviceType type = type_named(term);
  if (type != DeviceType::unknown) return [type](const Device& d) { return d.info().type == type; };
  const std::string word = lower(term);
  if (word == "fp64") return [](const Device& d) { return d.info().fp64; };
  if (word == "fp16") return [](const Device& d) { return d.info().fp16; };
  const auto eq = term.find('=');
  if (eq == std::string::npos) {
    return [word, names_only](const Device& d) {
      const DeviceInfo& i = d.info();
      return contains(i.name, word) || (!names_only && (contains(i.platform_name, word) ||
                                                        contains(i.platform_vendor, word) || contains(i.vendor, word)));
    };
  }
  const std::string key = lower(trim(term.substr(0, eq))), value = trim(term.substr(eq + 1));
  if (value.empty()) fail("condition '" + term + "' has no value after '='");
  const std::string v = lower(value);
  if (key == "name") return [v](const Device& d) { return contains(d.info().name, v); };
  if (key == "platform") return [v](const Device& d) { return contains(d.info().platform_name, v); };
  if (key == "vendor")
    return [v](const Device& d) { return contains(d.info().vendor, v) || contains(d.info().platform_vendor, v); };
  if (key == "ext") return [value](const Device& d) { return d.info().has_extension(value); };
  if (key == "type") {
    const DeviceType t = type_named(value);
    if (t == DeviceType::unknown) fail("type '" + value + "' is not gpu, cpu or accelerator");
    return [t](const Device& d) { return d.info().type == t; };
  }
  fail("'" + key + "' in '" + term + "' is not a condition (name=, platform=, vendor=, ext=, type=)");
  return nullptr;
}

// The selector VexCL's variables describe, "" when none is set.
std::string from_vexcl_variables() {
  std::string s;
  auto add = [&](const char* var, const std::string& key) {
    const char* v = std::getenv(var);
    if (!v || !*v) return;
    if (key == "type") {
      const std::string t = lower(v);
      if (t == "all" || t == "default") return;  // VexCL: no restriction
    }
    s += (s.empty() ? "" : ",") + key + "=" + v;
  };
  add("OCL_DEVICE", "name");
  add("OCL_PLATFORM", "platform");
  add("OCL_TYPE", "type");
  return s;
}

}  // namespace

Device select_device(const std::string& argument) {
  std::string selector = argument, from = "selector";
  if (selector.empty()) {
    if (const char* env = std::getenv("PORTACL_DEVICE"); env && *env) {
      selector = env;
      from = "PORTACL_DEVICE";
    } else if (!(selector = from_vexcl_variables()).empty()) {
      from = "OCL_DEVICE/OCL_PLATFORM/OCL_TYPE";
    }
  }
  const std::vector<Device> devs = all_devices();
  auto fail = [&](const std::string& why) {
    throw Error("no OpenCL device matches " + from + " '" + selector + "': " + why + listing(devs));
  };
  if (devs.empty()) throw Error("no OpenCL device available" + listing(devs));
  if (selector.empty()) {
    for (const auto& d : devs)
      if (d.info().type == DeviceType::gpu) return d;
    return devs.front();
  }
  if (all_digits(selector)) {
    const std::uint64_t i = parse_unsigned_or_throw(selector, "device index '" + selector + "'", UINT32_MAX);
    if (i < devs.size()) return devs[i];
    fail("index " + selector + " is out of range");
  }
  const std::size_t colon = selector.find(':');
  if (colon != std::string::npos) {
    const std::string left = selector.substr(0, colon), right = selector.substr(colon + 1);
    if (all_digits(left) && all_digits(right)) {
      const std::uint64_t pi = parse_unsigned_or_throw(left, "platform index", UINT32_MAX),
                          di = parse_unsigned_or_throw(right, "device index", UINT32_MAX);
      for (const auto& d : devs)
        if (d.platform_index() == pi && d.device_index() == di) return d;
      fail("no device " + right + " on platform " + left);
    }
    const DeviceType wanted = type_named(left);
    if (wanted != DeviceType::unknown) {
      if (!all_digits(right)) fail("'" + right + "' after ':' is not a number");
      const std::uint64_t nth = parse_unsigned_or_throw(right, "device number after '" + left + ":'", UINT32_MAX);
      std::uint64_t seen = 0;
      for (const auto& d : devs)
        if (d.info().type == wanted && seen++ == nth) return d;
      fail(seen ? "only " + std::to_string(seen) + " device(s) of type " + lower(left)
                : "no device of type " + lower(left));
    }
  }
  // Conditions, all of which must hold; bare words first as device names.
  for (bool names_only : {true, false}) {
    std::vector<Test> tests;
    std::size_t at = 0;
    while (true) {
      const std::size_t comma = selector.find(',', at);
      tests.push_back(condition(trim(selector.substr(at, comma - at)), names_only, fail));
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    for (const auto& d : devs)
      if (std::all_of(tests.begin(), tests.end(), [&](const Test& t) { return t(d); })) return d;
  }
  if (type_named(trim(selector)) != DeviceType::unknown) fail("no device of type " + lower(trim(selector)));
  fail(selector.find(',') == std::string::npos && selector.find('=') == std::string::npos
           ? "no device or platform name or vendor contains it"
           : "no device meets every condition");
  return devs.front();  // not reached
}

Device select_device(const std::function<bool(const Device&)>& accept) {
  const std::vector<Device> devs = all_devices();
  for (const auto& d : devs)
    if (accept(d)) return d;
  throw Error("no OpenCL device is accepted by the program's predicate" + listing(devs));
}

}  // namespace portacl
