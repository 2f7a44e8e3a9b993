// SPDX-License-Identifier: Apache-2.0
#include "clinfo_json.hpp"

#include <cmath>
#include <sstream>

#include "portacl/error.hpp"
#include "portacl/json.hpp"

namespace portacl {
namespace {

// One value as --raw prints it: numbers in decimal, booleans as CL_TRUE /
// CL_FALSE, lists space-separated, flag sets ({"raw": 2, "type":
// ["CL_DEVICE_TYPE_CPU"]}) as their names joined by " | ". Nested records
// the parser does not read (versions with "raw") become "".
std::string raw_text(const Json& v) {
  switch (v.kind()) {
    case Json::Kind::string: return v.as_string();
    case Json::Kind::boolean: return v.as_bool() ? "CL_TRUE" : "CL_FALSE";
    case Json::Kind::number: {
      std::ostringstream s;
      s.precision(17);
      s << v.as_number();
      return s.str();
    }
    case Json::Kind::array: {
      std::string out;
      for (const Json& e : v.as_array()) out += (out.empty() ? "" : " ") + raw_text(e);
      return out;
    }
    case Json::Kind::object:
      for (const auto& [key, member] : v.as_object())
        if (key != "raw" && member.is_array()) {
          std::string out;
          for (const Json& e : member.as_array()) out += (out.empty() ? "" : " | ") + raw_text(e);
          return out;
        }
      return "";
    default: return "";
  }
}

// The record's name first (CL_PLATFORM_NAME, CL_DEVICE_NAME: the parser
// starts a record there), then the other fields.
void add_fields(std::string& out, const std::string& tag, const Json& record, const char* name_key) {
  if (const Json* name = record.find(name_key)) out += tag + "  " + name_key + "  " + raw_text(*name) + "\n";
  for (const auto& [key, value] : record.as_object()) {
    if (key == name_key) continue;
    const std::string text = raw_text(value);
    // The parser splits a line at its first run of two spaces: keep
    // values on one line.
    if (text.find('\n') != std::string::npos) continue;
    out += tag + "  " + key + "  " + text + "\n";
  }
}

}  // namespace

std::string clinfo_json_as_raw(const std::string& text, const std::string& origin) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Error& e) {
    throw Error(origin + " is not clinfo --json output: " + e.what());
  }
  const Json* platforms = j.is_object() ? j.find("platforms") : nullptr;
  const Json* devices = j.is_object() ? j.find("devices") : nullptr;
  if (!platforms || !devices || !platforms->is_array() || !devices->is_array())
    throw Error(origin + " is not clinfo --json output: it lacks the \"platforms\" and \"devices\" arrays");
  const auto& ps = platforms->as_array();
  const auto& ds = devices->as_array();
  if (ps.size() != ds.size())
    throw Error(origin + ": clinfo --json lists " + std::to_string(ps.size()) + " platforms but " +
                std::to_string(ds.size()) + " device sections");
  std::string out = "#PLATFORMS  " + std::to_string(ps.size()) + "\n";
  for (const Json& p : ps) {
    if (!p.is_object()) throw Error(origin + ": a platform of clinfo --json is not a JSON object");
    add_fields(out, "", p, "CL_PLATFORM_NAME");
  }
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const std::string tag = "[P" + std::to_string(i);
    const Json* name = ps[i].find("CL_PLATFORM_NAME");
    out += tag + "/*]  CL_PLATFORM_NAME  " + (name && name->is_string() ? name->as_string() : "") + "\n";
    const Json* online = ds[i].is_object() ? ds[i].find("online") : nullptr;
    const std::size_t count = online && online->is_array() ? online->as_array().size() : 0;
    out += tag + "/*]  #DEVICES  " + std::to_string(count) + "\n";
    for (std::size_t k = 0; k < count; ++k) {
      const Json& d = online->as_array()[k];
      if (!d.is_object())
        throw Error(origin + ": device " + std::to_string(k) + " of platform " + std::to_string(i) +
                    " is not a JSON object");
      add_fields(out, tag + "/" + std::to_string(k) + "]", d, "CL_DEVICE_NAME");
    }
  }
  return out;
}

}  // namespace portacl
