// SPDX-License-Identifier: Apache-2.0
#include "report.hpp"

#include <cstdio>
#include <sstream>

#include "portacl/util/json.hpp"
#include "portacl/version.hpp"

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

portacl::Json stats_json(const Stats& s) { return portacl::to_json(s); }

// The baseline's side of a row: routine, timing, rate, speed-up, check.
portacl::Json baseline_json(const std::string& routine, const Stats& t, const char* rate_name, double rate,
                            double speedup, const std::string& check) {
  portacl::Json b = portacl::Json::object();
  b["routine"] = routine;
  b["wall"] = stats_json(t);
  b[rate_name] = rate;
  b["speedup"] = speedup;
  b["check"] = check;
  return b;
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
  out << "\n";
  char line[640];
  out << "kernels (device ms: profiling clock, kernels only; wall ms: around the call and clFinish, as users see "
         "it):\n";
  std::snprintf(line, sizeof line, "%-16s %7s %10s %19s %9s %7s %8s %10s | %-7s %10s %9s %7s  %s\n", "kernel", "n",
                "device ms", "min-max ms", "GB/s", "%copy", "GFLOP/s", "wall ms", "CLBlast", "wall ms", "GB/s",
                "speedup", "check");
  out << line;
  for (const Row& w : r.rows) {
    const bool b = !w.baseline.empty();
    std::string bm = b ? fmt("%.4f", w.theirs.median_ms) : "";
    std::string bg = b ? fmt("%.1f", w.baseline_gbs) : "";
    std::string sp = !b ? "" : w.suspect.empty() ? fmt("%.2fx", w.speedup) : "(suspect)";
    std::string check =
        w.check + (w.baseline_check.empty() || w.baseline_check == "ok" ? "" : "; CLBlast: " + w.baseline_check);
    if (!w.suspect.empty()) check += "; CLBlast " + w.suspect;
    std::snprintf(line, sizeof line, "%-16s %7s %10.4f %19s %9.1f %6.1f%% %8.1f %10.4f | %-7s %10s %9s %7s  %s\n",
                  w.kernel.c_str(), size_label(w.n).c_str(), w.ours.median_ms, spread(w.ours).c_str(), w.gbs,
                  100 * w.fraction_of_copy, w.gflops, w.ours_wall.median_ms, b ? w.baseline.c_str() : "-", bm.c_str(),
                  bg.c_str(), sp.c_str(), check.c_str());
    out << line;
  }
  if (!r.gemm.empty()) {
    out << "\nmatrix multiply, square row-major (C = A B; 64 random entries checked; %fma of the FMA peak of the "
           "element type):\n";
    std::snprintf(line, sizeof line, "  %-6s %-7s %10s %19s %9s %7s %10s | %-7s %10s %9s %7s  %s\n", "type", "n",
                  "device ms", "min-max ms", "GFLOP/s", "%fma", "wall ms", "CLBlast", "wall ms", "GFLOP/s", "speedup",
                  "check");
    out << line;
    for (const GemmRow& g : r.gemm) {
      const bool b = !g.baseline_check.empty();
      std::string check = g.check + (!b || g.baseline_check == "ok" ? "" : "; CLBlast: " + g.baseline_check);
      std::snprintf(line, sizeof line, "  %-6s %-7zu %10.4f %19s %9.1f %6.1f%% %10.4f | %-7s %10s %9s %7s  %s  [%s]\n",
                    g.element.c_str(), g.n, g.ours.median_ms, spread(g.ours).c_str(), g.gflops, 100 * g.fraction_of_fma,
                    g.ours_wall.median_ms, b ? g.routine.c_str() : "-",
                    b ? fmt("%.4f", g.theirs.median_ms).c_str() : "", b ? fmt("%.1f", g.baseline_gflops).c_str() : "",
                    b ? fmt("%.2fx", g.speedup).c_str() : "", check.c_str(), g.plan.c_str());
      out << line;
    }
  }
  if (!r.sparse.rows.empty()) {
    out << "\nsparse y = A x, float (GB/s: values, column indices, row pointers, x and y, each counted once, from the\n"
           "device time; %copy of the copy bandwidth above; auto: the method the rules choose):\n";
    std::snprintf(line, sizeof line, "  %-22s %9s %10s %-18s %10s %19s %9s %7s %8s %10s  %s\n", "matrix", "rows",
                  "entries", "method", "device ms", "min-max ms", "GB/s", "%copy", "GFLOP/s", "wall ms", "check");
    out << line;
    for (const SparseRow& w : r.sparse.rows) {
      std::snprintf(line, sizeof line, "  %-22s %9zu %10zu %-18s %10.4f %19s %9.1f %6.1f%% %8.1f %10.4f  %s\n",
                    w.matrix.c_str(), w.rows, w.nnz, w.method.c_str(), w.ours.median_ms, spread(w.ours).c_str(), w.gbs,
                    100 * w.fraction_of_copy, w.gflops, w.ours_wall.median_ms, w.check.c_str());
      out << line;
    }
    if (!r.sparse.viennacl.empty()) {
      out << "\n  ViennaCL's CSR SpMV on the same context and queue (wall clock; speedup = ViennaCL / portacl auto, "
             "both wall):\n";
      for (const SparseBaselineRow& b : r.sparse.viennacl) {
        std::snprintf(line, sizeof line,
                      "  %-22s %10.4f ms %19s %9.1f GB/s %7.2fx  %s  (10 back to back: %.4f ms per call, portacl "
                      "%.4f: %.2fx)\n",
                      b.matrix.c_str(), b.wall.median_ms, spread(b.wall).c_str(), b.gbs, b.speedup, b.check.c_str(),
                      b.batched_ms, b.ours_batched_ms, b.ours_batched_ms > 0 ? b.batched_ms / b.ours_batched_ms : 0.0);
        out << line;
      }
    } else {
      out << "\n  ViennaCL: " << r.sparse.viennacl_missing << "\n";
    }
    if (!r.sparse.solvers.empty()) {
      out << "\n  CG, fixed iterations from x = 0 (wall clock of the whole solve, setup included, / iterations):\n";
      for (const SolverRow& s : r.sparse.solvers) {
        std::snprintf(line, sizeof line, "  %-22s %-12s %9zu rows %5zu it %10.3f ms %19s %9.1f us/it  %s\n",
                      s.matrix.c_str(), s.library.c_str(), s.rows, s.iterations, s.wall.median_ms,
                      spread(s.wall).c_str(), s.us_per_iteration, s.check.c_str());
        out << line;
      }
    }
  }
  if (!r.stencils.empty()) {
    out << "\nstencils (the whole call; GB/s: each grid read once and written once per step, from the device time;\n"
           "%copy of the copy bandwidth above; Gpoint/s: outputs, or for ncc template pixels visited; check: a\n"
           "small run of the same variant against the host):\n";
    std::snprintf(line, sizeof line, "  %-30s %-6s %-32s %10s %19s %9s %7s %9s %9s %10s  %s\n", "stencil", "type",
                  "variant", "device ms", "min-max ms", "GB/s", "%copy", "GFLOP/s", "Gpoint/s", "wall ms", "check");
    out << line;
    for (const StencilRow& w : r.stencils) {
      std::snprintf(line, sizeof line, "  %-30s %-6s %-32s %10.3f %19s %9.1f %6.1f%% %9.1f %9.2f %10.3f  %s\n",
                    w.stencil.c_str(), w.element.c_str(), w.variant.c_str(), w.ours.median_ms, spread(w.ours).c_str(),
                    w.gbs, 100 * w.fraction_of_copy, w.gflops, w.gpoints, w.ours_wall.median_ms, w.check.c_str());
      out << line;
    }
  }
  if (!r.latency.empty()) {
    out << "\nlatency of small calls (host microseconds per call in a loop of back-to-back calls; round trip: one\n"
           "call + clFinish from an idle queue):\n";
    std::snprintf(line, sizeof line, "  %-32s %-8s %12s %21s %14s %21s\n", "call", "problem", "host us/call", "min-max",
                  "round trip us", "min-max");
    out << line;
    for (const LatencyRow& l : r.latency) {
      std::snprintf(line, sizeof line, "  %-32s %-8s %12.1f %21s %14.1f %21s\n", l.call.c_str(), l.problem.c_str(),
                    1e3 * l.host.median_ms,
                    (fmt("%.1f", 1e3 * l.host.min_ms) + "-" + fmt("%.1f", 1e3 * l.host.max_ms)).c_str(),
                    1e3 * l.round_trip.median_ms,
                    (fmt("%.1f", 1e3 * l.round_trip.min_ms) + "-" + fmt("%.1f", 1e3 * l.round_trip.max_ms)).c_str());
      out << line;
    }
  }
  if (!r.transfers.empty()) {
    out << "\nend to end from host memory (upload x and y, SAXPY, download y; wall clock):\n";
    for (const TransferRow& t : r.transfers) {
      std::snprintf(line, sizeof line, "  %-34s %7s %10.2f ms %19s %8.2f GB/s  %s\n", t.path.c_str(),
                    size_label(t.n).c_str(), t.wall.median_ms, spread(t.wall).c_str(), t.gbs, t.check.c_str());
      out << line;
    }
  }
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
  c["copy"] = stats_json(r.ceilings.copy);
  c["fma_gflops"] = r.ceilings.fma_gflops;
  c["fma"] = stats_json(r.ceilings.fma);
  if (r.ceilings.fma64_gflops > 0) {
    c["fma64_gflops"] = r.ceilings.fma64_gflops;
    c["fma64"] = stats_json(r.ceilings.fma64);
  }
  j["ceilings"] = c;
  Json rows = Json::array();
  for (const Row& w : r.rows) {
    Json e = Json::object();
    e["kernel"] = w.kernel;
    e["n"] = static_cast<double>(w.n);
    e["time"] = stats_json(w.ours);
    e["wall"] = stats_json(w.ours_wall);
    e["gbs"] = w.gbs;
    e["gflops"] = w.gflops;
    e["fraction_of_copy"] = w.fraction_of_copy;
    e["plan"] = w.plan;
    e["check"] = w.check;
    if (!w.baseline.empty()) {
      e["clblast"] = baseline_json(w.baseline, w.theirs, "gbs", w.baseline_gbs, w.speedup, w.baseline_check);
      e["clblast"]["suspect"] = w.suspect;
    }
    rows.push_back(e);
  }
  j["kernels"] = rows;
  Json tr = Json::array();
  for (const TransferRow& t : r.transfers) {
    Json e = Json::object();
    e["path"] = t.path;
    e["n"] = static_cast<double>(t.n);
    e["wall"] = stats_json(t.wall);
    e["gbs"] = t.gbs;
    e["check"] = t.check;
    tr.push_back(e);
  }
  j["transfers"] = tr;
  Json gm = Json::array();
  for (const GemmRow& g : r.gemm) {
    Json e = Json::object();
    e["element"] = g.element;
    e["n"] = static_cast<double>(g.n);
    e["time"] = stats_json(g.ours);
    e["wall"] = stats_json(g.ours_wall);
    e["gflops"] = g.gflops;
    e["fraction_of_fma"] = g.fraction_of_fma;
    e["plan"] = g.plan;
    e["check"] = g.check;
    if (!g.baseline_check.empty())
      e["clblast"] = baseline_json(g.routine, g.theirs, "gflops", g.baseline_gflops, g.speedup, g.baseline_check);
    gm.push_back(e);
  }
  j["gemm"] = gm;
  Json lat = Json::array();
  for (const LatencyRow& l : r.latency) {
    Json e = Json::object();
    e["call"] = l.call;
    e["problem"] = l.problem;
    e["host_per_call"] = stats_json(l.host);
    e["round_trip"] = stats_json(l.round_trip);
    lat.push_back(e);
  }
  j["latency"] = lat;
  Json sp = Json::array();
  for (const SparseRow& w : r.sparse.rows) {
    Json e = Json::object();
    e["matrix"] = w.matrix;
    e["rows"] = static_cast<double>(w.rows);
    e["nnz"] = static_cast<double>(w.nnz);
    e["method"] = w.method;
    e["automatic"] = w.automatic;
    e["time"] = stats_json(w.ours);
    e["wall"] = stats_json(w.ours_wall);
    e["gbs"] = w.gbs;
    e["gflops"] = w.gflops;
    e["fraction_of_copy"] = w.fraction_of_copy;
    e["check"] = w.check;
    if (w.automatic) e["plan"] = w.plan;
    sp.push_back(e);
  }
  j["sparse"] = sp;
  Json vc = Json::array();
  for (const SparseBaselineRow& b : r.sparse.viennacl) {
    Json e = Json::object();
    e["matrix"] = b.matrix;
    e["wall"] = stats_json(b.wall);
    e["gbs"] = b.gbs;
    e["speedup"] = b.speedup;
    e["batched_ms"] = b.batched_ms;
    e["ours_batched_ms"] = b.ours_batched_ms;
    e["check"] = b.check;
    vc.push_back(e);
  }
  j["sparse_viennacl"] = vc;
  j["sparse_viennacl_missing"] = r.sparse.viennacl_missing;
  Json sv = Json::array();
  for (const SolverRow& s : r.sparse.solvers) {
    Json e = Json::object();
    e["matrix"] = s.matrix;
    e["library"] = s.library;
    e["rows"] = static_cast<double>(s.rows);
    e["iterations"] = static_cast<double>(s.iterations);
    e["wall"] = stats_json(s.wall);
    e["us_per_iteration"] = s.us_per_iteration;
    e["check"] = s.check;
    sv.push_back(e);
  }
  j["solvers"] = sv;
  Json st = Json::array();
  for (const StencilRow& w : r.stencils) {
    Json e = Json::object();
    e["stencil"] = w.stencil;
    e["element"] = w.element;
    e["variant"] = w.variant;
    e["time"] = stats_json(w.ours);
    e["wall"] = stats_json(w.ours_wall);
    e["gbs"] = w.gbs;
    e["gflops"] = w.gflops;
    e["gpoints"] = w.gpoints;
    e["fraction_of_copy"] = w.fraction_of_copy;
    e["check"] = w.check;
    st.push_back(e);
  }
  j["stencils"] = st;
  out << j.dump(2) << "\n";
}

void print_csv(std::ostream& out, const Report& r) {
  // Every row says what produced it, so rows from several runs can be
  // concatenated and still be told apart.
  std::ostringstream run;
  run << PORTACL_VERSION_STRING << ",\"" << r.device << "\",\"" << r.driver << "\"," << r.seed << ',' << r.started_utc;
  out << "portacl_version,device,driver,seed,date,kernel,n,median_ms,min_ms,max_ms,reps,gbs,gflops,fraction_of_copy,"
         "copy_gbs,check,baseline,"
         "baseline_wall_median_ms,baseline_gbs,speedup,baseline_gflops,wall_median_ms,suspect\n";
  for (const Row& w : r.rows) {
    out << run.str() << ',' << w.kernel << ',' << w.n << ',' << w.ours.median_ms << ',' << w.ours.min_ms << ','
        << w.ours.max_ms << ',' << w.ours.repetitions << ',' << w.gbs << ',' << w.gflops << ',' << w.fraction_of_copy
        << ',' << r.ceilings.copy_gbs << ',' << '"' << w.check << "\"," << w.baseline << ',';
    if (!w.baseline.empty())
      out << w.theirs.median_ms << ',' << w.baseline_gbs << ',' << w.speedup;
    else
      out << ",,";
    out << ",," << w.ours_wall.median_ms << ",\"" << w.suspect << "\"\n";
  }
  // Matrix multiplies: n is the order; no bandwidth columns.
  for (const GemmRow& g : r.gemm) {
    const bool b = !g.baseline_check.empty();
    out << run.str() << ',' << (g.element == "double" ? "dgemm" : "sgemm") << ',' << g.n << ',' << g.ours.median_ms
        << ',' << g.ours.min_ms << ',' << g.ours.max_ms << ',' << g.ours.repetitions << ",," << g.gflops << ",,," << '"'
        << g.check << "\"," << (b ? g.routine : "") << ',';
    if (b)
      out << g.theirs.median_ms << ",," << g.speedup << ',' << g.baseline_gflops;
    else
      out << ",,,";
    out << ',' << g.ours_wall.median_ms << ",\n";
  }
  // Sparse products: n is the row count; the kernel column names the matrix
  // and the method.
  for (const SparseRow& w : r.sparse.rows)
    out << run.str() << ",\"spmv " << w.matrix << ' ' << w.method << "\"," << w.rows << ',' << w.ours.median_ms << ','
        << w.ours.min_ms << ',' << w.ours.max_ms << ',' << w.ours.repetitions << ',' << w.gbs << ',' << w.gflops << ','
        << w.fraction_of_copy << ',' << r.ceilings.copy_gbs << ",\"" << w.check << "\",,,,,," << w.ours_wall.median_ms
        << ",\n";
}

}  // namespace bench
