// SPDX-License-Identifier: Apache-2.0
/// \file
/// Tuning from a program: searches one operation's declared tuning space on
/// the context's device for the fastest configuration that computes the
/// right answer (never worse than the rules' plan) and stores it in the
/// tuning database that plans read, as portacl-tune does (docs/tuning.md).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "portacl/runtime/context.hpp"

namespace portacl {

struct TuneProgress {
  std::string operation;
  unsigned done = 0, total = 0;  ///< candidates measured / planned
  double best_ms = 0, rules_ms = 0;
};

struct TuneRequest {
  std::string operation;                 ///< a name of tunable_operations()
  std::size_t n = std::size_t{1} << 22;  ///< the problem size tuned for
  unsigned budget = 48;                  ///< candidates launched, besides the rules' plan
  double seconds = 0;                    ///< 0: no time limit
  /// Where results go; empty: PORTACL_TUNING_DB, else the user's database.
  std::string database;
  bool dry_run = false;  ///< measure, store nothing
  /// Store a result whose timing spread is wide (a busy device) all the same.
  bool accept_noisy = false;
  unsigned long long seed = 1;
  /// Called after each candidate (on the calling thread).
  std::function<void(const TuneProgress&)> progress;
};

struct TuneReport {
  std::string operation, kernel;
  std::size_t n = 0;
  double rules_ms = 0, best_ms = 0;  ///< medians of the rules' plan and of the winner
  double speedup = 1;
  std::string configuration;  ///< the winner's knobs ("rules" when nothing beat them)
  unsigned tried = 0, valid = 0, rejected = 0;
  bool stored = false;
  std::string database;    ///< the file written ("" on a dry run)
  std::string not_stored;  ///< why not, when it was not
};

/// The operations tune() accepts, as portacl-tune --list names them.
std::vector<std::string> tunable_operations();

/// Tunes and stores. Throws portacl::Error for an unknown operation (listing
/// the names), a size of 0, or a database that cannot be written (checked
/// before any measuring).
TuneReport tune(Context& ctx, const TuneRequest& request);

}  // namespace portacl
