// SPDX-License-Identifier: Apache-2.0
#include "sparse_cases.hpp"

#include "tuning/bench_cases.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "portacl/kernels/sparse/krylov.hpp"
#include "kernels/sparse/generators.hpp"
#include "tuning/sparse_reference.hpp"
#include "../common/cli.hpp"
#include "viennacl_baseline.hpp"

namespace bench {
namespace {

using namespace portacl;

// A generated matrix of the sparse family's case list
// (src/tuning/operations/sparse_operations.cpp).
HostCsr<float> generate(const std::string& text, unsigned long long seed) {
  const CaseSpec s = parse_case(case_forms("sparse"), text);
  if (s.kind == "poisson2d") return poisson2d<float>(s.values[0]);
  if (s.kind == "poisson3d27") return poisson3d27<float>(s.values[0]);
  return power_law_rows<float>(s.values[0], static_cast<double>(s.values[1]), seed);
}

// Bytes an SpMV must move, each array once: values, column indices, row
// pointers (32-bit), x and y (written; beta = 0).
double effective_bytes(const HostCsr<float>& a) {
  return double(a.nnz()) * 8 + double(a.rows + 1) * 4 + double(a.cols) * 4 + double(a.rows) * 4;
}

// Why a format would be unreasonable for this matrix ("" when it is not):
// the benchmark does not convert into storage many times CSR's size.
std::string unreasonable(const SpmvMethod& m, const SparseShape& s) {
  const double csr_slots = std::max<double>(1, double(s.nnz));
  if (m.format == SparseFormat::dia && double(s.diagonals) * double(s.rows) > 4 * csr_slots)
    return "skipped: " + std::to_string(s.diagonals) + " diagonals would take " +
           std::to_string(int(double(s.diagonals) * double(s.rows) / csr_slots)) + "x CSR's slots";
  if ((m.format == SparseFormat::ell || m.format == SparseFormat::ell_r) &&
      double(s.longest_row) * double(s.rows) > 4 * csr_slots)
    return "skipped: padding to the longest row (" + std::to_string(s.longest_row) + ") would take " +
           std::to_string(int(double(s.longest_row) * double(s.rows) / csr_slots)) + "x CSR's slots";
  return "";
}

std::string check_product(const HostCsr<float>& a, const std::vector<float>& x, const std::vector<float>& y) {
  const std::string problem =
      reference::compare(y, reference::csr_product(a, x),
                         reference::dot_bound<float>(std::max<std::size_t>(1, reference::longest_row(a))) /
                             std::numeric_limits<float>::epsilon());
  return problem.empty() ? "ok" : problem;
}

void one_matrix(Context& ctx, const std::string& name, const HostCsr<float>& host, int warmup, int reps, bool baseline,
                unsigned long long seed, const Ceilings& ceilings, SparseReport& out) {
  const SparseMatrix<float> a(ctx, host);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> hx(host.cols);
  for (auto& v : hx) v = d(rng);
  Buffer<float> x(ctx, hx), y(ctx, host.rows);
  const double bytes = effective_bytes(host);
  std::vector<SpmvMethod> methods = spmv_methods();
  const std::size_t automatic = methods.size();
  double auto_wall = 0;
  for (std::size_t k = 0; k <= automatic; ++k) {
    SparseRow row;
    row.matrix = name;
    row.rows = host.rows;
    row.nnz = host.nnz();
    row.automatic = k == automatic;
    const SpmvMethod method = row.automatic ? spmv_choice(ctx, a).method : methods[k];
    row.method = row.automatic ? "auto (" + method.name() + ")" : method.name();
    row.check = unreasonable(method, a.shape());
    if (!row.check.empty()) {
      out.rows.push_back(row);
      continue;
    }
    auto call = [&] {
      if (row.automatic)
        spmv(ctx, 1.0f, a, x, 0.0f, y);
      else
        spmv(ctx, 1.0f, a, x, 0.0f, y, method);
    };
    try {
      y.upload(std::vector<float>(host.rows, std::numeric_limits<float>::quiet_NaN()));
      call();  // converts the format on first use: not timed
      row.check = check_product(host, hx, y.download());
      if (row.automatic) row.plan = spmv(ctx, 1.0f, a, x, 0.0f, y).explain();
      row.ours = measure(warmup, reps, [&] { return portacl_ms(ctx, call); });
      row.ours_wall = measure(warmup, reps, [&] { return wall_ms(ctx, call); });
      row.gbs = bytes / (row.ours.median_ms * 1e6);
      row.gflops = 2.0 * double(host.nnz()) / (row.ours.median_ms * 1e6);
      row.fraction_of_copy = row.gbs / ceilings.copy_gbs;
      if (row.automatic) auto_wall = row.ours_wall.median_ms;
    } catch (const std::exception& e) {
      row.check = std::string("failed: ") + e.what();
    }
    out.rows.push_back(row);
  }
  // CG's time per iteration on symmetric positive definite matrices (the
  // generated Laplacians): a fixed number of iterations (tolerance 0), the
  // whole solve's wall clock divided by it, setup included.
  const bool spd = name.rfind("poisson", 0) == 0;
  const std::size_t iterations = 200;
  std::unique_ptr<ViennaclSparse> vcl;
  if (baseline && out.viennacl_missing.empty()) vcl = viennacl_sparse(ctx, host, hx);
  if (spd) {
    SolverRow s;
    s.matrix = name;
    s.library = "portacl CG";
    s.rows = host.rows;
    s.iterations = iterations;
    SolverOptions o;
    o.tolerance = 0;
    o.max_iterations = iterations;
    Buffer<float> sol(ctx, host.rows);
    SolverResult last;
    s.wall = measure(1, std::max(3, reps / 4), [&] {
      sol.upload(std::vector<float>(host.rows, 0.0f));
      return wall_ms(ctx, [&] { last = cg(ctx, a, x, sol, o); });
    });
    s.us_per_iteration = 1e3 * s.wall.median_ms / double(iterations);
    s.check = last.iterations == iterations
                  ? "ok"
                  : "stopped after " + std::to_string(last.iterations) + ": " + last.stop_reason;
    out.solvers.push_back(s);
    if (vcl) {
      SolverRow v = s;
      v.library = "ViennaCL CG";
      v.wall = measure(1, std::max(3, reps / 4), [&] { return wall_ms(ctx, [&] { vcl->cg(iterations); }); });
      v.us_per_iteration = 1e3 * v.wall.median_ms / double(iterations);
      v.check = "ok";
      out.solvers.push_back(v);
    }
  }
  if (vcl) {
    SparseBaselineRow b;
    b.matrix = name;
    vcl->spmv();
    b.check = check_product(host, hx, vcl->y());
    b.wall = measure(warmup, reps, [&] { return wall_ms(ctx, [&] { vcl->spmv(); }); });
    b.batched_ms =
        measure(1, std::max(3, reps / 4), [&] { return wall_ms(ctx, [&] { vcl->spmv(10); }); }).median_ms / 10;
    b.ours_batched_ms = measure(1, std::max(3, reps / 4),
                                [&] {
                                  return wall_ms(ctx, [&] {
                                    for (int k = 0; k < 10; ++k) spmv(ctx, 1.0f, a, x, 0.0f, y);
                                  });
                                })
                            .median_ms /
                        10;
    b.gbs = bytes / (b.wall.median_ms * 1e6);
    b.speedup = auto_wall > 0 ? b.wall.median_ms / auto_wall : 0;
    out.viennacl.push_back(b);
  }
}

}  // namespace

void check_sparse_specs(const std::vector<std::string>& specs) {
  for (const std::string& s : specs) parse_case(case_forms("sparse"), s);
}

std::vector<MatrixFile> read_matrix_files(const std::vector<std::string>& paths) {
  std::vector<MatrixFile> files;
  for (const std::string& path : paths)
    files.push_back(MatrixFile{path.substr(path.find_last_of('/') + 1),
                               csr_from_entries<float>(general_entries(read_matrix_market(path)))});
  return files;
}

SparseReport run_sparse(Context& ctx, const std::vector<std::string>& specs, const std::vector<MatrixFile>& files,
                        int warmup, int reps, bool baseline, unsigned long long seed, const Ceilings& ceilings) {
  SparseReport out;
  out.viennacl_missing = baseline ? viennacl_missing() : "not asked for (--no-baseline)";
  for (const std::string& spec : specs)
    one_matrix(ctx, spec, generate(spec, seed), warmup, reps, baseline, seed, ceilings, out);
  for (const MatrixFile& file : files)
    one_matrix(ctx, file.name, file.csr, warmup, reps, baseline, seed, ceilings, out);
  return out;
}

}  // namespace bench
