// SPDX-License-Identifier: Apache-2.0
/// \file
/// Tuning: measuring configurations on a device and keeping the result, and
/// building every kernel ahead of time.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "portacl/context.hpp"

// ---- tune --------------------------------------------------------------------
/// Tuning from a program: searches one operation's declared tuning space on
/// the context's device for the fastest configuration that computes the
/// right answer (never worse than the rules' plan) and stores it in the
/// tuning database that plans read, as portacl-tune does (docs/tuning.md).
namespace portacl {

/// Where a tune() call stands, after each candidate.
struct TuneProgress {
  std::string operation;  ///< the operation tuned
  unsigned done = 0;      ///< candidates measured
  unsigned total = 0;     ///< candidates planned
  double best_ms = 0;     ///< the fastest correct candidate's median so far
  double rules_ms = 0;    ///< the rules' plan's median
};

/// What tune() searches, for how long, and where its result goes.
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
  unsigned long long seed = 1;  ///< the random inputs' and the sampling's seed
  /// Called after each candidate (on the calling thread).
  std::function<void(const TuneProgress&)> progress;
};

/// What tune() found and did.
struct TuneReport {
  std::string operation;      ///< as requested
  std::string kernel;         ///< the kernel its record is stored under
  std::size_t n = 0;          ///< the problem size tuned for
  double rules_ms = 0;        ///< the median of the rules' plan
  double best_ms = 0;         ///< the median of the winner
  double speedup = 1;         ///< rules_ms / best_ms
  std::string configuration;  ///< the winner's knobs ("rules" when nothing beat them)
  unsigned tried = 0;         ///< candidates measured
  unsigned valid = 0;         ///< of them, correct
  unsigned rejected = 0;      ///< of them, invalid on this device or wrong
  bool stored = false;        ///< whether a record was written
  std::string database;       ///< the file written ("" on a dry run)
  std::string not_stored;     ///< why not, when it was not
};

/// The operations tune() accepts, as portacl-tune --list names them.
std::vector<std::string> tunable_operations();

/// Tunes and stores. Throws portacl::Error for an unknown operation (listing
/// the names), a size of 0, or a database that cannot be written (checked
/// before any measuring).
TuneReport tune(Context& ctx, const TuneRequest& request);

}  // namespace portacl

// ---- prebuild ----------------------------------------------------------------
/// Ahead-of-time compilation: runs the library's operations once on small
/// problems so that every program and kernel object they use is compiled
/// and written to the on-disk binary cache now. A later process's first call
/// then loads binaries instead of compiling (the idea of CLBlast's
/// FillCache). Plans depend on the problem size, so pass the sizes the
/// program will use; kernels whose build options do not change with size
/// are covered by any one of them.
namespace portacl {

/// What prebuild() compiles.
struct PrebuildOptions {
  std::vector<std::string> operations;  ///< names as in operations(); empty: all
  std::vector<std::size_t> sizes = {std::size_t{1} << 12, std::size_t{1} << 20};  ///< the problem sizes planned
};

/// One operation prebuilt at one size.
struct PrebuildStep {
  std::string operation;  ///< its name
  std::size_t n = 0;      ///< the size
  double ms = 0;          ///< wall time of the first call: compile or cache load, plus the run
};

/// The names PrebuildOptions::operations may hold.
std::vector<std::string> prebuild_operation_names();

/// Throws portacl::Error for an unknown operation name (listing the names).
std::vector<PrebuildStep> prebuild(Context& ctx, const PrebuildOptions& options = {});

}  // namespace portacl
