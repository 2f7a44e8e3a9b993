// SPDX-License-Identifier: Apache-2.0
// portacl-bench: measures the device's ceilings, then every kernel of the
// streaming/reduction/scan family at several sizes beside CLBlast's routine
// with the same semantics, in one run. A benchmark, not a test: it reports,
// and fails (exit 1) only when an output is wrong.

#include <chrono>
#include <cstring>
#include <ctime>
#include <iostream>
#include <new>
#include <optional>
#include <random>
#include <sstream>

#include "../common/cli.hpp"
#include "../common/progress.hpp"
#include "../common/scaling_cases.hpp"
#include "group_scaling.hpp"
#include "report.hpp"
#include "sparse_cases.hpp"
#include "boost_compute_baseline.hpp"
#include "cpu_library_baseline.hpp"
#include "cpu_table.hpp"
#include "clfft_baseline.hpp"
#include "fftw_baseline.hpp"
#include "vkfft_baseline.hpp"
#include "viennacl_baseline.hpp"
#include "tuning/bench_cases.hpp"
#include "tuning/operations.hpp"

using namespace portacl;

namespace {

const char* kUsage =
    "usage: portacl-bench [options]\n"
    "\n"
    "Measures the device's copy bandwidth (the faster of a float4 copy and the library's own copy,\n"
    "out of the caches) and FP32/FP64 FMA peaks, then\n"
    "every streaming, reduction and scan kernel, each beside the CLBlast routine\n"
    "with the same semantics, and SAXPY end to end from host memory.\n"
    "\n"
    "options:\n"
    "  --device SEL       device (default PORTACL_DEVICE, else the first GPU, else the\n"
    "                     first device)\n" PORTACL_CLI_DEVICE_SELECTORS
    "  --sizes LIST       element counts, e.g. 2^20,2^24,1000003 (default 2^20,2^24,2^26)\n"
    "  --kernels LIST     only these kernels (names as in the table; default all)\n"
    "  --skip-kernels LIST  all but these kernels (names or first words: rdf, conv)\n"
    "  --gemm-sizes LIST  also GEMM on square matrices of these orders, beside\n"
    "                     CLBlast's Sgemm/Dgemm (default none)\n"
    "  --gemm-types LIST  float, double or both (default float; double needs fp64)\n"
    "  --sparse LIST      also sparse y = A x by every method and the automatic choice,\n"
    "                     with CG per iteration and ViennaCL beside them, on generated\n"
    "                     matrices (the forms below), e.g.\n"
    "                     poisson2d:2048,poisson3d27:128,powerlaw:2000000:8\n"
    "@SPARSE@"
    "  --matrix FILE      also the same on a Matrix Market file (repeatable)\n"
    "  --save-matrices DIR  write each generated matrix to DIR as SPEC.bin (binary CSR,\n"
    "                     for tools/gpu/cusparse_direct.cu and tools/gpu/cusparse.py)\n"
    "  --stencils LIST    also stencils, every variant of each of these forms:\n"
    "@STENCILS@"
    "  --ffts LIST        also FFTs of these forms, beside --fft-baseline:\n"
    "@FFTS@"
    "  --fft-baseline LIB clfft (default on a GPU; the same context), vkfft (its\n"
    "                     OpenCL backend, the same context) or fftw (default on a\n"
    "                     CPU device; FFTW_MEASURE, a thread a core)\n"
    "  --group SEL        also strong and weak scaling over the device group SEL\n"
    "                     (\"cpu/2\", \"gpu+cpu\"), each member alone first (table output)\n"
    "  --group-reference SEL  a single device timed alone beside the group (\"cpu\")\n"
    "  --group-cases LIST the group's cases (default cg:512,heat:2048,nbody:16384):\n"
    "@GROUP@"
    "  --group-only       the group section alone (no ceilings, kernels or sections)\n"
    "  --reps N           timed runs per measurement (default 20)\n"
    "  --warmup N         untimed runs first (default 3)\n"
    "  --seed N           the random inputs' seed (default from the clock; every run\n"
    "                     prints its seed, so a run's matrices and vectors can be made again)\n"
    "  --no-baseline      skip CLBlast (and the CPU libraries)\n"
    "  --cpu-libraries    the CPU libraries table for any device (on by itself for a CPU\n"
    "                     device): OpenBLAS's CBLAS (libopenblas.so.0, or PORTACL_BENCH_CBLAS=\n"
    "                     PATH[:SYMBOL_PREFIX]) and the C++17 parallel algorithms over TBB,\n"
    "                     on the same cores, alternated call by call with portacl\n"
    "  --no-transfers     skip the end-to-end host-memory section\n"
    "  --no-latency       skip the small-call latency section\n"
    "  --json | --csv     machine-readable output instead of the table (CSV: one value per\n"
    "                     line: the run, the table, the row, the field, the value)\n"
    "  -h, --help         this text\n"
    "  --version          print the version\n"
    "\n"
    "Every input (option values, specs, matrix files) is checked before anything is\n"
    "measured.\n"
    "\n"
    "exit status: 0 all outputs correct, 1 a wrong output, an unreadable input or a\n"
    "runtime error, 2 usage error\n";

// The usage text, with each section's case forms as its family declares
// them (src/tuning/bench_cases.hpp).
std::string usage() {
  std::string text = kUsage;
  auto forms = [](const CaseForms& list) {
    std::string lines;
    for (const CaseForm& f : list.forms) lines += "                       " + f.usage() + ": " + f.meaning + "\n";
    return lines;
  };
  text.replace(text.find("@GROUP@"), 7, bench::scaling_forms_text());
  for (const auto& [mark, family] :
       {std::pair<std::string, std::string>{"@SPARSE@", "sparse"}, {"@STENCILS@", "stencil"}, {"@FFTS@", "fft"}})
    text.replace(text.find(mark), mark.size(), forms(case_forms(family)));
  return text;
}

struct Args {
  std::string device;
  std::vector<std::size_t> sizes;
  std::vector<std::string> kernels, skipped;
  std::vector<std::size_t> gemm_sizes;
  std::vector<std::string> gemm_types{"float"};
  std::vector<std::string> sparse, matrices, stencils, ffts;
  std::string fft_baseline;   // "clfft", "fftw", or "" for the device's default
  std::string save_matrices;  // "" or where the sparse cases' matrices are written
  int reps = 20, warmup = 3;
  std::optional<unsigned long long> seed;
  bool baseline = true, transfers = true, latency = true, json = false, csv = false;
  bool cpu_libraries = false;  // the CPU libraries table for any device, not only CPUs
  bench::GroupScalingArgs group;
  bool group_only = false;
};

bool wanted(const Args& a, const std::string& name) {
  for (const auto& k : a.skipped)
    if (cli::selects(k, name)) return false;
  if (a.kernels.empty()) return true;
  for (const auto& k : a.kernels)
    if (cli::selects(k, name)) return true;
  return false;
}

// Host memory and back: each direction alone from pageable (std::vector) and
// pinned (HostBuffer) memory, then SAXPY end to end by the memory strategies
// and the pipelines, and over HostBuffers beside the transfers alone.
void transfers(Context& ctx, const Args& a, std::size_t n, unsigned long long seed, bench::Report& r) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> x(n), y0(n), y(n), want;
  for (auto& v : x) v = d(rng);
  for (auto& v : y0) v = d(rng);
  const float alpha = 0.5f;
  const double vector_bytes = double(n) * sizeof(float);
  HostBuffer<float> hx(ctx, n), hy(ctx, n);
  std::copy(x.begin(), x.end(), hx.begin());
  auto wall = [](const std::function<void()>& f) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  // `vectors`: how many n-element vectors cross the bus; `reset` readies the
  // inputs before each timed run; `result` is y as the run left it ("" for a
  // transfer alone: checked by `check`).
  auto add = [&](const std::string& path, double vectors, const std::function<void()>& reset,
                 const std::function<void()>& f, const std::function<std::string()>& check) {
    bench::TransferRow t;
    t.path = path;
    t.n = n;
    t.wall = bench::measure(1, std::max(3, a.reps / 4), [&] {
      reset();
      return wall(f);
    });
    t.gbs = vectors * vector_bytes / (t.wall.median_ms * 1e6);
    t.check = check();
    r.transfers.push_back(t);
  };
  auto nothing = [] {};
  auto same_as_first = [&](const float* got) {
    if (want.empty()) want.assign(got, got + n);
    return std::equal(want.begin(), want.end(), got) ? std::string("ok") : std::string("differs from the first path");
  };
  {
    Buffer<float> dx(ctx, n, MemoryStrategy::direct_copy);
    std::vector<float> back(n);
    HostBuffer<float> pinned_back(ctx, n);
    add(
        "upload, pageable (std::vector)", 1, nothing, [&] { dx.upload(x); },
        [&] { return dx.download() == x ? "ok" : "wrong"; });
    add(
        "download, pageable (std::vector)", 1, nothing, [&] { dx.download(back.data(), n); },
        [&] { return back == x ? "ok" : "wrong"; });
    add(
        "upload, pinned (HostBuffer)", 1, nothing, [&] { dx.upload(hx); },
        [&] { return dx.download() == x ? "ok" : "wrong"; });
    add(
        "download, pinned (HostBuffer)", 1, nothing, [&] { dx.download(pinned_back); },
        [&] { return std::equal(x.begin(), x.end(), pinned_back.begin()) ? "ok" : "wrong"; });
  }
  auto reset_y = [&] { y = y0; };
  for (MemoryStrategy s :
       {MemoryStrategy::direct_copy, MemoryStrategy::pinned_staging, MemoryStrategy::map_host_memory}) {
    Buffer<float> dx(ctx, n, s), dy(ctx, n, s);
    add(
        "saxpy, buffers, " + to_string(s), 3, reset_y,
        [&] {
          dx.upload(x.data(), n);
          dy.upload(y.data(), n);
          axpy(ctx, alpha, dx, dy);
          dy.download(y.data(), n);
        },
        [&] { return same_as_first(y.data()); });
  }
  for (bool pinned : {true, false})
    for (unsigned queues : {2u, 4u})
      add(
          "saxpy, pipeline, " + std::to_string(queues) + " queues, " + (pinned ? "pinned staging" : "pageable"), 3,
          reset_y,
          [&] {
            PipelineOptions o;
            o.queues = queues;
            o.pinned_staging = pinned;
            axpy_pipelined(ctx, alpha, x.data(), y.data(), n, o);
          },
          [&] { return same_as_first(y.data()); });
  auto reset_hy = [&] { std::copy(y0.begin(), y0.end(), hy.begin()); };
  {
    Buffer<float> dx(ctx, n, MemoryStrategy::direct_copy), dy(ctx, n, MemoryStrategy::direct_copy);
    add(
        "HostBuffers: transfers alone (x, y up, y down)", 3, reset_hy,
        [&] {
          dx.upload(hx);
          dy.upload(hy);
          dy.download(hy);
        },
        [&] { return std::equal(y0.begin(), y0.end(), hy.begin()) ? "ok" : "y came back changed"; });
    add(
        "saxpy, HostBuffers, one queue", 3, reset_hy,
        [&] {
          dx.upload(hx);
          dy.upload(hy);
          axpy(ctx, alpha, dx, dy);
          dy.download(hy);
        },
        [&] { return same_as_first(hy.data()); });
  }
  for (unsigned queues : {2u, 4u})
    add(
        "saxpy, pipeline, " + std::to_string(queues) + " queues, HostBuffers", 3, reset_hy,
        [&] {
          PipelineOptions o;
          o.queues = queues;
          axpy_pipelined(ctx, alpha, hx, hy, o);
        },
        [&] { return same_as_first(hy.data()); });
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  try {
    for (cli::Arguments args(argc, argv); args.next();) {
      const std::string& arg = args.arg();
      if (cli::help_or_version(args, "portacl-bench", usage().c_str()))
        return 0;
      else if (arg == "--device")
        a.device = args.value();
      else if (arg == "--sizes") {
        for (const auto& s : cli::split(args.value())) a.sizes.push_back(cli::parse_size(s, "--sizes"));
      } else if (arg == "--kernels")
        a.kernels = cli::split(args.value());
      else if (arg == "--skip-kernels")
        a.skipped = cli::split(args.value());
      else if (arg == "--reps")
        a.reps = std::max(1, cli::non_negative(args.value(), "--reps"));
      else if (arg == "--warmup")
        a.warmup = cli::non_negative(args.value(), "--warmup");
      else if (arg == "--seed")
        a.seed = cli::seed(args.value(), "--seed");
      else if (arg == "--gemm-sizes") {
        for (const auto& s : cli::split(args.value())) a.gemm_sizes.push_back(cli::parse_size(s, "--gemm-sizes"));
      } else if (arg == "--gemm-types") {
        a.gemm_types = cli::split(args.value());
        for (const auto& t : a.gemm_types)
          if (t != "float" && t != "double")
            throw std::invalid_argument("--gemm-types: '" + t + "' is neither float nor double");
      } else if (arg == "--sparse") {
        a.sparse = cli::split(args.value());
        bench::check_specs("sparse", a.sparse);
      } else if (arg == "--stencils") {
        a.stencils = cli::split(args.value());
        bench::check_specs("stencil", a.stencils);
      } else if (arg == "--ffts") {
        a.ffts = cli::split(args.value());
        bench::check_specs("fft", a.ffts);
      } else if (arg == "--fft-baseline") {
        a.fft_baseline = args.value();
        if (a.fft_baseline != "clfft" && a.fft_baseline != "vkfft" && a.fft_baseline != "fftw")
          throw std::invalid_argument("--fft-baseline: '" + a.fft_baseline + "' is none of clfft, vkfft and fftw");
      } else if (arg == "--matrix") {
        a.matrices.push_back(args.value());
      } else if (arg == "--save-matrices") {
        a.save_matrices = args.value();
      } else if (arg == "--no-baseline")
        a.baseline = false;
      else if (arg == "--cpu-libraries")
        a.cpu_libraries = true;
      else if (arg == "--no-transfers")
        a.transfers = false;
      else if (arg == "--no-latency")
        a.latency = false;
      else if (arg == "--group")
        a.group.group = args.value();
      else if (arg == "--group-reference")
        a.group.reference = args.value();
      else if (arg == "--group-cases")
        a.group.cases = cli::split(args.value());
      else if (arg == "--group-only")
        a.group_only = true;
      else if (arg == "--json")
        a.json = true;
      else if (arg == "--csv")
        a.csv = true;
      else
        throw std::invalid_argument("unknown option '" + arg + "'");
    }
    if (a.json && a.csv) throw std::invalid_argument("--json and --csv exclude each other");
    if (a.group.group.empty() && (a.group_only || !a.group.reference.empty() || !a.group.cases.empty()))
      throw std::invalid_argument("--group-only, --group-reference and --group-cases need --group SEL");
    if (a.group.cases.empty()) a.group.cases = {"cg:512", "heat:2048", "nbody:16384"};
    bench::check_group_cases(a.group.cases);
    std::vector<std::string> names;
    for (const auto& op : operations()) names.push_back(op.name);
    cli::check_names(a.kernels, names, "--kernels");
    cli::check_names(a.skipped, names, "--skip-kernels");
  } catch (const std::invalid_argument& e) {
    std::cerr << "portacl-bench: " << e.what() << "\n(try --help)\n";
    return 2;
  }
  if (a.sizes.empty()) a.sizes = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26};

  try {
    // Every input named on the command line is read and checked before
    // anything is measured: a bad matrix file stops here, not after the
    // other sections have run.
    const std::vector<bench::MatrixFile> matrices = bench::read_matrix_files(a.matrices);
    if (a.group_only) {
      const unsigned long long seed =
          a.seed ? *a.seed : std::random_device{}() ^ static_cast<unsigned long long>(std::time(nullptr));
      std::cout << "portacl-bench " << PORTACL_VERSION_STRING << ", seed " << seed << "\n";
      a.group.reps = std::max(1, std::min(a.reps, 5));
      return bench::run_group_scaling(a.group, seed, std::cout) ? 0 : 1;
    }
    Context ctx(a.device);
    bench::Report r;
    r.device = ctx.info().name;
    r.platform = ctx.info().platform_name + " " + ctx.info().platform_version;
    r.driver = ctx.info().driver_version;
    r.device_class = to_string(ctx.device().classification().device_class);
    r.baselines = !a.baseline                   ? ""
                  : bench::have_boost_compute() ? "CLBlast (system library); Boost.Compute (scans)"
                                                : "CLBlast (system library)";
    r.started = cli::now_text();
    r.started_utc = cli::now_utc();
    r.seed = a.seed ? *a.seed : std::random_device{}() ^ static_cast<unsigned long long>(std::time(nullptr));
    r.warmup = a.warmup;
    r.reps = a.reps;
    const std::size_t largest = *std::max_element(a.sizes.begin(), a.sizes.end());
    const bool quiet = a.json || a.csv;
    // The copy ceiling at a size that leaves the caches, whatever --sizes
    // says (a ceiling taken in cache made axpy at 2^10 "4784% of copy").
    const std::size_t ceiling_n = bench::out_of_cache_elements(ctx.info(), largest);
    r.cache_bytes = bench::cache_bytes(ctx.info());
    if (!quiet) std::cerr << "measuring ceilings (copy of " << ceiling_n << " floats)...\n";
    r.ceilings = bench::measure_ceilings(ctx, ceiling_n, a.warmup, a.reps);
    const bench::CaseTiming timing{a.warmup, a.reps, a.baseline, r.ceilings};
    // On a CPU device, what its user would call instead on the same cores.
    const bool cpu_table = a.baseline && (a.cpu_libraries || ctx.info().type == DeviceType::cpu);
    if (cpu_table) r.cpu_libraries = bench::cpu_libraries_description();

    bool all_ok = true;
    std::vector<const Operation*> ops;
    for (const Operation& op : operations())
      if (op.streaming && wanted(a, op.name)) ops.push_back(&op);  // GEMM: its own section (gemm_cases.cpp)
    cli::Progress progress(ops.size() * a.sizes.size(), quiet);
    for (std::size_t n : a.sizes) {
      // A case that does not fit the device is reported as skipped, with
      // the device's reason, and the run goes on.
      std::optional<Workload> workload;
      std::string no_room;
      try {
        workload.emplace(ctx, n, r.seed + n);
      } catch (const std::exception& e) {
        no_room = cli::skip_reason(e);
        if (no_room.empty()) throw;
      }
      for (const Operation* op_ptr : ops) {
        const Operation& op = *op_ptr;
        progress.next(op.name + " n=" + std::to_string(n));
        bench::Row row;
        row.kernel = op.name;
        row.n = n;
        row.memory = bench::regime(op.bytes_per_element * double(n), r.cache_bytes);
        if (!no_room.empty()) {
          row.check = no_room;
          r.rows.push_back(row);
          continue;
        }
        Workload& w = *workload;
        try {
          row.check = op.check(w, {});  // starts from fresh inputs itself; the case's buffers are made here
          w.reset_y();
          const portacl::LaunchPlan plan = op.run(w, {});
          row.plan = plan.summary() + (plan.provenance.rfind("tuning database", 0) == 0 ? ", tuned" : "");
          row.ours = bench::measure(a.warmup, a.reps, [&] { return bench::portacl_ms(ctx, [&] { op.run(w, {}); }); });
          row.ours_wall = bench::measure(a.warmup, a.reps, [&] { return bench::wall_ms(ctx, [&] { op.run(w, {}); }); });
        } catch (const std::exception& e) {
          row.plan.clear();  // nothing half measured is reported
          row.ours = row.ours_wall = bench::Stats{};
          row.check = cli::skip_reason(e);
          if (row.check.empty()) row.check = std::string("failed: ") + e.what();
          if (row.check.rfind("skipped", 0) != 0) all_ok = false;
          r.rows.push_back(row);
          continue;
        }
        if (row.check.empty())
          row.check = "ok";
        else
          all_ok = false;
        row.gbs = op.bytes_per_element * n / (row.ours.median_ms * 1e6);
        row.gflops = op.flops_per_element * n / (row.ours.median_ms * 1e6);
        row.fraction_of_copy = row.gbs / r.ceilings.copy_gbs;
        const std::optional<Baseline> extra = op.baseline ? std::nullopt : bench::boost_compute_baseline(op.name);
        if (a.baseline && (op.baseline || extra)) {
          const Baseline& base = op.baseline ? *op.baseline : *extra;
          row.baseline = base.routine;
          row.baseline_library = base.library;
          try {
            bench::wall_ms(ctx, [&] { base.run(w); });  // first call: CLBlast compiles here
            row.baseline_check = base.check(w);
            if (row.baseline_check.empty()) row.baseline_check = "ok";
            w.reset_y();
            row.theirs = bench::measure(a.warmup, a.reps, [&] { return bench::wall_ms(ctx, [&] { base.run(w); }); });
            row.baseline_gbs = op.bytes_per_element * n / (row.theirs.median_ms * 1e6);
            row.speedup = row.theirs.median_ms / row.ours_wall.median_ms;
            row.suspect = bench::suspect_baseline(row.baseline_gbs, r.ceilings.copy_gbs);
          } catch (const std::exception& e) {
            row.baseline_check = std::string("failed: ") + e.what();
          }
        }
        if (cpu_table)
          if (const std::optional<Baseline> cpu = bench::cpu_library_baseline(op.name)) {
            r.cpu.push_back(bench::cpu_row(ctx, op, w, *cpu, a.warmup, a.reps));
            all_ok = all_ok && r.cpu.back().check == "ok";
          }
        r.rows.push_back(row);
      }
    }
    if (!a.gemm_sizes.empty()) {
      if (!a.json && !a.csv) std::cerr << "  gemm\n";
      std::vector<std::string> types;
      for (const auto& t : a.gemm_types)
        if (t == "float" || ctx.info().fp64)
          types.push_back(t);
        else
          std::cerr << "portacl-bench: skipping double GEMM: '" << ctx.info().name << "' has no fp64\n";
      std::vector<std::string> specs;
      for (const std::string& type : types)
        for (std::size_t n : a.gemm_sizes) specs.push_back(type + ":" + std::to_string(n));
      r.gemm = bench::run_family(ctx, "gemm", specs, r.seed, timing);
      for (const auto& g : r.gemm) all_ok = all_ok && bench::row_ok(g);
      if (cpu_table && std::find(types.begin(), types.end(), "float") != types.end())
        for (std::size_t n : a.gemm_sizes)
          if (std::optional<bench::CpuRow> cpu = bench::cpu_gemm_row(ctx, n, a.warmup, a.reps, r.seed)) {
            all_ok = all_ok && (cpu->check == "ok" || cpu->check.rfind("skipped", 0) == 0);
            r.cpu.push_back(std::move(*cpu));
          }
    }
    if (!a.sparse.empty() || !a.matrices.empty()) {
      if (!a.json && !a.csv) std::cerr << "  sparse\n";
      r.viennacl_missing = a.baseline ? bench::viennacl_missing() : "not asked for (--no-baseline)";
      r.sparse = bench::run_sparse(ctx, a.sparse, matrices, r.seed, timing, a.save_matrices);
      for (const auto& w : r.sparse) all_ok = all_ok && bench::row_ok(w);
    }
    if (!a.stencils.empty()) {
      if (!a.json && !a.csv) std::cerr << "  stencils\n";
      r.stencils = bench::run_family(ctx, "stencil", a.stencils, r.seed, timing);
      for (const auto& w : r.stencils) all_ok = all_ok && bench::row_ok(w);
    }
    if (!a.ffts.empty()) {
      if (!a.json && !a.csv) std::cerr << "  ffts\n";
      const bool on_cpu = ctx.info().type == portacl::DeviceType::cpu;
      const std::string library = !a.fft_baseline.empty() ? a.fft_baseline : on_cpu ? "fftw" : "clfft";
      r.fft_baseline_missing = !a.baseline          ? "not asked for (--no-baseline)"
                               : library == "clfft" ? bench::clfft_missing()
                               : library == "vkfft" ? bench::vkfft_missing()
                               : !on_cpu            ? "FFTW is a CPU library: it runs beside a CPU device only"
                                                    : bench::fftw_missing();
      r.ffts = bench::run_family(ctx, "fft", a.ffts, r.seed, timing, [&](portacl::BenchCase& c) {
        if (!a.baseline) return;
        if (library == "clfft")
          bench::attach_clfft(ctx, c);
        else if (library == "vkfft")
          bench::attach_vkfft(ctx, c);
        else
          bench::attach_fftw(ctx, c);
      });
      for (const auto& w : r.ffts) all_ok = all_ok && bench::row_ok(w);
    }
    if (a.transfers) {
      if (!a.json && !a.csv) std::cerr << "  end-to-end transfers n=" << largest << "\n";
      try {
        transfers(ctx, a, largest, r.seed, r);
      } catch (const std::exception& e) {
        const std::string skipped = cli::skip_reason(e);
        if (skipped.empty()) throw;
        bench::TransferRow row;
        row.path = "end-to-end transfers";
        row.n = largest;
        row.check = skipped;
        r.transfers.push_back(row);
      }
      for (const auto& t : r.transfers) all_ok = all_ok && (t.check == "ok" || t.check.rfind("skipped", 0) == 0);
    }
    if (a.latency) {
      if (!a.json && !a.csv) std::cerr << "  latency of small calls\n";
      r.latency = bench::run_latency(ctx, a.warmup, a.reps, a.baseline, r.seed);
    }
    if (a.json)
      bench::print_json(std::cout, r);
    else if (a.csv)
      bench::print_csv(std::cout, r);
    else
      bench::print_table(std::cout, r);
    if (!a.group.group.empty() && !a.json && !a.csv) {
      if (!a.json && !a.csv) std::cerr << "  device group " << a.group.group << "\n";
      a.group.reps = std::max(1, std::min(a.reps, 5));
      all_ok = bench::run_group_scaling(a.group, r.seed, std::cout) && all_ok;
    }
    return all_ok ? 0 : 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "portacl-bench: out of host memory for the sizes asked for (--sizes, --gemm-sizes)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "portacl-bench: " << e.what() << "\n";
    return 1;
  }
}
