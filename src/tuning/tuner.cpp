// SPDX-License-Identifier: Apache-2.0
#include "tuner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>

#include "portacl/error.hpp"
#include "rules/tuning_database.hpp"
#include "tuning/timing.hpp"
#include "portacl/version.hpp"

namespace portacl {

SearchStrategy parse_strategy(const std::string& name) {
  if (name == "auto" || name == "automatic") return SearchStrategy::automatic;
  if (name == "exhaustive") return SearchStrategy::exhaustive;
  if (name == "random") return SearchStrategy::random;
  if (name == "annealing" || name == "anneal") return SearchStrategy::annealing;
  throw Error("unknown search strategy '" + name + "' (auto, exhaustive, random, annealing)");
}

std::string to_string(SearchStrategy s) {
  switch (s) {
    case SearchStrategy::automatic: return "auto";
    case SearchStrategy::exhaustive: return "exhaustive";
    case SearchStrategy::random: return "random";
    case SearchStrategy::annealing: return "annealing";
  }
  return "?";
}

void TuningOutcome::stored_configuration(Configuration& numbers, NamedValues& named) const {
  if (space)
    split_named_values(*space, best.configuration, numbers, named);
  else
    numbers = best.configuration;
}

TuningRecord TuningOutcome::record(const DeviceInfo& device, const std::string& tool) const {
  TuningRecord r;
  r.device = DeviceFingerprint::of(device);
  r.kernel = kernel;
  r.element = element;
  r.bucket = size_bucket(n);
  r.n = n;
  stored_configuration(r.configuration, r.named);
  r.tuned = best.timing;
  r.rules = rules.timing;
  r.strategy = to_string(strategy);
  r.tried = tried;
  r.valid = valid;
  r.rejected = rejected;
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  r.tuned_at = buf;
  r.tool = tool;
  return r;
}

namespace {

// The first line of an error message: enough to say why a candidate failed.
std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// The point of `space` nearest to what the rules chose in `plan`.
Configuration configuration_of(const LaunchPlan& plan, const TuningSpace& space, const DeviceInfo& device) {
  Configuration c;
  for (const auto& t : space.tunables) {
    double want = 0;
    if (t.name == "work_group_size")
      want = static_cast<double>(plan.work_group_size());
    else if (t.name == "vector_width")
      want = plan.vector_width;
    else if (t.name == "groups_per_compute_unit")
      want = static_cast<double>(plan.work_groups) / std::max<unsigned>(1, device.compute_units);
    else if (t.name == "use_local_memory")
      want = plan.use_local_memory;
    else if (t.name == "passes")
      want = plan.passes;
    else if (auto v = space.chosen(plan, t.name))
      want = static_cast<double>(*v);
    else
      want = static_cast<double>(t.values.front());  // a knob this plan's variant does not read
    long best = t.values.front();
    for (long v : t.values)
      if (std::fabs(std::log2(std::max(1.0, double(v))) - std::log2(std::max(1.0, want))) <
          std::fabs(std::log2(std::max(1.0, double(best))) - std::log2(std::max(1.0, want))))
        best = v;
    c[t.name] = best;
  }
  return c;
}

class Search {
 public:
  Search(Context& ctx, const Operation& op, const TunerOptions& o)
      : ctx_(ctx), op_(op), o_(o), rng_(o.seed), work_(ctx, o.n, o.seed), start_(std::chrono::steady_clock::now()) {}

  TuningOutcome run() {
    TuningOutcome out;
    out.operation = op_.name;
    out.n = o_.n;
    PlanOptions rules_options;
    rules_options.consult_provider = false;
    const LaunchPlan rules_plan = op_.run(work_, rules_options);
    traits_ = rules_plan.traits;
    out.kernel = traits_.name;
    out.element = cl_type_name(traits_.element);
    const TuningSpace& space = *op_.space;
    out.space = &space;
    out.space_size = space.count();
    std::vector<Configuration> admissible;
    for (std::size_t i = 0; i < space.count(); ++i) {
      Configuration c = space.configuration(i);
      if (check_configuration(space, c, ctx_.info(), traits_).empty()) admissible.push_back(c);
    }
    out.admissible = admissible.size();
    out.strategy = o_.strategy;
    if (out.strategy == SearchStrategy::automatic) {
      // Exhaustive only when it surely finishes: a time budget may stop it
      // anywhere in its fixed order, so then only small spaces qualify.
      const std::size_t fits = o_.budget_seconds > 0 ? 64 : o_.budget_evaluations;
      out.strategy = admissible.size() <= fits ? SearchStrategy::exhaustive : SearchStrategy::annealing;
    }
    total_ = std::min<std::size_t>(o_.budget_evaluations, admissible.size() + space.alternatives.size());

    out.rules = evaluate({}, true);
    rules_ms_ = out.rules.ok() ? out.rules.timing.median_ms : 0;
    const Configuration start = configuration_of(rules_plan, space, ctx_.info());
    for (const auto& c : space.alternatives)
      if (check_configuration(space, c, ctx_.info(), traits_).empty()) step(c);
    switch (out.strategy) {
      case SearchStrategy::exhaustive:
      case SearchStrategy::automatic:
        for (const auto& c : admissible)
          if (!step(c)) break;
        break;
      case SearchStrategy::random: {
        std::shuffle(admissible.begin(), admissible.end(), rng_);
        for (const auto& c : admissible)
          if (!step(c)) break;
        break;
      }
      case SearchStrategy::annealing: anneal(start, admissible); break;
    }
    out.interrupted = interrupted_;
    for (auto& kv : results_) out.candidates.push_back(kv.second);
    // When nothing beats the rules their plan is the result: stored as the
    // empty configuration ("rules"), since the space may not hold it.
    out.best = out.rules;
    for (const auto& c : out.candidates) {
      ++out.tried;
      if (c.ok())
        ++out.valid;
      else if (c.status.rfind("rejected", 0) == 0)
        ++out.rejected;
      else
        ++out.invalid;
      if (c.ok() && (!out.best.ok() || c.timing.median_ms < out.best.timing.median_ms)) out.best = c;
    }
    if (out.rules.ok() && out.best.ok() && !out.best.configuration.empty()) confirm(out);
    if (!out.rules.ok())
      out.not_recorded = "the rule-based plan itself failed: " + out.rules.status;
    else if (out.best.timing.spread() > o_.max_spread && !o_.accept_noisy)
      out.not_recorded = "timing spread " + std::to_string(int(100 * out.best.timing.spread())) + "% is wider than " +
                         std::to_string(int(100 * o_.max_spread)) +
                         "% (a busy device?); rerun, or accept it explicitly";
    return out;
  }

 private:
  bool out_of_budget() {
    if (o_.stop && o_.stop->load()) {
      interrupted_ = true;
      return true;
    }
    if (measured_ >= o_.budget_evaluations) return true;
    if (o_.budget_seconds > 0 && elapsed() >= o_.budget_seconds) return true;
    return false;
  }

  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

  // Measures `c` once (later calls reuse the result); false when the budget
  // is spent.
  bool step(const Configuration& c) {
    if (results_.count(c)) return true;
    if (out_of_budget()) return false;
    results_[c] = evaluate(c, false);
    ++measured_;
    return true;
  }

  double cost(const Configuration& c) {
    auto it = results_.find(c);
    return it != results_.end() && it->second.ok() ? it->second.timing.median_ms : INFINITY;
  }

  void anneal(Configuration current, const std::vector<Configuration>& admissible) {
    const TuningSpace& space = *op_.space;
    if (!step(current)) return;
    double temperature = 0.3;  // accepts a 30% slower neighbour with probability 1/e at first
    const double cooling = std::pow(0.01 / 0.3, 1.0 / std::max(1u, o_.budget_evaluations));
    std::uniform_real_distribution<double> unit(0, 1);
    unsigned stale = 0;
    while (!out_of_budget() && stale < 200) {
      Configuration next = current;
      const Tunable& knob = space.tunables[rng_() % space.tunables.size()];
      auto at = std::find(knob.values.begin(), knob.values.end(), current[knob.name]) - knob.values.begin();
      long moved = at + ((rng_() & 1) ? 1 : -1);
      if (unit(rng_) < 0.2) moved = static_cast<long>(rng_() % knob.values.size());  // an occasional jump
      if (moved < 0 || moved >= static_cast<long>(knob.values.size())) continue;
      next[knob.name] = knob.values[static_cast<std::size_t>(moved)];
      if (!check_configuration(space, next, ctx_.info(), traits_).empty()) {
        ++stale;
        continue;
      }
      const bool seen = results_.count(next) != 0;
      if (!step(next)) break;
      stale = seen ? stale + 1 : 0;
      const double now = cost(current), then = cost(next);
      if (then < now || (std::isfinite(then) && unit(rng_) < std::exp(-(then - now) / now / temperature)))
        current = next;
      temperature *= cooling;
    }
    // Budget left after the walk settled: random admissible points.
    std::vector<Configuration> rest = admissible;
    std::shuffle(rest.begin(), rest.end(), rng_);
    for (const auto& c : rest)
      if (!step(c)) break;
  }

  PlanOptions options_for(const Configuration& c) {
    PlanOptions opt;
    opt.consult_provider = false;
    if (!c.empty()) opt.override_values = to_override(c, ctx_.info(), "tuner candidate " + to_string(c));
    return opt;
  }

  // The search measured candidates minutes apart; the winner and the rules
  // are timed again, alternately, so drift (clocks, caches, other load)
  // cannot decide between them. The rules stay when the winner does not
  // hold up.
  void confirm(TuningOutcome& out) {
    const PlanOptions rules = options_for({}), best = options_for(out.best.configuration);
    std::vector<double> rules_ms, best_ms;
    for (int round = 0; round < 3; ++round) {
      for (int i = 0; i < o_.repetitions; ++i) {
        rules_ms.push_back(device_ms(ctx_, [&] { op_.run(work_, rules); }));
        best_ms.push_back(device_ms(ctx_, [&] { op_.run(work_, best); }));
      }
    }
    out.rules.timing = summarize(rules_ms);
    out.best.timing = summarize(best_ms);
    if (out.best.timing.median_ms >= out.rules.timing.median_ms) out.best = out.rules;
  }

  CandidateResult evaluate(const Configuration& c, bool rules) {
    CandidateResult r;
    r.configuration = c;
    if (!rules) {
      const std::string why = check_configuration(*op_.space, c, ctx_.info(), traits_);
      if (!why.empty()) {
        r.status = "invalid: " + why;
        return report(r);
      }
    }
    const PlanOptions opt = options_for(c);
    try {
      // Fresh random input at an awkward size first (tails, partial tiles),
      // then the timed workload itself.
      Workload fresh(ctx_, 66049, rng_());  // odd; 257^2 for GEMM (257 is prime)
      std::string wrong = op_.check(fresh, opt);
      if (wrong.empty()) wrong = op_.check(work_, opt);
      if (!wrong.empty()) {
        r.status = "rejected: wrong result: " + wrong;
        return report(r);
      }
      r.timing = measure(o_.warmup, o_.repetitions, [&] { return device_ms(ctx_, [&] { op_.run(work_, opt); }); });
      r.status = "ok";
    } catch (const std::exception& e) {
      r.status = "invalid: " + first_line(e.what());
    }
    return report(r);
  }

  CandidateResult report(const CandidateResult& r) {
    if (r.ok() && (best_ms_ == 0 || r.timing.median_ms < best_ms_)) best_ms_ = r.timing.median_ms;
    if (o_.progress) {
      TunerProgress p;
      p.operation = op_.name;
      p.done = measured_ + (r.configuration.empty() ? 0 : 1);
      p.total = static_cast<unsigned>(total_);
      p.best_ms = best_ms_;
      p.rules_ms = rules_ms_;
      p.elapsed_s = elapsed();
      p.last = to_string(r.configuration) + ": " + (r.ok() ? std::to_string(r.timing.median_ms) + " ms" : r.status);
      o_.progress(p);
    }
    return r;
  }

  Context& ctx_;
  const Operation& op_;
  const TunerOptions& o_;
  std::mt19937_64 rng_;
  Workload work_;
  KernelTraits traits_;
  std::map<Configuration, CandidateResult> results_;
  unsigned measured_ = 0;
  std::size_t total_ = 0;
  double best_ms_ = 0, rules_ms_ = 0;
  bool interrupted_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

TuningOutcome tune(Context& ctx, const Operation& op, const TunerOptions& options) {
  if (options.n == 0) throw Error("tune: the problem size must be at least 1");
  if (options.repetitions < 1) throw Error("tune: at least one timed repetition is needed");
  return Search(ctx, op, options).run();
}

std::string store_outcome(const std::string& db, const TuningOutcome& o, const DeviceInfo& device,
                          const std::string& tool, bool dry_run, std::vector<std::string>* notes) {
  if (dry_run) return "dry run";
  if (!o.best.ok()) return "no candidate passed";
  if (!o.not_recorded.empty()) return o.not_recorded;
  TuningDatabase::merge_into_file(db, {o.record(device, tool)}, notes);
  return "";
}

}  // namespace portacl
