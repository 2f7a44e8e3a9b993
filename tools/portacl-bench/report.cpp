// SPDX-License-Identifier: Apache-2.0
#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <sstream>

#include "portacl/json.hpp"
#include "portacl/version.hpp"
#include "report_table.hpp"

namespace bench {

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string size_label(std::size_t n) {
  for (unsigned k = 10; k < 40; ++k)
    if (n == (std::size_t{1} << k)) return "2^" + std::to_string(k);
  return std::to_string(n);
}

std::string spread(const Stats& s) { return fmt("%.4f", s.min_ms) + "-" + fmt("%.4f", s.max_ms); }

// A column of a family's section: its field and its value in a row (null:
// an empty cell).
struct CaseColumn {
  Field field;
  std::function<portacl::Json(const CaseRow&)> value;
};

Table case_table(std::string name, std::string heading, const std::vector<CaseRow>& rows,
                 const std::vector<CaseColumn>& columns) {
  Table t{std::move(name), std::move(heading), {}};
  for (const CaseColumn& c : columns) t.fields.push_back(c.field);
  for (const CaseRow& row : rows) {
    std::vector<portacl::Json> values;
    for (const CaseColumn& c : columns) values.push_back(c.value(row));
    t.add(std::move(values));
  }
  return t;
}

// The sections the families declare (GEMM, sparse, stencils), one row type:
// the columns they share, and each section's own.
std::vector<Table> case_tables(const Report& r) {
  using portacl::Json;
  auto when = [](bool present, Json v) { return present ? std::move(v) : Json(); };
  auto width = [](const std::vector<CaseRow>& rows, std::string CaseRow::*text, std::size_t least) {
    for (const CaseRow& row : rows) least = std::max(least, (row.*text).size());
    return -static_cast<int>(least);
  };
  auto any = [](const std::vector<CaseRow>& rows, auto test) { return std::any_of(rows.begin(), rows.end(), test); };
  auto ran = [](const CaseRow& w) { return w.ours.repetitions > 0; };
  auto based = [](const CaseRow& w) { return !w.routine.empty(); };
  const auto columns = [&](const std::vector<CaseRow>& rows, bool points, const char* fraction_key,
                           const char* fraction_header, const char* baseline_header) {
    std::vector<CaseColumn> c{
        {text_field("case", "case", width(rows, &CaseRow::label, 4)), [](const CaseRow& w) { return Json(w.label); }},
        {text_field("element", "type", -6), [](const CaseRow& w) { return Json(w.element); }},
        {text_field("variant", "variant", width(rows, &CaseRow::variant, 7)),
         [](const CaseRow& w) { return Json(w.variant); }},
        {median_field("time", "device ms", 10, 4), [&](const CaseRow& w) { return when(ran(w), stats_value(w.ours)); }},
        {spread_field("min-max ms", 15), [&](const CaseRow& w) { return when(ran(w), stats_value(w.ours)); }},
        {number_field("gbs", "GB/s", 9, 1), [&](const CaseRow& w) { return when(ran(w), w.gbs); }},
        {number_field("gflops", "GFLOP/s", 9, 1), [&](const CaseRow& w) { return when(ran(w), w.gflops); }},
        {percent_field(fraction_key, fraction_header, 7), [&](const CaseRow& w) { return when(ran(w), w.fraction); }}};
    if (points)
      c.push_back(
          {number_field("gpoints", "Gpoint/s", 9, 2), [&](const CaseRow& w) { return when(ran(w), w.gpoints); }});
    c.push_back({median_field("wall", "wall ms", 10, 4),
                 [&](const CaseRow& w) { return when(ran(w), stats_value(w.ours_wall)); }});
    if (any(rows, [](const CaseRow& w) { return w.error >= 0; }))
      c.push_back({error_field("relative_rms_error", "rel.rms", 9),
                   [](const CaseRow& w) { return w.error >= 0 ? Json(w.error) : Json(); }});
    if (any(rows, [](const CaseRow& w) { return w.iterations > 0; }))
      c.push_back({number_field("us_per_iteration", "us/it", 8, 1),
                   [&](const CaseRow& w) { return when(ran(w) && w.iterations > 0, w.us_per_iteration); }});
    if (any(rows, based)) {
      c.push_back({separator_field(), [](const CaseRow&) { return separator; }});
      c.push_back({text_field("baseline.routine", baseline_header, -13),
                   [&](const CaseRow& w) { return Json(based(w) ? w.routine : "-"); }});
      c.push_back({median_field("baseline.wall", "wall ms", 10, 4),
                   [&](const CaseRow& w) { return when(based(w), stats_value(w.theirs)); }});
      c.push_back(
          {ratio_field("baseline.speedup", "speedup", 8), [&](const CaseRow& w) { return when(based(w), w.speedup); }});
      c.push_back(
          {number_field("baseline.gbs", "", 0, 1), [&](const CaseRow& w) { return when(based(w), w.baseline_gbs); }});
      c.push_back({number_field("baseline.gflops", "", 0, 1),
                   [&](const CaseRow& w) { return when(based(w), w.baseline_gflops); }});
      c.push_back(
          {text_field("baseline.check", "", 0), [&](const CaseRow& w) { return when(based(w), w.baseline_check); }});
    }
    if (any(rows, [](const CaseRow& w) { return w.batched_ms > 0; })) {
      c.push_back({number_field("baseline.batched_ms", "batched ms", 11, 4),
                   [](const CaseRow& w) { return w.batched_ms > 0 ? Json(w.batched_ms) : Json(); }});
      c.push_back({number_field("ours_batched_ms", "portacl", 8, 4),
                   [](const CaseRow& w) { return w.ours_batched_ms > 0 ? Json(w.ours_batched_ms) : Json(); }});
    }
    c.push_back({text_field("", "check", -2), [](const CaseRow& w) {
                   const bool theirs_wrong = !w.routine.empty() && w.baseline_check != "ok";
                   return Json(w.check + (theirs_wrong ? "; " + w.routine + ": " + w.baseline_check : ""));
                 }});
    c.push_back({text_field("check", "", 0), [](const CaseRow& w) { return Json(w.check); }});
    c.push_back({text_field("plan", "", 0), [](const CaseRow& w) { return Json(w.plan); }});
    c.push_back({number_field("size", "", 0, 0),
                 [](const CaseRow& w) { return w.size > 0 ? Json(static_cast<double>(w.size)) : Json(); }});
    return c;
  };
  return {
      case_table("gemm",
                 "matrix multiply, square row-major (C = A B; 64 random entries checked; %fma of the FMA peak of the "
                 "element type;\nbaseline: CLBlast, wall clock; speedup = CLBlast wall / portacl wall):",
                 r.gemm, columns(r.gemm, false, "fraction_of_fma", "%fma", "CLBlast")),
      case_table("sparse",
                 "sparse y = A x and CG, float (GB/s: values, column indices, row pointers, x and y, each counted "
                 "once, from the\ndevice time; %copy of the copy bandwidth above; CG: fixed iterations from x = 0, "
                 "its whole wall time / iterations;\nbaseline: ViennaCL on the same context and queue, wall clock; "
                 "speedup = ViennaCL wall / portacl wall;\nbatched: 10 calls back to back and one wait, per call):",
                 r.sparse, columns(r.sparse, false, "fraction_of_copy", "%copy", "ViennaCL")),
      case_table("stencils",
                 "stencils (the whole call; GB/s: each grid read once and written once per step, from the device "
                 "time;\n%copy of the copy bandwidth above; Gpoint/s: outputs, or for ncc template pixels visited; "
                 "check: a\nsmall run of the same variant against the host):",
                 r.stencils, columns(r.stencils, true, "fraction_of_copy", "%copy", "baseline")),
      case_table(
          "ffts",
          "FFTs, forward (the whole call; GB/s: one read and one write of every value, VkFFT's measure, from "
          "the device time;\n%copy of the copy bandwidth above; GFLOP/s: 5 n log2 n a complex transform, 2.5 n "
          "log2 n a real one;\nrel.rms: the first transform's relative RMS error against its transform in double; "
          "check: sampled outputs\nagainst the definition in double; baseline: clFFT or VkFFT (OpenCL) on "
          "the same queue, or FFTW\n(FFTW_MEASURE, a thread a core) on a CPU device (--fft-baseline), wall clock; "
          "speedup = its wall / portacl wall;\nbatched ms: per call, 20 calls back to back and one wait, "
          "the baseline's then portacl's, the speed-up's second method):",
          r.ffts, columns(r.ffts, true, "fraction_of_copy", "%copy", "baseline"))};
}

// Every section's rows, described once: the text table, JSON and CSV all
// render these.
std::vector<Table> tables(const Report& r) {
  using portacl::Json;
  std::vector<Table> out;
  auto opt = [](bool present, Json v) { return present ? std::move(v) : Json(); };

  Table k{"kernels",
          "kernels (device ms: profiling clock, kernels only; wall ms: around the call and clFinish, as users see it;\n"
          "data: 'cache' where the bytes moved fit twice in the caches, so above 100% of copy is possible):",
          {text_field("kernel", "kernel", -20),
           size_field("n", "n", 7),
           median_field("time", "device ms", 10, 4),
           spread_field("min-max ms", 15),
           number_field("gbs", "GB/s", 9, 1),
           percent_field("fraction_of_copy", "%copy", 7),
           text_field("memory", "data", -6),
           number_field("gflops", "GFLOP/s", 8, 1),
           median_field("wall", "wall ms", 10, 4),
           separator_field(),
           text_field("baseline.routine", "baseline", -18),
           median_field("baseline.wall", "wall ms", 10, 4),
           number_field("baseline.gbs", "GB/s", 9, 1),
           text_field("", "speedup", 8),
           text_field("", "check", -2),
           text_field("plan", "", 0),
           number_field("baseline.speedup", "", 0, 2),
           text_field("baseline.check", "", 0),
           text_field("baseline.suspect", "", 0),
           text_field("baseline.library", "", 0),
           text_field("check", "", 0)}};
  for (const Row& w : r.rows) {
    const bool b = !w.baseline.empty();
    std::string check = w.check + (w.baseline_check.empty() || w.baseline_check == "ok"
                                       ? ""
                                       : "; " + w.baseline_library + ": " + w.baseline_check);
    if (!w.suspect.empty()) check += "; " + w.baseline_library + " " + w.suspect;
    const std::string speedup = !b ? "" : w.suspect.empty() ? fmt("%.2fx", w.speedup) : "(suspect)";
    const std::string routine = w.baseline_library == "CLBlast" ? w.baseline : "bc::" + w.baseline;
    const bool ran = w.ours.repetitions > 0;  // a skipped or failed case has no times
    k.add({w.kernel,
           static_cast<double>(w.n),
           opt(ran, stats_value(w.ours)),
           opt(ran, stats_value(w.ours)),
           opt(ran, w.gbs),
           opt(ran, w.fraction_of_copy),
           w.memory,
           opt(ran, w.gflops),
           opt(ran, stats_value(w.ours_wall)),
           separator,
           b ? Json(routine) : Json("-"),
           opt(b, stats_value(w.theirs)),
           opt(b, w.baseline_gbs),
           speedup,
           check,
           w.plan,
           opt(b, w.speedup),
           opt(b, w.baseline_check),
           opt(b, w.suspect),
           opt(b, w.baseline_library),
           w.check});
  }
  out.push_back(std::move(k));

  for (Table& t : case_tables(r)) out.push_back(std::move(t));

  Table cpu{"cpu_libraries",
            "the CPU libraries on the same cores (" + r.cpu_libraries +
                ";\nwall ms: around each call, portacl's with clFinish, in blocks alternated A B A B A B; "
                "speedup = library median / portacl median;\nGB/s and GFLOP/s from the library's median):",
            {text_field("kernel", "kernel", -20), size_field("n", "n", 7), median_field("ours", "portacl ms", 11, 4),
             spread_field("min-max ms", 15), separator_field(), text_field("routine", "library call", -30),
             median_field("theirs", "wall ms", 10, 4), spread_field("min-max ms", 15),
             number_field("theirs_gbs", "GB/s", 8, 1), number_field("theirs_gflops", "GFLOP/s", 8, 1),
             text_field("", "speedup", 8), text_field("check", "check", -2), number_field("speedup", "", 0, 2),
             text_field("library", "", 0)}};
  for (const CpuRow& c : r.cpu) {
    const bool ran = c.theirs.repetitions > 0;
    auto per_second = [&](double count) {
      return ran && count > 0 ? Json(count / (c.theirs.median_ms * 1e6)) : Json();
    };
    cpu.add({c.kernel, static_cast<double>(c.n), opt(ran, stats_value(c.ours)), opt(ran, stats_value(c.ours)),
             separator, c.routine, opt(ran, stats_value(c.theirs)), opt(ran, stats_value(c.theirs)),
             per_second(c.bytes), per_second(c.flops), ran ? Json(fmt("%.2fx", c.speedup)) : Json(), c.check,
             opt(ran, c.speedup), c.library});
  }
  if (!r.cpu_libraries.empty()) out.push_back(std::move(cpu));

  auto us = [](std::string key, std::string header) {
    return Field{std::move(key), std::move(header), 12,
                 [](const Json& v) { return fmt("%.1f", 1e3 * v.find("median_ms")->as_number()); }};
  };
  auto us_spread = [](std::string header) {
    return Field{"", std::move(header), 21, [](const Json& v) {
                   return fmt("%.1f", 1e3 * v.find("min_ms")->as_number()) + "-" +
                          fmt("%.1f", 1e3 * v.find("max_ms")->as_number());
                 }};
  };
  Table lat{"latency",
            "latency of small calls (host microseconds per call in a loop of back-to-back calls; round trip: one\n"
            "call + clFinish from an idle queue):",
            {text_field("call", "call", -32), text_field("problem", "problem", -8), us("host_per_call", "host us/call"),
             us_spread("min-max"), us("round_trip", "round trip us"), us_spread("min-max")}};
  for (const LatencyRow& l : r.latency)
    lat.add({l.call, l.problem, stats_value(l.host), stats_value(l.host), stats_value(l.round_trip),
             stats_value(l.round_trip)});
  out.push_back(std::move(lat));

  Table tr{"transfers",
           "host memory and back (wall clock; GB/s: host bytes moved per second, one vector for an upload or a\n"
           "download alone, three for SAXPY: x and y up, y down):",
           {text_field("path", "path", -46), size_field("n", "n", 7), median_field("wall", "wall ms", 10, 2),
            spread_field("min-max ms", 15), number_field("gbs", "GB/s", 8, 2), text_field("check", "check", -2)}};
  for (const TransferRow& t : r.transfers)
    tr.add({t.path, static_cast<double>(t.n), opt(t.wall.repetitions > 0, stats_value(t.wall)),
            opt(t.wall.repetitions > 0, stats_value(t.wall)), opt(t.wall.repetitions > 0, t.gbs), t.check});
  out.push_back(std::move(tr));
  return out;
}

}  // namespace

void print_table(std::ostream& out, const Report& r) {
  const Ceilings& c = r.ceilings;
  out << "portacl-bench on " << r.device << " (" << r.platform << ", driver " << r.driver << ", class "
      << r.device_class << ")\n"
      << "started " << r.started << ", seed " << r.seed << ", " << r.warmup << " warm-up + " << r.reps
      << " timed runs each; baselines " << (r.baselines.empty() ? "none" : r.baselines) << "\n\n"
      << "ceilings (measured now):\n"
      << "  copy bandwidth  " << fmt("%.1f", c.copy_gbs) << " GB/s  (" << c.copy_variant << " of "
      << size_label(c.copy_elements) << " floats, read+write, out of the caches; median "
      << fmt("%.4f", c.copy.median_ms) << " ms, " << spread(c.copy) << ")\n"
      << "  FP32 FMA peak   " << fmt("%.1f", c.fma_gflops) << " GFLOP/s  (median " << fmt("%.4f", c.fma.median_ms)
      << " ms, " << spread(c.fma) << ")\n";
  if (c.fma64_gflops > 0)
    out << "  FP64 FMA peak   " << fmt("%.1f", c.fma64_gflops) << " GFLOP/s  (median " << fmt("%.4f", c.fma64.median_ms)
        << " ms, " << spread(c.fma64) << ")\n";
  for (const Table& t : tables(r)) print_text(out, t);
  if (!r.sparse.empty() && !r.viennacl_missing.empty()) out << "\n  ViennaCL: " << r.viennacl_missing << "\n";
  if (!r.ffts.empty() && !r.fft_baseline_missing.empty()) out << "\n  FFT baseline: " << r.fft_baseline_missing << "\n";
  out << "\nGB/s counts the bytes each operation must move (scans: read n + write n, though the two-pass scan\n"
         "reads the input twice), from the device time; the baseline's GB/s from its wall time. %copy is of\n"
         "the copy bandwidth above. baseline: CLBlast's routine, or Boost.Compute's (bc::) where CLBlast has\n"
         "none; speedup = baseline wall median / portacl wall median: both timed the same way, on the same\n"
         "queue. A baseline figure below 10% of the copy bandwidth is marked suspect instead of compared.\n";
}

void print_json(std::ostream& out, const Report& r) {
  using portacl::Json;
  Json j = Json::object();
  j["portacl_version"] = PORTACL_VERSION_STRING;
  j["device"] = r.device;
  j["platform"] = r.platform;
  j["driver"] = r.driver;
  j["device_class"] = r.device_class;
  j["baseline"] = r.baselines;
  j["started"] = r.started;
  j["date"] = r.started_utc;
  j["seed"] = std::to_string(r.seed);  // a string: JSON numbers (doubles) would round a 64-bit seed
  j["warmup"] = r.warmup;
  j["reps"] = r.reps;
  j["clock"] = "time: OpenCL profiling events (kernels only); wall: steady_clock around the call and clFinish";
  Json c = Json::object();
  c["copy_gbs"] = r.ceilings.copy_gbs;
  c["copy_elements"] = static_cast<double>(r.ceilings.copy_elements);
  c["copy"] = stats_value(r.ceilings.copy);
  c["copy_variant"] = r.ceilings.copy_variant;  // the faster of the float4 copy and the rules' copy
  c["cache_bytes"] = r.cache_bytes;             // rows whose bytes fit twice in these are marked "cache"
  c["fma_gflops"] = r.ceilings.fma_gflops;
  c["fma"] = stats_value(r.ceilings.fma);
  if (r.ceilings.fma64_gflops > 0) {
    c["fma64_gflops"] = r.ceilings.fma64_gflops;
    c["fma64"] = stats_value(r.ceilings.fma64);
  }
  j["ceilings"] = c;
  for (const Table& t : tables(r)) j[t.name] = to_json(t);
  if (!r.sparse.empty()) j["sparse_viennacl_missing"] = r.viennacl_missing;
  if (!r.ffts.empty()) j["fft_baseline_missing"] = r.fft_baseline_missing;
  out << j.dump(2) << "\n";
}

void print_csv(std::ostream& out, const Report& r) {
  // Long format: every line says what produced it (so runs can be
  // concatenated), then the table, the row, the field and its value.
  std::ostringstream run;
  run << PORTACL_VERSION_STRING << ",\"" << r.device << "\",\"" << r.driver << "\"," << r.seed << ',' << r.started_utc;
  out << "portacl_version,device,driver,seed,date,table,row,field,value\n";
  out << run.str() << ",ceilings,0,copy_gbs," << r.ceilings.copy_gbs << "\n";
  out << run.str() << ",ceilings,0,fma_gflops," << r.ceilings.fma_gflops << "\n";
  for (const Table& t : tables(r)) bench::print_csv(out, run.str(), t);
}

}  // namespace bench
