// SPDX-License-Identifier: Apache-2.0
// portacl-query: what each OpenCL device is and what the runtime would
// choose for it, and why.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "../common/cli.hpp"
#include "report.hpp"

using namespace portacl;

namespace {

const char* kUsage =
    "usage: portacl-query [options]\n"
    "\n"
    "Lists every OpenCL platform and device with its portacl class, architecture\n"
    "and key properties, and the launch plan the runtime would use for a few\n"
    "representative kernels.\n"
    "\n"
    "options:\n"
    "  --device SEL        only the selected device (default: all devices)\n" PORTACL_CLI_DEVICE_SELECTORS
    "  --from-clinfo FILE  describe the device(s) in a clinfo, clinfo --raw or clinfo --json dump\n"
    "  --from-json FILE    describe the device(s) in a portacl JSON description\n"
    "  --explain           show the rule behind every decision\n"
    "  --rules             print the rule book the planner applies (Markdown table)\n"
    "  --quirks            the known driver and library bugs portacl works around, and\n"
    "                      which of them apply to each device (with --device or --from-*)\n"
    "  --group SEL         a device group (\"gpu+cpu\", \"cpu/2\", \"all\"): its members, the split\n"
    "                      weights stored for them (portacl-tune --group measures them) and\n"
    "                      how a million rows would be split\n"
    "  --json              machine-readable output\n"
    "  --version           print the version\n"
    "  -h, --help          this text\n"
    "\n"
    "exit status: 0 success, 1 runtime error (no device, unreadable file), 2 usage error\n"
    "environment: PORTACL_DEVICE picks the default device of every portacl program.\n";

struct Args {
  std::string device, from_clinfo, from_json, group;
  bool explain = false, json = false, device_given = false, quirks = false;
};

int usage_error(const std::string& msg) {
  std::cerr << "portacl-query: " << msg << "\n(try --help)\n";
  return 2;
}

// --group: the members, their stored weights, a sample split.
int group_report(const Args& a) {
  DeviceGroup group(a.group);
  Json report = Json::object();
  std::ostringstream text;
  text << "device group '" << a.group << "':\n" << group.describe();
  for (GroupWorkload w : {GroupWorkload::memory, GroupWorkload::compute}) {
    const std::optional<GroupCalibration> c = stored_group_weights(group, w);
    Json weights = Json::array();
    if (c)
      for (double v : c->weights) weights.push_back(v);
    report[std::string(to_string(w)) + "_weights"] = c ? weights : Json();
    text << to_string(w) << " weights: "
         << (c ? "\n" + c->why : "none stored (portacl-tune --group '" + a.group + "' measures them); 1 each\n");
    if (w == GroupWorkload::memory && c) group.set_weights(c->weights);
  }
  text << "a split of 1000000 rows (memory weights), rule group.split: " << group.explain_split(1000000) << "\n";
  report["selector"] = a.group;
  report["members"] = group.describe();
  report["split_of_1000000"] = group.explain_split(1000000);
  if (a.json)
    std::cout << report.dump(2) << "\n";
  else
    std::cout << text.str();
  return 0;
}

int run(const Args& a) {
  if (!a.group.empty()) return group_report(a);
  Json all = Json::object();
  Json list = Json::array();
  std::ostringstream text;
  auto emit = [&](const DeviceInfo& d, const std::string& heading) {
    if (a.quirks)
      text << portacl_query::quirks_report(d, heading);
    else if (a.json)
      list.push_back(portacl_query::json_report(d));
    else
      text << portacl_query::text_report(d, heading, a.explain) << "\n";
  };
  if (a.quirks) text << portacl_query::quirk_book_report() << "\n";
  if (!a.from_clinfo.empty() || !a.from_json.empty()) {
    std::vector<DeviceInfo> devs =
        a.from_clinfo.empty() ? DeviceInfo::from_json_file(a.from_json) : parse_clinfo_file(a.from_clinfo);
    unsigned i = 0;
    for (const auto& d : devs) {
      if (!d.missing_fields.empty()) {
        std::string list;
        for (const auto& f : d.missing_fields) list += (list.empty() ? "" : ", ") + f;
        std::cerr << "portacl-query: warning: " << d.source << " gives no " << list << " for '" << d.name
                  << "'; the rules read them as unknown (a truncated or partial dump?)\n";
      }
      emit(d, "[" + std::to_string(i++) + "] (" + d.source + ")");
    }
  } else if (a.device_given) {
    Device d = select_device(a.device);
    emit(d.info(), "[" + std::to_string(d.index()) + "]");
  } else {
    std::vector<Device> devs = all_devices();
    if (devs.empty()) throw Error("no OpenCL device available (is an ICD such as pocl-opencl-icd installed?)");
    for (const auto& d : devs)
      emit(d.info(), "[" + std::to_string(d.index()) + "] platform " + std::to_string(d.platform_index()) +
                         ", device " + std::to_string(d.device_index()) + ":");
  }
  if (a.json && !a.quirks) {
    all["portacl_version"] = PORTACL_VERSION_STRING;
    all["devices"] = list;
    std::cout << all.dump(2) << "\n";
  } else {
    std::cout << text.str();
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  use_tuning_databases();  // plans show a tuned result for this device, and where it came from
  try {
    for (cli::Arguments args(argc, argv); args.next();) {
      const std::string& arg = args.arg();
      if (cli::help_or_version(args, "portacl-query", kUsage)) {
        return 0;
      } else if (arg == "--rules") {
        std::cout << "| rule | class | section | statement |\n|---|---|---|---|\n";
        for (const auto& r : rule_book())
          std::cout << "| `" << r.id << "` | " << r.device_class << " | " << r.section << " | " << r.statement
                    << " |\n";
        return 0;
      } else if (arg == "--quirks") {
        a.quirks = true;
      } else if (arg == "--explain") {
        a.explain = true;
      } else if (arg == "--json") {
        a.json = true;
      } else if (arg == "--device") {
        a.device = args.value();
        a.device_given = true;
      } else if (arg == "--group") {
        a.group = args.value();
      } else if (arg == "--from-clinfo") {
        a.from_clinfo = args.value();
      } else if (arg == "--from-json") {
        a.from_json = args.value();
      } else {
        return usage_error("unknown option '" + arg + "'");
      }
    }
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  if (!a.from_clinfo.empty() && !a.from_json.empty())
    return usage_error("--from-clinfo and --from-json exclude each other");
  if (!a.group.empty() && (a.device_given || !a.from_clinfo.empty() || !a.from_json.empty() || a.quirks))
    return usage_error(
        "--group describes a live device group; it does not combine with --device, --from-* or --quirks");
  if (a.device_given && (!a.from_clinfo.empty() || !a.from_json.empty()))
    return usage_error("--device selects a live device; it does not combine with --from-clinfo/--from-json");
  try {
    return run(a);
  } catch (const std::exception& e) {
    std::cerr << "portacl-query: " << e.what() << "\n";
    return 1;
  }
}
