// SPDX-License-Identifier: Apache-2.0
#include "report.hpp"

#include <cstdio>
#include <sstream>

#include "portacl/util/json.hpp"
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

// Every section's rows, described once: the text table, JSON and CSV all
// render these.
std::vector<Table> tables(const Report& r) {
  using portacl::Json;
  std::vector<Table> out;
  auto opt = [](bool present, Json v) { return present ? std::move(v) : Json(); };

  Table k{
      "kernels",
      "kernels (device ms: profiling clock, kernels only; wall ms: around the call and clFinish, as users see it):",
      {text_field("kernel", "kernel", -20), size_field("n", "n", 7), median_field("time", "device ms", 10, 4),
       spread_field("min-max ms", 15), number_field("gbs", "GB/s", 9, 1), percent_field("fraction_of_copy", "%copy", 7),
       number_field("gflops", "GFLOP/s", 8, 1), median_field("wall", "wall ms", 10, 4), separator_field(),
       text_field("clblast.routine", "CLBlast", -7), median_field("clblast.wall", "wall ms", 10, 4),
       number_field("clblast.gbs", "GB/s", 9, 1), text_field("", "speedup", 8), text_field("", "check", -2),
       text_field("plan", "", 0), number_field("clblast.speedup", "", 0, 2), text_field("clblast.check", "", 0),
       text_field("clblast.suspect", "", 0), text_field("check", "", 0)}};
  for (const Row& w : r.rows) {
    const bool b = !w.baseline.empty();
    std::string check =
        w.check + (w.baseline_check.empty() || w.baseline_check == "ok" ? "" : "; CLBlast: " + w.baseline_check);
    if (!w.suspect.empty()) check += "; CLBlast " + w.suspect;
    const std::string speedup = !b ? "" : w.suspect.empty() ? fmt("%.2fx", w.speedup) : "(suspect)";
    k.add({w.kernel, static_cast<double>(w.n), stats_value(w.ours), stats_value(w.ours), w.gbs, w.fraction_of_copy,
           w.gflops, stats_value(w.ours_wall), separator, b ? Json(w.baseline) : Json("-"),
           opt(b, stats_value(w.theirs)), opt(b, w.baseline_gbs), speedup, check, w.plan, opt(b, w.speedup),
           opt(b, w.baseline_check), opt(b, w.suspect), w.check});
  }
  out.push_back(std::move(k));

  Table g{"gemm",
          "matrix multiply, square row-major (C = A B; 64 random entries checked; %fma of the FMA peak of the element "
          "type):",
          {text_field("element", "type", -6),
           number_field("n", "n", 7, 0),
           median_field("time", "device ms", 10, 4),
           spread_field("min-max ms", 15),
           number_field("gflops", "GFLOP/s", 9, 1),
           percent_field("fraction_of_fma", "%fma", 7),
           median_field("wall", "wall ms", 10, 4),
           separator_field(),
           text_field("clblast.routine", "CLBlast", -7),
           median_field("clblast.wall", "wall ms", 10, 4),
           number_field("clblast.gflops", "GFLOP/s", 9, 1),
           ratio_field("clblast.speedup", "speedup", 7),
           text_field("", "check", -2),
           {"plan", "plan", -2, [](const Json& v) { return "[" + v.as_string() + "]"; }},
           text_field("check", "", 0),
           text_field("clblast.check", "", 0)}};
  for (const GemmRow& e : r.gemm) {
    const bool b = !e.baseline_check.empty();
    g.add({e.element, static_cast<double>(e.n), stats_value(e.ours), stats_value(e.ours), e.gflops, e.fraction_of_fma,
           stats_value(e.ours_wall), separator, b ? Json(e.routine) : Json("-"), opt(b, stats_value(e.theirs)),
           opt(b, e.baseline_gflops), opt(b, e.speedup),
           e.check + (!b || e.baseline_check == "ok" ? "" : "; CLBlast: " + e.baseline_check), e.plan, e.check,
           opt(b, e.baseline_check)});
  }
  out.push_back(std::move(g));

  Table sp{"sparse",
           "sparse y = A x, float (GB/s: values, column indices, row pointers, x and y, each counted once, from the\n"
           "device time; %copy of the copy bandwidth above; auto: the method the rules choose):",
           {text_field("matrix", "matrix", -22),
            number_field("rows", "rows", 9, 0),
            number_field("nnz", "entries", 10, 0),
            text_field("method", "method", -18),
            median_field("time", "device ms", 10, 4),
            spread_field("min-max ms", 15),
            number_field("gbs", "GB/s", 9, 1),
            percent_field("fraction_of_copy", "%copy", 7),
            number_field("gflops", "GFLOP/s", 8, 1),
            median_field("wall", "wall ms", 10, 4),
            text_field("check", "check", -2),
            {"automatic", "", 0, {}},
            text_field("plan", "", 0)}};
  for (const SparseRow& w : r.sparse.rows)
    sp.add({w.matrix, static_cast<double>(w.rows), static_cast<double>(w.nnz), w.method, stats_value(w.ours),
            stats_value(w.ours), w.gbs, w.fraction_of_copy, w.gflops, stats_value(w.ours_wall), w.check, w.automatic,
            opt(w.automatic, w.plan)});
  out.push_back(std::move(sp));

  Table vc{"sparse_viennacl",
           "ViennaCL's CSR SpMV on the same context and queue (wall clock; speedup = ViennaCL / portacl auto, both "
           "wall; batched: 10 calls back to back, per call):",
           {text_field("matrix", "matrix", -22), median_field("wall", "wall ms", 10, 4), spread_field("min-max ms", 15),
            number_field("gbs", "GB/s", 9, 1), ratio_field("speedup", "speedup", 8),
            number_field("batched_ms", "batched ms", 10, 4), number_field("ours_batched_ms", "portacl", 10, 4),
            text_field("check", "check", -2)}};
  for (const SparseBaselineRow& b : r.sparse.viennacl)
    vc.add({b.matrix, stats_value(b.wall), stats_value(b.wall), b.gbs, b.speedup, b.batched_ms, b.ours_batched_ms,
            b.check});
  out.push_back(std::move(vc));

  Table sv{
      "solvers",
      "CG, fixed iterations from x = 0 (wall clock of the whole solve, setup included, / iterations):",
      {text_field("matrix", "matrix", -22), text_field("library", "library", -12), number_field("rows", "rows", 9, 0),
       number_field("iterations", "it", 5, 0), median_field("wall", "wall ms", 10, 3), spread_field("min-max ms", 15),
       number_field("us_per_iteration", "us/it", 9, 1), text_field("check", "check", -2)}};
  for (const SolverRow& e : r.sparse.solvers)
    sv.add({e.matrix, e.library, static_cast<double>(e.rows), static_cast<double>(e.iterations), stats_value(e.wall),
            stats_value(e.wall), e.us_per_iteration, e.check});
  out.push_back(std::move(sv));

  Table st{
      "stencils",
      "stencils (the whole call; GB/s: each grid read once and written once per step, from the device time;\n"
      "%copy of the copy bandwidth above; Gpoint/s: outputs, or for ncc template pixels visited; check: a\n"
      "small run of the same variant against the host):",
      {text_field("stencil", "stencil", -30), text_field("element", "type", -6), text_field("variant", "variant", -32),
       median_field("time", "device ms", 10, 3), spread_field("min-max ms", 15), number_field("gbs", "GB/s", 9, 1),
       percent_field("fraction_of_copy", "%copy", 7), number_field("gflops", "GFLOP/s", 9, 1),
       number_field("gpoints", "Gpoint/s", 9, 2), median_field("wall", "wall ms", 10, 3),
       text_field("check", "check", -2)}};
  for (const StencilRow& w : r.stencils)
    st.add({w.stencil, w.element, w.variant, stats_value(w.ours), stats_value(w.ours), w.gbs, w.fraction_of_copy,
            w.gflops, w.gpoints, stats_value(w.ours_wall), w.check});
  out.push_back(std::move(st));

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
           "end to end from host memory (upload x and y, SAXPY, download y; wall clock):",
           {text_field("path", "path", -34), size_field("n", "n", 7), median_field("wall", "wall ms", 10, 2),
            spread_field("min-max ms", 15), number_field("gbs", "GB/s", 8, 2), text_field("check", "check", -2)}};
  for (const TransferRow& t : r.transfers)
    tr.add({t.path, static_cast<double>(t.n), stats_value(t.wall), stats_value(t.wall), t.gbs, t.check});
  out.push_back(std::move(tr));
  return out;
}

}  // namespace

void print_table(std::ostream& out, const Report& r) {
  const Ceilings& c = r.ceilings;
  out << "portacl-bench on " << r.device << " (" << r.platform << ", driver " << r.driver << ", class "
      << r.device_class << ")\n"
      << "started " << r.started << ", seed " << r.seed << ", " << r.warmup << " warm-up + " << r.reps
      << " timed runs each; baseline " << (r.clblast.empty() ? "none" : r.clblast) << "\n\n"
      << "ceilings (measured now):\n"
      << "  copy bandwidth  " << fmt("%.1f", c.copy_gbs) << " GB/s  (float4 copy of " << size_label(c.copy_elements)
      << " floats, read+write; median " << fmt("%.4f", c.copy.median_ms) << " ms, " << spread(c.copy) << ")\n"
      << "  FP32 FMA peak   " << fmt("%.1f", c.fma_gflops) << " GFLOP/s  (median " << fmt("%.4f", c.fma.median_ms)
      << " ms, " << spread(c.fma) << ")\n";
  if (c.fma64_gflops > 0)
    out << "  FP64 FMA peak   " << fmt("%.1f", c.fma64_gflops) << " GFLOP/s  (median " << fmt("%.4f", c.fma64.median_ms)
        << " ms, " << spread(c.fma64) << ")\n";
  for (const Table& t : tables(r)) print_text(out, t);
  if (!r.sparse.rows.empty() && r.sparse.viennacl.empty() && !r.sparse.viennacl_missing.empty())
    out << "\n  ViennaCL: " << r.sparse.viennacl_missing << "\n";
  out << "\nGB/s counts the bytes each operation must move (scans: read n + write n, though the two-pass scan\n"
         "reads the input twice), from the device time; CLBlast's GB/s from its wall time. %copy is of the copy\n"
         "bandwidth above. speedup = CLBlast wall median / portacl wall median: both timed the same way.\n"
         "A CLBlast figure below 10% of the copy bandwidth is marked suspect instead of compared.\n";
}

void print_json(std::ostream& out, const Report& r) {
  using portacl::Json;
  Json j = Json::object();
  j["portacl_version"] = PORTACL_VERSION_STRING;
  j["device"] = r.device;
  j["platform"] = r.platform;
  j["driver"] = r.driver;
  j["device_class"] = r.device_class;
  j["baseline"] = r.clblast;
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
  c["fma_gflops"] = r.ceilings.fma_gflops;
  c["fma"] = stats_value(r.ceilings.fma);
  if (r.ceilings.fma64_gflops > 0) {
    c["fma64_gflops"] = r.ceilings.fma64_gflops;
    c["fma64"] = stats_value(r.ceilings.fma64);
  }
  j["ceilings"] = c;
  for (const Table& t : tables(r)) j[t.name] = to_json(t);
  j["sparse_viennacl_missing"] = r.sparse.viennacl_missing;
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
