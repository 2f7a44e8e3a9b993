// SPDX-License-Identifier: Apache-2.0
// The sparse family's benchmark cases (portacl-bench --sparse and
// --matrix): y = A x (float) by the rules' choice and by every method, and
// on the generated Laplacians (symmetric positive definite) CG's time per
// iteration. Each product is checked against the host on the matrix itself;
// CG is checked by a small solve to a tolerance, its true residual computed
// on the host.
#include <algorithm>
#include <limits>
#include <random>

#include "../family.hpp"
#include "../sparse_cases.hpp"
#include "family_parts.hpp"
#include "../sparse_reference.hpp"
#include "kernels/sparse/generators.hpp"
#include "portacl/error.hpp"
#include "portacl/sparse.hpp"
#include "portacl/vectors.hpp"

namespace portacl {
namespace {

struct SparseState {
  SparseState(Context& ctx, std::string matrix, HostCsr<float> h, unsigned long long seed)
      : name(std::move(matrix)),
        host(std::move(h)),
        hx(drawn(host.cols, seed)),
        a(ctx, host),
        x(ctx, hx),
        y(ctx, host.rows) {}
  static std::vector<float> drawn(std::size_t n, unsigned long long seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> d(-1, 1);
    std::vector<float> v(n);
    for (auto& e : v) e = d(rng);
    return v;
  }
  std::string name;
  HostCsr<float> host;
  std::vector<float> hx;
  SparseMatrix<float> a;
  Buffer<float> x, y;
};

// The case's state and which operation it times: what sparse_case_input
// hands a baseline.
struct SparseCaseState {
  std::shared_ptr<SparseState> problem;
  SparseCaseInput::Operation operation;
};

// Bytes an SpMV must move, each array once: values, column indices, row
// pointers (32-bit), x and y (written; beta = 0).
double product_bytes(const HostCsr<float>& a) {
  return double(a.nnz()) * 8 + double(a.rows + 1) * 4 + double(a.cols) * 4 + double(a.rows) * 4;
}

// Why a format would be unreasonable for this matrix ("" when it is not):
// the benchmark does not convert into storage many times CSR's size.
std::string unreasonable(const SpmvMethod& m, const SparseShape& s) {
  const double csr_slots = std::max<double>(1, double(s.nnz));
  auto skipped = [&](const std::string& why, double slots) {
    return "skipped: " + why + " would take " + std::to_string(int(slots / csr_slots)) + "x CSR's slots";
  };
  if (m.format == SparseFormat::dia && double(s.diagonals) * double(s.rows) > 4 * csr_slots)
    return skipped(std::to_string(s.diagonals) + " diagonals", double(s.diagonals) * double(s.rows));
  if ((m.format == SparseFormat::ell || m.format == SparseFormat::ell_r) &&
      double(s.longest_row) * double(s.rows) > 4 * csr_slots)
    return skipped("padding to the longest row (" + std::to_string(s.longest_row) + ")",
                   double(s.longest_row) * double(s.rows));
  return "";
}

std::string check_product(SparseState& s, const std::optional<SpmvMethod>& method) {
  s.y.upload(std::vector<float>(s.host.rows, std::numeric_limits<float>::quiet_NaN()));
  if (method)
    spmv(s.a.context(), 1.0f, s.a, s.x, 0.0f, s.y, *method);
  else
    spmv(s.a.context(), 1.0f, s.a, s.x, 0.0f, s.y);
  return reference::compare(s.y.download(), reference::csr_product(s.host, s.hx),
                            reference::dot_bound<float>(std::max<std::size_t>(1, reference::longest_row(s.host))) /
                                std::numeric_limits<float>::epsilon());
}

// "rules (dia)": the method the rules chose, as the call's plan says.
std::string rules_method(const LaunchPlan& plan) {
  const Decision* method = plan.decision("spmv_method");
  return "rules (" + (method ? method->value : std::string("?")) + ")";
}

BenchCase product_case(Context& ctx, const std::string& name, const std::shared_ptr<SparseState>& s) {
  const double nnz = double(s->host.nnz());
  BenchCase c{
      "spmv " + name + " (" + std::to_string(s->host.rows) + " rows, " + std::to_string(s->host.nnz()) + " entries)",
      "float", product_bytes(s->host), 2 * nnz, double(s->host.rows)};
  c.state = std::make_shared<SparseCaseState>(SparseCaseState{s, SparseCaseInput::Operation::product});
  BenchVariant rules{"rules", [s] { return check_product(*s, std::nullopt); },
                     [&ctx, s] { return spmv(ctx, 1.0f, s->a, s->x, 0.0f, s->y); }};
  rules.describe = rules_method;
  c.variants.push_back(std::move(rules));
  for (const SpmvMethod& m : spmv_methods()) {
    BenchVariant forced{m.name(), [s, m] { return check_product(*s, m); },
                        [&ctx, s, m] { return spmv(ctx, 1.0f, s->a, s->x, 0.0f, s->y, m); }};
    forced.skip = unreasonable(m, s->a.shape());
    c.variants.push_back(std::move(forced));
  }
  return c;
}

// CG from x = 0 for exactly `iterations` iterations (tolerance 0); its plan
// is its SpMV's.
constexpr std::size_t kCgIterations = 200;

// A small solve of the same kind to a tolerance, judged by the true
// residual on the host: the check of the timed CG's arithmetic.
std::string check_cg(Context& ctx) {
  const HostCsr<float> small = poisson2d<float>(23);
  const SparseMatrix<float> a(ctx, small);
  const std::vector<float> hb = SparseState::drawn(small.rows, 23);
  const Buffer<float> b(ctx, hb);
  Buffer<float> x(ctx, std::vector<float>(small.rows, 0.0f));
  SolverOptions o;
  o.tolerance = 1e-5;
  const SolverResult r = cg(ctx, a, b, x, o);
  const double residual = reference::relative_residual(small, hb, x.download());
  if (!r.converged) return "a 529-row Laplacian did not converge: " + r.stop_reason;
  if (residual > 1e-4) return "a 529-row Laplacian: true residual " + std::to_string(residual) + " at the stop";
  return "";
}

// The rules' way of running CG's iteration on this device for this matrix
// (rule solver.replay-iteration), from one iteration's plan, and whether
// the other way can run here: the variant set beside the rules'.
struct IterationWays {
  bool rules_replay = false;
  std::string other_skip;  ///< "" when the other way runs
};
IterationWays iteration_ways(Context& ctx, SparseState& s, Buffer<float>& x) {
  SolverOptions o;
  o.tolerance = 0;
  o.max_iterations = 1;
  fill(ctx, x, 0.0f);
  const SolverResult probe = cg(ctx, s.a, s.x, x, o);
  const Decision* way = probe.spmv_plan.decision("iteration");
  IterationWays ways;
  ways.rules_replay = way && way->value == "recorded once, replayed";
  if (!ways.rules_replay) {
    o.replay_iteration = true;
    try {
      fill(ctx, x, 0.0f);
      cg(ctx, s.a, s.x, x, o);
    } catch (const Error& e) {
      ways.other_skip = std::string("skipped: ") + e.what();
    }
  }
  return ways;
}

BenchCase cg_case(Context& ctx, const std::string& name, const std::shared_ptr<SparseState>& s) {
  // Each iteration: one SpMV, and 10 vector passes (2 dots, 3 updates).
  const double n = double(s->host.rows), it = double(kCgIterations);
  BenchCase c{"cg " + name + ", " + std::to_string(kCgIterations) + " iterations", "float",
              it * (product_bytes(s->host) + 10 * 4 * n), it * (2 * double(s->host.nnz()) + 10 * n), it * n};
  c.iterations = kCgIterations;
  c.state = std::make_shared<SparseCaseState>(SparseCaseState{s, SparseCaseInput::Operation::cg});
  auto solution = std::make_shared<Buffer<float>>(ctx, s->host.rows);
  auto last = std::make_shared<SolverResult>();
  BenchVariant rules{"rules", [&ctx] { return check_cg(ctx); },
                     [&ctx, s, solution, last] {
                       SolverOptions o;
                       o.tolerance = 0;
                       o.max_iterations = kCgIterations;
                       fill(ctx, *solution, 0.0f);
                       *last = cg(ctx, s->a, s->x, *solution, o);
                       return last->spmv_plan;
                     }};
  rules.describe = rules_method;
  rules.after = [last]() -> std::string {
    if (last->iterations == kCgIterations) return "";
    return "stopped after " + std::to_string(last->iterations) + ": " + last->stop_reason;
  };
  c.variants.push_back(std::move(rules));
  // The same solve the other way (rule solver.replay-iteration): launched
  // kernel by kernel where the rules replay the iteration, replayed where
  // the device can and the rules launch.
  const IterationWays ways = iteration_ways(ctx, *s, *solution);
  const bool replay = !ways.rules_replay;
  BenchVariant other{replay ? "replayed (cl_khr_command_buffer)" : "launched kernel by kernel",
                     [&ctx] { return check_cg(ctx); },
                     [&ctx, s, solution, last, replay] {
                       SolverOptions o;
                       o.tolerance = 0;
                       o.max_iterations = kCgIterations;
                       o.replay_iteration = replay;
                       fill(ctx, *solution, 0.0f);
                       *last = cg(ctx, s->a, s->x, *solution, o);
                       return last->spmv_plan;
                     }};
  other.after = c.variants.back().after;
  other.skip = ways.other_skip;
  c.variants.push_back(std::move(other));
  return c;
}

std::vector<BenchCase> cases_of(Context& ctx, const std::string& name, HostCsr<float> a, unsigned long long seed,
                                bool spd) {
  auto s = std::make_shared<SparseState>(ctx, name, std::move(a), seed);
  std::vector<BenchCase> out{product_case(ctx, name, s)};
  if (spd) out.push_back(cg_case(ctx, name, s));
  return out;
}

std::vector<BenchCase> sparse_bench_cases(Context& ctx, const CaseSpec& spec, unsigned long long seed) {
  const std::vector<std::size_t>& v = spec.values;
  const std::string& k = spec.kind;
  if (k == "poisson2d") return cases_of(ctx, spec.text, poisson2d<float>(v[0]), seed, true);
  if (k == "poisson3d27") return cases_of(ctx, spec.text, poisson3d27<float>(v[0]), seed, true);
  if (k == "permuted2d") return cases_of(ctx, spec.text, permuted_symmetric(poisson2d<float>(v[0]), seed), seed, true);
  if (k == "block3d") return cases_of(ctx, spec.text, block_poisson3d<float>(v[0]), seed, true);
  if (k == "web") return cases_of(ctx, spec.text, web_graph<float>(v[0], seed), seed, false);
  if (k == "circuit") return cases_of(ctx, spec.text, circuit<float>(v[0], seed), seed, false);
  if (k == "tall") return cases_of(ctx, spec.text, tall_random<float>(v[0], v[1], v[2], seed), seed, false);
  return cases_of(ctx, spec.text, power_law_rows<float>(v[0], double(v[1]), seed), seed, false);
}

CaseForms sparse_forms() {
  return {"--sparse",
          {{"poisson2d", {{"N"}}, "the 5-point Laplacian, N^2 rows (and CG)"},
           {"poisson3d27", {{"N"}}, "the 27-point Laplacian, N^3 rows (and CG)"},
           {"permuted2d", {{"N"}}, "the 5-point Laplacian renumbered at random, N^2 rows (and CG)"},
           {"block3d", {{"N"}}, "3 unknowns per node of N^3, 27-point connectivity (and CG)"},
           {"powerlaw", {{"ROWS"}, {"MEAN"}}, "power-law row lengths, about MEAN entries a row"},
           {"web", {{"ROWS"}}, "a web-like graph: Zipf(2) row lengths up to 10^5, 70% near the diagonal"},
           {"circuit", {{"ROWS"}}, "a diagonal, 2 random entries a row, 16 dense rows and columns"},
           {"tall", {{"ROWS"}, {"COLS"}, {"PER_ROW"}}, "ROWS x COLS, PER_ROW random entries a row"}}};
}

const FamilyRegistration sparse_family(
    {"sparse",
     70,
     sparse_operations,
     sparse_forms,
     sparse_bench_cases,
     {{"cg", {{"N", 0, "", 2}}, "CG on 2D Poisson, an N x N grid (double), per iteration"},
      {"spmv", {{"N", 0, "", 2}}, "its product alone (y = A x), per product"}}});

}  // namespace

SparseCaseInput sparse_case_input(const BenchCase& c) {
  if (c.family != "sparse" || !c.state) throw Error("'" + c.label + "' is not a case of the sparse family");
  const auto& state = *std::static_pointer_cast<SparseCaseState>(c.state);
  return {state.operation, state.problem->name, &state.problem->host, &state.problem->hx};
}

std::vector<BenchCase> sparse_matrix_cases(Context& ctx, const std::string& name, HostCsr<float> a,
                                           unsigned long long seed) {
  std::vector<BenchCase> out = cases_of(ctx, name, std::move(a), seed, false);
  for (BenchCase& c : out) c.family = "sparse";
  return out;
}

}  // namespace portacl
