// SPDX-License-Identifier: Apache-2.0
// tune() for programs (portacl/tuning/tune.hpp): the tuner's search and the
// database's merge, as portacl-tune runs them.
#include "portacl/tuning.hpp"

#include "portacl/error.hpp"
#include "portacl/version.hpp"
#include "rules/tuning_database.hpp"
#include "tuning/operations.hpp"
#include "tuning/tuner.hpp"

namespace portacl {

std::vector<std::string> tunable_operations() {
  std::vector<std::string> names;
  for (const Operation& op : operations()) names.push_back(op.name);
  return names;
}

TuneReport tune(Context& ctx, const TuneRequest& request) {
  const Operation& op = operation(request.operation);
  if (request.n == 0) throw Error("tune: a problem size of 0 has nothing to measure");
  const std::string db = request.database.empty() ? TuningDatabase::user_path() : request.database;
  if (!request.dry_run)
    if (const std::string problem = TuningDatabase::writable_problem(db); !problem.empty())
      throw Error("tune: " + problem + " (pass another database, or dry_run)");
  TunerOptions options;
  options.n = request.n;
  options.budget_evaluations = request.budget;
  options.budget_seconds = request.seconds;
  options.seed = request.seed;
  options.accept_noisy = request.accept_noisy;
  if (request.progress)
    options.progress = [&](const TunerProgress& p) {
      request.progress(TuneProgress{p.operation, p.done, p.total, p.best_ms, p.rules_ms});
    };
  const TuningOutcome o = tune(ctx, op, options);
  TuneReport r;
  r.operation = o.operation;
  r.kernel = o.kernel;
  r.n = o.n;
  r.rules_ms = o.rules.timing.median_ms;
  r.best_ms = o.best.timing.median_ms;
  r.speedup = o.speedup();
  r.configuration = to_string(o.best.configuration);
  r.tried = o.tried;
  r.valid = o.valid;
  r.rejected = o.rejected + o.invalid;
  r.not_stored = store_outcome(db, o, ctx.info(), std::string("portacl ") + version(), request.dry_run);
  if (r.not_stored.empty()) {
    r.stored = true;
    r.database = db;
  }
  return r;
}

}  // namespace portacl
