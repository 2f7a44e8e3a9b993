// SPDX-License-Identifier: Apache-2.0
// The autotuner: searches one operation's declared space on this device for
// the fastest configuration that computes the right answer, starting from
// (and never worse than) the rule-based plan.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "operations.hpp"
#include "rules/tuning_database.hpp"

namespace portacl {

enum class SearchStrategy {
  automatic,   // exhaustive when the admissible space fits the budget, else annealing
  exhaustive,  // every admissible configuration
  random,      // uniform samples without repetition
  annealing,   // simulated annealing from the rules' configuration, one knob at a time
};
SearchStrategy parse_strategy(const std::string& name);  // throws portacl::Error
std::string to_string(SearchStrategy s);

struct TunerProgress {
  std::string operation;
  unsigned done = 0, total = 0;  // candidates measured / planned
  double best_ms = 0, rules_ms = 0;
  double elapsed_s = 0;
  std::string last;  // the last candidate and its outcome, one line
};

struct TunerOptions {
  std::size_t n = std::size_t{1} << 22;
  SearchStrategy strategy = SearchStrategy::automatic;
  unsigned budget_evaluations = 48;  // candidates launched, besides the rules' plan
  double budget_seconds = 0;         // 0: no limit
  int warmup = 2, repetitions = 7;
  // Results whose timing spread, (max - min) / median, is wider than this
  // are not recorded unless `accept_noisy`.
  double max_spread = 0.25;
  bool accept_noisy = false;
  unsigned long long seed = 1;
  std::function<void(const TunerProgress&)> progress;
  const std::atomic<bool>* stop = nullptr;  // set (Ctrl-C): finish with what is measured
};

struct CandidateResult {
  Configuration configuration;
  // "ok"; "invalid: ..." (refused by a limit, the compiler or the launch);
  // "rejected: ..." (wrong output); "noisy: ..." (spread too wide).
  std::string status;
  TimingSummary timing;
  bool ok() const { return status == "ok"; }
};

struct TuningOutcome {
  std::string operation, kernel, element;
  const TuningSpace* space = nullptr;  // the operation's declaration (how the record stores named knobs)
  std::size_t n = 0;
  SearchStrategy strategy = SearchStrategy::automatic;
  std::size_t space_size = 0, admissible = 0;
  // The rule-based plan (empty configuration) and the fastest correct
  // candidate (the rules' when nothing beat them). When they differ both
  // are timed again at the end, alternately, and these are those times.
  CandidateResult rules, best;
  std::vector<CandidateResult> candidates;
  unsigned tried = 0, valid = 0, invalid = 0, rejected = 0;
  bool interrupted = false;
  std::string not_recorded;  // why the result must not be stored ("" when it may)
  double speedup() const { return best.timing.median_ms > 0 ? rules.timing.median_ms / best.timing.median_ms : 1; }
  TuningRecord record(const DeviceInfo& device, const std::string& tool) const;
  /// The best configuration as a record stores it: named knobs by name.
  void stored_configuration(Configuration& numbers, NamedValues& named) const;
};

TuningOutcome tune(Context& ctx, const Operation& op, const TunerOptions& options);

/// Stores `o`'s best configuration into the database file `db` (merged
/// with what it holds, written atomically), unless it must not be: returns
/// why not ("dry run", "no candidate passed", or o.not_recorded), "" when
/// stored. The merge's notes (records replaced, ...) go to `notes`. The one
/// store step of portacl-tune and portacl::tune().
std::string store_outcome(const std::string& db, const TuningOutcome& o, const DeviceInfo& device,
                          const std::string& tool, bool dry_run, std::vector<std::string>* notes = nullptr);

}  // namespace portacl
