// SPDX-License-Identifier: Apache-2.0
// portacl-tune: finds the fastest correct launch configuration of each
// kernel on one device and stores it in the tuning database the library
// reads (see src/rules/tuning_database.hpp).
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <random>
#include <set>
#include <sstream>

#include "../common/cli.hpp"
#include "portacl/portacl.hpp"
#include "tooling.hpp"
#include "tuning/operations.hpp"
#include "tuning/tuner.hpp"
#include "portacl/version.hpp"

using namespace portacl;

namespace {

const char* kUsage = R"(usage: portacl-tune [options]

Tunes kernels of the library on one device: each candidate launch
configuration from the kernel's declared space is compiled, checked against
a double-precision host reference on fresh random input (a wrong result is
rejected), then timed with OpenCL profiling events (warm-up runs, median of
repetitions). The fastest correct one, never slower than the rule-based plan
it starts from, is stored in the tuning database, which every later portacl
program on this device reads.

options:
  --device SEL       device (default PORTACL_DEVICE, else the first GPU, else
                     the first device)
)" PORTACL_CLI_DEVICE_SELECTORS R"(  --kernel LIST      operations to tune (names as in --list; repeatable)
  --all              every operation
  --size N           problem size tuned for (count or 2^k; default 2^22)
  --strategy S       auto (default: exhaustive when the space fits the
                     budget, else annealing), exhaustive, random, annealing
  --budget B         per operation: N candidates (default 48) or Ns seconds
  --reps N           timed runs per candidate (default 7)
  --warmup N         untimed runs first (default 2)
  --max-spread F     refuse to store a result whose (max-min)/median exceeds
                     F (default 0.25) ...
  --accept-noisy     ... unless this is given
  --db FILE          database to write (default: PORTACL_TUNING_DB, else
                     ~/.cache/portacl/tuning.json)
  --dry-run          measure and report, store nothing
  --seed N           random seed (inputs, sampling); default from the clock
  --json             machine-readable report on stdout
  --list             the operations and their tuning spaces, then exit
  --group SEL        instead of tuning kernels: time each member of the device
                     group SEL (device_group.hpp's selectors: "gpu+cpu",
                     "cpu/2") alone on a memory-bound and a compute-bound
                     workload and store the rates, which weigh the group's
                     split (portacl-query --group SEL shows them)
  --export FILE      write this device's records from the database to FILE
  --import FILE      merge the records in FILE into the database
  -h, --help         this text
  --version          print the version

Ctrl-C stops after the candidate being measured; what was measured is kept.

exit status: 0 done, 1 an error or a failed rule-based plan, 2 usage error,
130 interrupted (results so far stored)
)";

std::atomic<bool> interrupted{false};
extern "C" void on_interrupt(int) { interrupted = true; }

struct Args {
  std::string device, db, export_to, import_from, group;
  std::vector<std::string> kernels;
  bool all = false, dry_run = false, json = false, list = false;
  TunerOptions tuner;
};

std::string fmt(double v, int digits = 4) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

void print_list(std::ostream& out) {
  // Each operation once, its whole name quoted: "inclusive_scan" and
  // "inclusive_scan int" are two operations, and --kernel inclusive_scan
  // selects both (a name selects itself and the names it begins, by words).
  out << "operations (" << operations().size() << "; --kernel NAME takes a whole name, or its first words for all "
      << "that begin so):\n";
  for (const auto& op : operations()) {
    out << "\"" << op.name << "\"  (" << op.space->count() << " configurations)\n";
    for (const auto& t : op.space->tunables) {
      out << "    " << t.name << " {";
      for (std::size_t i = 0; i < t.values.size(); ++i) out << (i ? ", " : "") << t.values[i];
      out << "}" << (t.fallback ? " default " + std::to_string(*t.fallback) : std::string(" default: the rules"))
          << "  " << t.why << "\n";
    }
  }
}

// A one-line progress bar on a terminal, plain lines otherwise.
struct Progress {
  bool tty = ::isatty(STDERR_FILENO) != 0;
  void operator()(const TunerProgress& p) const {
    std::ostringstream line;
    line << p.operation << " " << p.done << "/" << p.total << "  best " << fmt(p.best_ms) << " ms (rules "
         << fmt(p.rules_ms) << ")";
    if (p.done > 0 && p.total > p.done)
      line << "  ETA " << static_cast<int>(p.elapsed_s / p.done * (p.total - p.done)) << " s";
    if (tty) {
      const unsigned width = 20, filled = p.total ? width * std::min(p.done, p.total) / p.total : width;
      std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << line.str()
                << "\033[K" << std::flush;
    } else {
      std::cerr << line.str() << "  | " << p.last << "\n";
    }
  }
};

Json outcome_json(const TuningOutcome& o, bool stored) {
  Json j = Json::object();
  j["operation"] = o.operation;
  j["kernel"] = o.kernel;
  j["element"] = o.element;
  j["n"] = static_cast<unsigned long long>(o.n);
  j["strategy"] = to_string(o.strategy);
  j["space"] = static_cast<unsigned long long>(o.space_size);
  j["admissible"] = static_cast<unsigned long long>(o.admissible);
  j["tried"] = o.tried;
  j["valid"] = o.valid;
  j["invalid"] = o.invalid;
  j["rejected"] = o.rejected;
  j["rules"] = to_json(o.rules.timing);
  j["tuned"] = to_json(o.best.timing);
  j["speedup"] = o.speedup();
  // As the database stores it: knobs that name their values by name.
  Configuration numbers;
  NamedValues named;
  o.stored_configuration(numbers, named);
  Json config = Json::object();
  for (const auto& kv : numbers) config[kv.first] = kv.second;
  for (const auto& kv : named) config[kv.first] = kv.second;
  j["configuration"] = config;
  j["stored"] = stored;
  if (!o.not_recorded.empty()) j["not_stored_because"] = o.not_recorded;
  Json rejected = Json::array();
  for (const auto& c : o.candidates)
    if (!c.ok()) {
      Json r = Json::object();
      r["configuration"] = to_string(c.configuration);
      r["status"] = c.status;
      rejected.push_back(r);
    }
  j["failed_candidates"] = rejected;
  return j;
}

int export_records(const DeviceInfo& device, const std::string& db_path, const std::string& to) {
  std::vector<std::string> warnings;
  TuningDatabase db = TuningDatabase::load(db_path, &warnings);
  for (const auto& w : warnings) std::cerr << "portacl-tune: " << w << "\n";
  std::vector<TuningRecord> mine;
  for (const auto& r : db.records())
    if (r.device == DeviceFingerprint::of(device)) mine.push_back(r);
  if (mine.empty()) {
    std::cerr << "portacl-tune: " << db_path << " holds no results for " << device.name << "\n";
    return 1;
  }
  TuningDatabase::merge_into_file(to, mine);
  std::cout << "exported " << mine.size() << " record(s) for " << device.name << " to " << to << "\n";
  return 0;
}

// Knob names some kernel family declares: a record naming any other knob
// is refused at import (it would otherwise be ignored at every lookup).
// Candidate values are checked at lookup, where the kernel is known.
std::set<std::string> declared_knobs() {
  std::set<std::string> names;
  for (const Operation& op : operations())
    for (const auto& t : op.space->tunables) names.insert(t.name);
  return names;
}

int import_records(const std::string& from, const std::string& db_path) {
  TuningDatabase in;
  std::vector<TuningRecord> accepted;
  try {
    struct stat st {};
    if (::stat(from.c_str(), &st) != 0) throw Error("'" + from + "': " + std::strerror(errno));
    std::vector<std::string> warnings;
    in = TuningDatabase::load(from, &warnings);
    for (const auto& w : warnings) std::cerr << "portacl-tune: import: " << w << "\n";
    if (in.records().empty() && !warnings.empty()) throw Error(warnings.front());
    const std::set<std::string> knobs = declared_knobs();
    std::size_t index = 0;
    for (const auto& r : in.records()) {
      std::string unknown;
      for (const auto& kv : r.configuration)
        if (!knobs.count(kv.first)) unknown += (unknown.empty() ? "" : ", ") + kv.first;
      if (unknown.empty())
        accepted.push_back(r);
      else
        std::cerr << "portacl-tune: import: " << from << ": record " << index << " (" << r.kernel
                  << ") skipped: no kernel declares the knob(s) " << unknown << "\n";
      ++index;
    }
    if (accepted.empty()) throw Error(from + " holds no usable tuning records");
  } catch (const Error& e) {
    std::cerr << "portacl-tune: cannot import: " << e.what() << "\n";
    return 1;
  }
  std::vector<std::string> notes;
  TuningDatabase::merge_into_file(db_path, accepted, &notes);
  for (const auto& n : notes) std::cerr << "portacl-tune: " << n << "\n";
  std::cout << "imported " << accepted.size() << " record(s) into " << db_path << "\n";
  return 0;
}

// --group: each member's rates, measured and stored.
int calibrate(const std::string& selector, const std::string& db, bool dry_run) {
  DeviceGroup group(selector);
  std::cout << group.describe();
  for (GroupWorkload w : {GroupWorkload::memory, GroupWorkload::compute}) {
    CalibrationOptions o;
    o.save = !dry_run;
    o.database = db;
    const GroupCalibration c = calibrate_group(group, w, o);
    std::cout << to_string(w) << " workload:\n" << c.why;
    for (const std::string& n : c.notes) std::cout << "  " << n << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  a.tuner.seed = std::random_device{}() ^ static_cast<unsigned long long>(std::time(nullptr));
  try {
    for (cli::Arguments args(argc, argv); args.next();) {
      const std::string& arg = args.arg();
      if (cli::help_or_version(args, "portacl-tune", kUsage))
        return 0;
      else if (arg == "--device")
        a.device = args.value();
      else if (arg == "--group")
        a.group = args.value();
      else if (arg == "--kernel" || arg == "--kernels") {
        for (const auto& k : cli::split(args.value())) a.kernels.push_back(k);
      } else if (arg == "--all")
        a.all = true;
      else if (arg == "--size")
        a.tuner.n = cli::parse_size(args.value(), "--size");
      else if (arg == "--strategy") {
        try {
          a.tuner.strategy = parse_strategy(args.value());
        } catch (const Error& e) {
          throw std::invalid_argument(e.what());
        }
      } else if (arg == "--budget") {
        std::string b = args.value();
        if (!b.empty() && b.back() == 's')
          a.tuner.budget_seconds = cli::non_negative_real(b.substr(0, b.size() - 1), "--budget");
        else
          a.tuner.budget_evaluations = static_cast<unsigned>(cli::non_negative(b, "--budget"));
        if (a.tuner.budget_seconds > 0) a.tuner.budget_evaluations = 1u << 30;
      } else if (arg == "--reps")
        a.tuner.repetitions = std::max(1, cli::non_negative(args.value(), "--reps"));
      else if (arg == "--warmup")
        a.tuner.warmup = cli::non_negative(args.value(), "--warmup");
      else if (arg == "--max-spread")
        a.tuner.max_spread = cli::non_negative_real(args.value(), "--max-spread");
      else if (arg == "--accept-noisy")
        a.tuner.accept_noisy = true;
      else if (arg == "--db")
        a.db = args.value();
      else if (arg == "--dry-run")
        a.dry_run = true;
      else if (arg == "--seed")
        a.tuner.seed = static_cast<unsigned long long>(cli::non_negative(args.value(), "--seed"));
      else if (arg == "--json")
        a.json = true;
      else if (arg == "--list")
        a.list = true;
      else if (arg == "--export")
        a.export_to = args.value();
      else if (arg == "--import")
        a.import_from = args.value();
      else
        throw std::invalid_argument("unknown option '" + arg + "'");
    }
    for (const auto& k : a.kernels) {
      try {
        operation(k);
      } catch (const Error& e) {
        throw std::invalid_argument(e.what());
      }
    }
    if (!a.group.empty() && (a.all || !a.kernels.empty()))
      throw std::invalid_argument(
          "--group measures a device group's weights; it does not combine with --kernel or --all");
    if (!a.list && a.export_to.empty() && a.import_from.empty() && !a.all && a.kernels.empty() && a.group.empty())
      throw std::invalid_argument("say what to tune: --kernel NAME or --all (see --list)");
    if (a.all && !a.kernels.empty()) throw std::invalid_argument("--all and --kernel exclude each other");
  } catch (const std::invalid_argument& e) {
    std::cerr << "portacl-tune: " << e.what() << "\n(try --help)\n";
    return 2;
  }
  if (a.list) {
    print_list(std::cout);
    return 0;
  }
  if (a.db.empty()) a.db = TuningDatabase::user_path();

  try {
    if (!a.import_from.empty()) return import_records(a.import_from, a.db);
    if (!a.group.empty()) return calibrate(a.group, a.db, a.dry_run);
    Context ctx(a.device);
    if (!a.export_to.empty()) return export_records(ctx.info(), a.db, a.export_to);

    // A database that cannot take the results is refused before any
    // measuring, so no measurement is lost to it.
    if (!a.dry_run)
      if (const std::string problem = TuningDatabase::writable_problem(a.db); !problem.empty())
        throw Error(problem + " (set PORTACL_TUNING_DB or --db to a writable file, or use --dry-run)");
    std::signal(SIGINT, on_interrupt);
    a.tuner.stop = &interrupted;
    Progress progress;
    if (!a.json) a.tuner.progress = progress;
    std::vector<const Operation*> todo;
    for (const auto& op : operations())
      if (a.all) todo.push_back(&op);
    for (const auto& k : a.kernels) todo.push_back(&operation(k));

    if (!a.json)
      std::cerr << "portacl-tune: " << ctx.info().name << " (" << ctx.info().platform_name << "), n = " << a.tuner.n
                << ", " << a.tuner.warmup << " warm-up + " << a.tuner.repetitions
                << " timed runs per candidate, clock: OpenCL profiling events\n";
    std::vector<TuningOutcome> outcomes;
    std::vector<std::string> not_stored;  // why each outcome was not stored, "" where it was
    const std::string tool = std::string("portacl-tune ") + PORTACL_VERSION_STRING;
    bool failed = false;
    for (const Operation* op : todo) {
      if (interrupted) break;
      TuningOutcome o;
      try {
        o = tune(ctx, *op, a.tuner);
      } catch (const std::exception& e) {
        // A size the device cannot hold: said, and the other operations go on.
        const std::string skipped = cli::skip_reason(e);
        if (skipped.empty()) throw;
        std::cerr << "portacl-tune: " << op->name << " at n = " << a.tuner.n << ": " << skipped << "\n";
        continue;
      }
      if (progress.tty && !a.json) std::cerr << "\n";
      // Kernels shared by several operations (inclusive and exclusive
      // scans) are stored once: the later result replaces the earlier.
      std::vector<std::string> notes;
      not_stored.push_back(store_outcome(a.db, o, ctx.info(), tool, a.dry_run, &notes));
      for (const auto& n : notes) std::cerr << "portacl-tune: " << n << "\n";
      if (!o.rules.ok()) failed = true;
      outcomes.push_back(o);
    }

    if (a.json) {
      Json j = Json::object();
      j["portacl_version"] = PORTACL_VERSION_STRING;
      j["date"] = cli::now_utc();
      j["device"] = ctx.info().name;
      j["platform"] = ctx.info().platform_name;
      j["driver"] = ctx.info().driver_version;
      j["database"] = a.dry_run ? std::string() : a.db;
      j["seed"] = std::to_string(a.tuner.seed);  // a string: a double would round a 64-bit seed
      j["warmup"] = a.tuner.warmup;
      j["repetitions"] = a.tuner.repetitions;
      j["clock"] = "OpenCL profiling events (CL_PROFILING_COMMAND_START/END)";
      j["interrupted"] = interrupted.load();
      Json list = Json::array();
      for (std::size_t i = 0; i < outcomes.size(); ++i)
        list.push_back(outcome_json(outcomes[i], not_stored[i].empty()));
      j["results"] = list;
      std::cout << j.dump(2) << "\n";
    } else {
      std::printf("\n%-16s %10s %10s %10s %8s %7s %15s  %s\n", "operation", "n", "rules ms", "tuned ms", "speedup",
                  "spread", "tried/ok/bad", "configuration");
      for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const auto& o = outcomes[i];
        std::string counts =
            std::to_string(o.tried) + "/" + std::to_string(o.valid) + "/" + std::to_string(o.rejected + o.invalid);
        std::printf("%-16s %10zu %10s %10s %7.2fx %6.0f%% %15s  %s%s\n", o.operation.c_str(), o.n,
                    fmt(o.rules.timing.median_ms).c_str(), fmt(o.best.timing.median_ms).c_str(), o.speedup(),
                    100 * o.best.timing.spread(), counts.c_str(), to_string(o.best.configuration).c_str(),
                    not_stored[i].empty() ? "" : (" [not stored: " + not_stored[i] + "]").c_str());
        if (o.rejected)
          for (const auto& c : o.candidates)
            if (c.status.rfind("rejected", 0) == 0)
              std::printf("    rejected %s: %s\n", to_string(c.configuration).c_str(), c.status.c_str());
      }
      std::printf(
          "\nmedian of %d runs after %d warm-up run(s) (rules and winner: 3 x %d alternating runs at the end),\n"
          "clock: OpenCL profiling events; spread = (max-min)/median of the tuned time, at most %.0f%% to be stored\n",
          a.tuner.repetitions, a.tuner.warmup, a.tuner.repetitions, 100 * a.tuner.max_spread);
      std::printf("tried/ok/bad: candidates measured / correct / invalid or wrong; %s\n",
                  a.dry_run ? "dry run: nothing stored" : ("stored in " + a.db).c_str());
    }
    if (interrupted) return 130;
    return failed ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "\nportacl-tune: " << e.what() << "\n";
    return 1;
  }
}
