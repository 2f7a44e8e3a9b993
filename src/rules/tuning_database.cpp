// SPDX-License-Identifier: Apache-2.0
#include "rules/tuning_database.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <mutex>
#include <set>

#include "../util/files.hpp"
#include "../util/install_paths.hpp"
#include "portacl/device.hpp"
#include "portacl/error.hpp"
#include "portacl/plan.hpp"
#include "util/checked.hpp"
#include "rules/plan_provider.hpp"

namespace portacl {

namespace {

const char* kFormat = "portacl-tuning";

TimingSummary timing_of(const Json& j, const char* what) {
  TimingSummary t;
  j.as_object(what);
  const Json* f;
  if ((f = j.find("min_ms"))) t.min_ms = f->as_number("min_ms");
  if ((f = j.find("median_ms"))) t.median_ms = f->as_number("median_ms");
  if ((f = j.find("max_ms"))) t.max_ms = f->as_number("max_ms");
  if ((f = j.find("repetitions"))) t.repetitions = static_cast<unsigned>(f->as_u64("repetitions"));
  return t;
}

const Json& required(const Json& j, const char* key) {
  const Json* f = j.find(key);
  if (!f) throw Error(std::string("missing field '") + key + "'");
  return *f;
}

std::string optional_string(const Json& j, const char* key) {
  const Json* f = j.find(key);
  return f ? f->as_string(key) : std::string();
}

// The fields that make two records the same slot (DeviceFingerprint's
// equality: platform, name, driver, compute units), joined unambiguously.
std::string slot_key(const TuningRecord& r) {
  std::string key;
  for (const std::string* s : {&r.device.platform, &r.device.device, &r.device.driver, &r.kernel, &r.element}) {
    key += std::to_string(s->size());
    key += ':';
    key += *s;
  }
  key += '/' + std::to_string(r.device.compute_units) + '/' + std::to_string(r.bucket);
  return key;
}

}  // namespace

DeviceFingerprint DeviceFingerprint::of(const DeviceInfo& d) {
  const Classification c = classify(d);
  std::string arch;
  // Only architectures the classifier identified share results.
  const bool known = c.device_class != DeviceClass::other_gpu && c.device_class != DeviceClass::other_accelerator &&
                     c.architecture.find("unknown") == std::string::npos;
  if (known) {
    arch = portacl::to_string(c.device_class) + "/" + c.architecture;
    if (c.device_class == DeviceClass::cpu) arch += "/" + d.vendor;  // SIMD width and vendor
  }
  return DeviceFingerprint{d.platform_name, d.name, d.driver_version, d.compute_units, arch};
}

bool DeviceFingerprint::operator==(const DeviceFingerprint& o) const {
  return platform == o.platform && device == o.device && driver == o.driver && compute_units == o.compute_units;
}

bool DeviceFingerprint::same_device(const DeviceFingerprint& o) const {
  return device == o.device && compute_units == o.compute_units;
}

bool DeviceFingerprint::same_architecture(const DeviceFingerprint& o) const {
  return !architecture.empty() && architecture == o.architecture;
}

std::string to_string(MatchTier t) {
  switch (t) {
    case MatchTier::exact: return "tier 1, this device and driver";
    case MatchTier::same_device: return "tier 2, this device under another driver";
    case MatchTier::same_architecture: return "tier 3, another device of this architecture";
  }
  return "?";
}

std::string DeviceFingerprint::to_string() const {
  return device + " (" + platform + ", driver " + driver + ", " + std::to_string(compute_units) + " CUs)";
}

Json to_json(const TimingSummary& t) {
  Json j = Json::object();
  j["min_ms"] = t.min_ms;
  j["median_ms"] = t.median_ms;
  j["max_ms"] = t.max_ms;
  j["repetitions"] = t.repetitions;
  return j;
}

unsigned size_bucket(std::size_t n) {
  return n <= 1 ? 0 : static_cast<unsigned>(std::lround(std::log2(static_cast<double>(n))));
}

std::string TuningDatabase::user_path() {
  if (const char* env = std::getenv("PORTACL_TUNING_DB"))
    if (*env) return env;
  return files::user_cache_path("tuning.json");
}

std::vector<std::string> TuningDatabase::shipped_paths() {
  std::vector<std::string> dirs = install_paths::path_list(std::getenv("PORTACL_TUNING_PATH"));
  const std::string data = install_paths::data_directory();
  if (!data.empty()) dirs.push_back(data + "/tuning");
  std::vector<std::string> paths;
  for (const auto& dir : dirs) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) continue;
    std::vector<std::string> here;
    while (dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) here.push_back(dir + "/" + name);
    }
    ::closedir(d);
    std::sort(here.begin(), here.end());
    paths.insert(paths.end(), here.begin(), here.end());
  }
  return paths;
}

Json TuningDatabase::to_json() const {
  Json j = Json::object();
  j["format"] = kFormat;
  j["version"] = format_version;
  Json list = Json::array();
  for (const auto& r : records_) {
    Json e = Json::object();
    Json dev = Json::object();
    dev["platform"] = r.device.platform;
    dev["name"] = r.device.device;
    dev["driver"] = r.device.driver;
    dev["compute_units"] = r.device.compute_units;
    if (!r.device.architecture.empty()) dev["architecture"] = r.device.architecture;
    e["device"] = dev;
    e["kernel"] = r.kernel;
    e["element"] = r.element;
    e["bucket"] = r.bucket;
    e["n"] = static_cast<unsigned long long>(r.n);
    Json config = Json::object();
    for (const auto& kv : r.configuration) config[kv.first] = kv.second;
    for (const auto& kv : r.named) config[kv.first] = kv.second;
    e["configuration"] = config;
    e["tuned"] = portacl::to_json(r.tuned);
    e["rules"] = portacl::to_json(r.rules);
    e["clock"] = r.clock;
    e["strategy"] = r.strategy;
    e["tried"] = r.tried;
    e["valid"] = r.valid;
    e["rejected"] = r.rejected;
    e["tuned_at"] = r.tuned_at;
    e["tool"] = r.tool;
    list.push_back(e);
  }
  j["records"] = list;
  return j;
}

namespace {

// What a knob's value name looks like ("csr-vector"): a letter first, then
// letters, digits, '-', '_' or '.'. A number in quotes ("256") is not one:
// a numeric knob's value written as text is refused where it is read.
bool value_name(const std::string& s) {
  if (s.empty() || s.size() > 64 || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

}  // namespace

TuningDatabase TuningDatabase::from_json(const Json& j, std::vector<std::string>* skipped) {
  if (!j.is_object()) throw Error("not a JSON object");
  const Json* format = j.find("format");
  if (!format || !format->is_string() || format->as_string() != kFormat)
    throw Error("not a portacl tuning database (no \"format\": \"portacl-tuning\")");
  const Json& version = required(j, "version");
  if (version.as_number("version") != format_version)
    throw Error("format version " + version.dump() + ", this library reads version " + std::to_string(format_version));
  TuningDatabase db;
  std::size_t index = 0;
  for (const Json& e : required(j, "records").as_array("records")) {
    try {
      TuningRecord r;
      const Json& dev = required(e, "device");
      r.device.platform = required(dev, "platform").as_string("device.platform");
      r.device.device = required(dev, "name").as_string("device.name");
      r.device.driver = required(dev, "driver").as_string("device.driver");
      r.device.compute_units = static_cast<unsigned>(required(dev, "compute_units").as_u64("device.compute_units"));
      r.device.architecture = optional_string(dev, "architecture");
      r.kernel = required(e, "kernel").as_string("kernel");
      // The packed symmetric product's key was "spmv" until spmv came to name
      // only the sparse product: its older records keep their meaning.
      if (r.kernel == "spmv") r.kernel = "packed_symv";
      r.element = required(e, "element").as_string("element");
      r.bucket = static_cast<unsigned>(required(e, "bucket").as_u64("bucket"));
      if (const Json* n = e.find("n")) r.n = static_cast<std::size_t>(n->as_u64("n"));
      for (const auto& kv : required(e, "configuration").as_object("configuration")) {
        if (kv.second.is_string() && value_name(kv.second.as_string())) {  // stored by name (Tunable::names)
          r.named[kv.first] = kv.second.as_string();
          continue;
        }
        // Knob values are small whole numbers: NaN, fractions, negatives and
        // huge values reject the record (no undefined float-to-int cast).
        const auto v = exact_integer(kv.second.as_number(kv.first.c_str()), 0, kMaxKnobValue);
        if (!v)
          throw Error("configuration value " + kv.first + "=" + kv.second.dump() + " is not a whole number from 0 to " +
                      std::to_string(kMaxKnobValue) + " nor a value's name");
        r.configuration[kv.first] = static_cast<long>(*v);
      }
      if (const Json* t = e.find("tuned")) r.tuned = timing_of(*t, "tuned");
      if (const Json* t = e.find("rules")) r.rules = timing_of(*t, "rules");
      if (const Json* c = e.find("clock")) r.clock = c->as_string("clock");
      r.strategy = optional_string(e, "strategy");
      if (const Json* f = e.find("tried")) r.tried = static_cast<unsigned>(f->as_u64("tried"));
      if (const Json* f = e.find("valid")) r.valid = static_cast<unsigned>(f->as_u64("valid"));
      if (const Json* f = e.find("rejected")) r.rejected = static_cast<unsigned>(f->as_u64("rejected"));
      r.tuned_at = optional_string(e, "tuned_at");
      r.tool = optional_string(e, "tool");
      db.put(r);
    } catch (const Error& err) {
      // One bad record costs only itself: the others stay usable.
      const std::string what = "record " + std::to_string(index) + " skipped: " + err.what();
      if (!skipped) throw Error(what);
      skipped->push_back(what);
    }
    ++index;
  }
  return db;
}

TuningDatabase TuningDatabase::load(const std::string& path, std::vector<std::string>* warnings) {
  TuningDatabase db;
  db.origin = path;
  std::string text, why;
  const files::ReadFailure failure = files::read_regular_file(path, text, files::kMaxTuningDatabaseBytes, why);
  if (failure == files::ReadFailure::missing) return db;  // no tuning yet
  if (failure != files::ReadFailure::none) {
    if (warnings) warnings->push_back(path + ": ignored: " + why);
    return db;
  }
  try {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw Error("the file is empty");
    std::vector<std::string> skipped;
    db = from_json(Json::parse(text), &skipped);
    db.origin = path;
    if (warnings)
      for (const auto& s : skipped) warnings->push_back(path + ": " + s);
  } catch (const Error& e) {
    if (warnings) warnings->push_back(path + ": ignored: " + e.what());
  }
  return db;
}

std::string TuningDatabase::writable_problem(const std::string& given) {
  if (given.empty()) return "no tuning database path: set PORTACL_TUNING_DB or HOME";
  const std::string path = files::resolve_links(given);
  const std::string named = path == given ? "'" + given + "'" : "'" + given + "' (a link to '" + path + "')";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) return "tuning database " + named + " is not a regular file (a directory?)";
    if (::access(path.c_str(), R_OK | W_OK) != 0)
      return "tuning database " + named + " is not readable and writable by this user: " + std::strerror(errno);
  }
  const std::string dir = files::directory_of(path);
  if (int err = files::make_dirs(dir))
    return "tuning database directory '" + dir + "' cannot be created: " + std::strerror(err);
  if (::access(dir.c_str(), W_OK) != 0)
    return "tuning database directory '" + dir + "' is not writable: " + std::strerror(errno);
  return "";
}

void TuningDatabase::put(const TuningRecord& r) {
  // Indexed by slot, so loading n records is n log n, not n^2.
  const auto [it, added] = index_.emplace(slot_key(r), records_.size());
  if (added)
    records_.push_back(r);
  else
    records_[it->second] = r;
}

const TuningRecord* TuningDatabase::find(const DeviceFingerprint& device, const std::string& kernel,
                                         const std::string& element, std::size_t n, MatchTier tier, int reach) const {
  const int want = static_cast<int>(size_bucket(n));
  const TuningRecord* best = nullptr;
  auto matches = [&](const DeviceFingerprint& stored) {
    switch (tier) {
      case MatchTier::exact: return stored == device;
      case MatchTier::same_device: return stored.same_device(device);
      case MatchTier::same_architecture: return stored.same_architecture(device);
    }
    return false;
  };
  for (const auto& r : records_) {
    if (!matches(r.device) || r.kernel != kernel || r.element != element) continue;
    const int d = std::abs(static_cast<int>(r.bucket) - want);
    if (d > std::min(reach, kNearbyBuckets)) continue;  // rule tuning.nearby-bucket
    const int best_d = best ? std::abs(static_cast<int>(best->bucket) - want) : 0;
    // Nearest bucket; on a tie the larger one (its launch shape still
    // covers the problem by grid stride).
    if (!best || d < best_d || (d == best_d && r.bucket > best->bucket)) best = &r;
  }
  return best;
}

void TuningDatabase::merge_into_file(const std::string& given, const std::vector<TuningRecord>& records,
                                     std::vector<std::string>* notes) {
  // Checked first, so nothing below can replace what it could not read.
  if (const std::string problem = writable_problem(given); !problem.empty())
    throw Error(problem + " (set PORTACL_TUNING_DB to a writable file)");
  const std::string path = files::resolve_links(given);  // write the link's target
  files::FileLock lock(path + ".lock");
  TuningDatabase db;
  std::string text, why;
  const files::ReadFailure failure = files::read_regular_file(path, text, files::kMaxTuningDatabaseBytes, why);
  if (failure != files::ReadFailure::none && failure != files::ReadFailure::missing)
    throw Error("tuning database: " + why + "; not replacing it");
  auto set_aside = [&](const std::string& reason) {
    // A copy under a unique name: the records in it are never lost.
    const std::string aside = files::unique_sibling(path, "set-aside");
    const std::string failed = files::write_atomically(aside, text);
    if (!failed.empty())
      throw Error("tuning database '" + path + "' " + reason + " and cannot be copied aside: " + failed);
    if (notes) notes->push_back(path + " " + reason + "; its previous contents are kept as " + aside);
  };
  if (failure == files::ReadFailure::none) {
    try {
      std::vector<std::string> skipped;
      db = from_json(Json::parse(text), &skipped);
      if (!skipped.empty())
        set_aside("had " + std::to_string(skipped.size()) + " unusable record(s) (" + skipped[0] + ")");
    } catch (const Error& e) {
      set_aside(std::string("was unreadable (") + e.what() + ")");
      db = TuningDatabase();
    }
  }
  for (const auto& r : records) db.put(r);
  const std::string failed = files::write_atomically(path, db.to_json().dump(2) + "\n");
  if (!failed.empty())
    throw Error("tuning database '" + path + "' cannot be written: " + failed +
                " (set PORTACL_TUNING_DB to a writable file)");
}

namespace {

// The databases the planner reads, reloaded when the user's file changes.
struct Databases {
  std::mutex mutex;
  std::string user_path;
  struct timespec user_mtime {};
  off_t user_size = -1;
  TuningDatabase user;
  std::vector<TuningDatabase> shipped;
  bool shipped_loaded = false;
  std::set<std::string> warned;
  // Tuned plans that failed at first use (build), by provenance: the rules
  // plan instead for the rest of the process.
  std::set<std::string> distrusted;
  std::chrono::steady_clock::time_point checked{};

  void warn(const std::vector<std::string>& warnings) {
    for (const auto& w : warnings)
      if (warned.insert(w).second) std::cerr << "portacl: tuning database " << w << "\n";
  }

  // Every plan asks: a new path is read at once, a changed file within a
  // second (one stat per second, not one per launch).
  void refresh() {
    const std::string path = TuningDatabase::user_path();
    const auto now = std::chrono::steady_clock::now();
    if (path == user_path && shipped_loaded && now - checked < std::chrono::seconds(1)) return;
    checked = now;
    struct stat st {};
    const bool exists = !path.empty() && ::stat(path.c_str(), &st) == 0;
    const bool changed = path != user_path || !exists != (user_size < 0) ||
                         (exists && (st.st_mtim.tv_sec != user_mtime.tv_sec ||
                                     st.st_mtim.tv_nsec != user_mtime.tv_nsec || st.st_size != user_size));
    if (changed) {
      std::vector<std::string> warnings;
      user = exists ? TuningDatabase::load(path, &warnings) : TuningDatabase();
      warn(warnings);
      user_path = path;
      user_mtime = exists ? st.st_mtim : timespec{};
      user_size = exists ? st.st_size : -1;
      plan_inputs_changed();
    }
    if (!shipped_loaded) {
      std::vector<std::string> warnings;
      for (const auto& p : TuningDatabase::shipped_paths()) shipped.push_back(TuningDatabase::load(p, &warnings));
      warn(warnings);
      shipped_loaded = true;
      plan_inputs_changed();
    }
  }
};

Databases& databases() {
  static Databases d;
  return d;
}

std::optional<PlanOverride> tuned_override(const DeviceInfo& device, const KernelTraits& traits,
                                           const ProblemSize& size) {
  const std::size_t n = size.elements();
  if (n == 0) return std::nullopt;
  Databases& dbs = databases();
  std::lock_guard<std::mutex> lock(dbs.mutex);
  dbs.refresh();
  const DeviceFingerprint fp = DeviceFingerprint::of(device);
  const std::string element = cl_type_name(traits.element);
  // Tier by tier, the user's file before the shipped ones: an exact match
  // anywhere beats a borrowed one.
  const TuningRecord* r = nullptr;
  const TuningDatabase* from = nullptr;
  MatchTier tier = MatchTier::exact;
  for (MatchTier t : {MatchTier::exact, MatchTier::same_device, MatchTier::same_architecture}) {
    if ((r = dbs.user.find(fp, traits.name, element, n, t, traits.tuned_size_reach))) from = &dbs.user;
    for (const auto& db : dbs.shipped) {
      if (r) break;
      if ((r = db.find(fp, traits.name, element, n, t, traits.tuned_size_reach))) from = &db;
    }
    if (r) {
      tier = t;
      break;
    }
  }
  if (!r) return std::nullopt;
  std::string provenance = "tuning database " + from->origin + " (" + to_string(tier);
  if (tier != MatchTier::exact) provenance += ": " + r->device.to_string();
  provenance += "; 2^" + std::to_string(r->bucket);
  if (r->bucket != size_bucket(n)) provenance += ", nearest to 2^" + std::to_string(size_bucket(n));
  provenance += ", " + to_string(r->configuration, r->named) + ")";
  if (dbs.distrusted.count(provenance)) return std::nullopt;
  // Validated against the kernel's declaration before any of it becomes a
  // macro: unknown knobs, values outside the candidates, broken limits.
  Configuration configuration = r->configuration;
  std::string problem;
  if (!r->named.empty())
    problem = traits.tunables ? resolve_named_values(*traits.tunables, r->named, configuration)
                              : "it names knob values and the kernel declares no knobs";
  if (problem.empty() && traits.tunables)
    problem = stored_configuration_problem(*traits.tunables, configuration, device, traits);
  if (!problem.empty()) {
    dbs.warn({from->origin + ": record for " + traits.name + " " + element + " at 2^" + std::to_string(r->bucket) +
              " (" + r->device.to_string() + ") ignored, the rules plan instead: " + problem});
    PlanOverride refused;
    refused.provenance = provenance;
    refused.refused = problem;
    return refused;
  }
  return to_override(configuration, device, provenance);
}

}  // namespace

bool distrust_tuned_plan(const LaunchPlan& plan, const std::string& why) {
  if (plan.provenance.rfind("tuning database ", 0) != 0) return false;
  {
    Databases& dbs = databases();
    std::lock_guard<std::mutex> lock(dbs.mutex);
    if (!dbs.distrusted.insert(plan.provenance).second) return false;  // already planned without it
    dbs.warn({"plan for " + plan.traits.name +
              " failed at first use; the rules plan instead in this process: " + plan.provenance + ": " + why});
  }
  plan_inputs_changed();
  return true;
}

void use_tuning_databases() {
  const char* env = std::getenv("PORTACL_TUNING");
  if (env && (std::string(env) == "off" || std::string(env) == "0")) return;
  // A provider the program installed itself stays.
  if (!has_plan_override_provider())
    set_plan_override_provider(tuned_override, [] {
      Databases& dbs = databases();
      std::lock_guard<std::mutex> lock(dbs.mutex);
      dbs.refresh();
    });
}

}  // namespace portacl
