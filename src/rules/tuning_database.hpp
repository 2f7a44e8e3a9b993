// SPDX-License-Identifier: Apache-2.0
/// \file
/// Tuned launch configurations, per device and problem-size bucket, in a
/// human-readable JSON file. The user's file ($PORTACL_TUNING_DB, else
/// $XDG_CACHE_HOME/portacl/tuning.json or ~/.cache/portacl/tuning.json) is
/// read first, then shipped files (*.json in $PORTACL_TUNING_PATH's
/// directories and in `<prefix>/share/portacl/tuning/`). A file that cannot be
/// read, is not JSON or has another format version is reported and skipped,
/// never fatal. Writers merge under a lock and replace the file atomically.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "portacl/device.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/json.hpp"
#include "rules/plan_provider.hpp"

namespace portacl {

/// Which device a result belongs to. Results are looked up in tiers (see
/// MatchTier): a driver update keeps the device's results, and a device of
/// the same architecture borrows them before falling back to the rules.
struct DeviceFingerprint {
  std::string platform, device, driver;
  unsigned compute_units = 0;
  /// "nvidia_gpu/compute capability 9.0 (sm_90)", "amd_gcn_gpu/gfx IP 9.2 ...",
  /// "cpu/AVX2 256-bit (8 floats)/GenuineIntel"; "" when the architecture
  /// is not known well enough to share results.
  std::string architecture;
  static DeviceFingerprint of(const DeviceInfo& d);
  bool operator==(const DeviceFingerprint& o) const;   ///< exact: platform, name, driver, compute units
  bool same_device(const DeviceFingerprint& o) const;  ///< name and compute units, any driver
  bool same_architecture(const DeviceFingerprint& o) const;
  std::string to_string() const;
};

/// How closely a stored result's device matches the one being planned for,
/// best first; a plan's provenance names the tier.
enum class MatchTier {
  exact = 1,              ///< the same device and driver
  same_device = 2,        ///< the same device name and compute units, another driver
  same_architecture = 3,  ///< another device of the same architecture
};
std::string to_string(MatchTier t);

/// Timing of one configuration: median over `repetitions` runs, with spread.
struct TimingSummary {
  double min_ms = 0, median_ms = 0, max_ms = 0;
  unsigned repetitions = 0;
  std::vector<double> times_ms;  ///< every repetition, in the order taken (the bench's JSON writes them)
  double spread() const { return median_ms > 0 ? (max_ms - min_ms) / median_ms : 0; }
};

/// {"min_ms", "median_ms", "max_ms", "repetitions"}: how every portacl tool
/// writes a timing.
Json to_json(const TimingSummary& t);

struct TuningRecord {
  DeviceFingerprint device;
  std::string kernel;           ///< KernelTraits::name of the plans it applies to
  std::string element;          ///< "float", "double"
  unsigned bucket = 0;          ///< log2 of the problem size, rounded
  std::size_t n = 0;            ///< the size tuned at
  Configuration configuration;  ///< knobs stored as numbers
  NamedValues named;            ///< knobs stored by value name (Tunable::names)
  TimingSummary tuned, rules;   ///< the tuned and the rule-based plan, same run
  std::string clock = "OpenCL profiling events (CL_PROFILING_COMMAND_START/END)";
  std::string strategy;
  unsigned tried = 0, valid = 0, rejected = 0;
  std::string tuned_at;  ///< ISO 8601, UTC
  std::string tool;      ///< "portacl-tune <version>"
};

/// How far (in size buckets) a tuned record stands in for other sizes: rule
/// tuning.nearby-bucket. A configuration measured at 4096^2 elements says
/// nothing about 64^2 (GEMM's tiles would leave most of a GPU idle).
constexpr int kNearbyBuckets = 6;

/// log2 of n rounded to the nearest integer (n >= 1).
unsigned size_bucket(std::size_t n);

class TuningDatabase {
 public:
  static constexpr int format_version = 1;

  /// Where tuned results are read from and written to (see the header).
  static std::string user_path();
  static std::vector<std::string> shipped_paths();

  /// Reads one file; problems go to `warnings` and yield an empty database.
  static TuningDatabase load(const std::string& path, std::vector<std::string>* warnings);
  /// Throws portacl::Error naming the problem. With `skipped`, a bad record
  /// is left out and described there instead ("record 3 skipped: ...");
  /// without, it throws.
  static TuningDatabase from_json(const Json& j, std::vector<std::string>* skipped = nullptr);
  Json to_json() const;

  const std::vector<TuningRecord>& records() const { return records_; }
  /// Adds or replaces the record for the same device, kernel, element and bucket.
  void put(const TuningRecord& r);
  /// The record for this device (matched at `tier`), kernel and element in
  /// n's bucket, else the nearest bucket within `reach` (kNearbyBuckets
  /// unless the kernel's traits say less); nullptr when there is none.
  const TuningRecord* find(const DeviceFingerprint& device, const std::string& kernel, const std::string& element,
                           std::size_t n, MatchTier tier = MatchTier::exact, int reach = kNearbyBuckets) const;

  /// Merges `records` into the file at `path` (a link's target) under an
  /// exclusive lock and replaces it atomically; results already there for
  /// other devices, kernels and buckets stay. Bad records in the existing
  /// file are dropped from it but the whole previous file is first copied
  /// aside under a unique name (returned in `notes`), as is a file that does
  /// not parse. Throws portacl::Error, replacing nothing, when the path is
  /// not writable (writable_problem) or the file cannot be read.
  static void merge_into_file(const std::string& path, const std::vector<TuningRecord>& records,
                              std::vector<std::string>* notes = nullptr);
  /// "" when merge_into_file could write `path` now, else why not: a
  /// directory or other non-file, a file this user cannot read and write, a
  /// directory that cannot be created or written. Links are followed. Tools
  /// ask before measuring, so no measurement is lost to a bad path.
  static std::string writable_problem(const std::string& path);

  std::string origin;  ///< the file it was read from

 private:
  std::vector<TuningRecord> records_;
  std::map<std::string, std::size_t> index_;  ///< slot -> position in records_
};

/// The largest value a stored knob may hold (work-group sizes, tile sides).
constexpr std::int64_t kMaxKnobValue = 1 << 30;

/// Makes every plan consult the tuning databases (user's first, then
/// shipped) for the device, kernel and size bucket; the plan's provenance
/// then names the file. Every Context installs it unless PORTACL_TUNING=off
/// or the program installed its own provider (set_plan_override_provider).
/// The user's file is re-read when its path changes, and within a second
/// when the file does.
void use_tuning_databases();

/// A plan from a tuning database that failed at first use (its program did
/// not build): reported once on stderr, and the record is skipped for the
/// rest of the process, so the next plan comes from the rules. Returns false
/// (and does nothing) for plans that did not come from a database or were
/// already distrusted.
bool distrust_tuned_plan(const LaunchPlan& plan, const std::string& why);

}  // namespace portacl
