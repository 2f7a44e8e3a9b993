// SPDX-License-Identifier: Apache-2.0
// CG and BiCGStab: they reach the tolerance on matrices with known
// structure (the true residual, recomputed on the host in double, agrees),
// CG's iteration count is close to a host CG's, Jacobi helps a badly
// scaled matrix, non-convergence and breakdown are reported as such, and
// bad input is refused before any launch.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "portacl/sparse.hpp"
#include "kernels/sparse/generators.hpp"
#include "../../src/tuning/sparse_reference.hpp"
#include "kernels/sparse/verified_solve.hpp"
#include "rules/replay_rules.hpp"
#include "solver_checks.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

template <class T>
double tolerance_for() {
  return sizeof(T) == 4 ? 1e-4 : 1e-9;
}

// Solves with x0 = 0 and b `hb` (random when empty); checks the reported
// and the true residual.
template <class T>
SolverResult solve_and_check(Context& ctx, const HostCsr<T>& csr, bool use_bicgstab, SolverOptions o,
                             std::vector<T> hb = {}) {
  const SparseMatrix<T> a(ctx, csr);
  if (hb.empty()) hb = test::random_vector<T>(csr.rows);
  Buffer<T> b(ctx, hb), x(ctx, std::vector<T>(csr.rows, T(0)));
  const SolverResult r = use_bicgstab ? bicgstab(ctx, a, b, x, o) : cg(ctx, a, b, x, o);
  INFO((use_bicgstab ? "BiCGStab: " : "CG: ")
       << r.stop_reason << " after " << r.iterations << " iterations, residual " << r.residual);
  INFO(r.spmv_plan.explain());
  CHECK(r.converged);
  CHECK(r.stop_reason == "converged");
  CHECK(r.residual < o.tolerance);
  CHECK(r.history.size() == r.iterations);
  if (!r.history.empty()) CHECK(r.history.back() == r.residual);  // the same value, read twice
  // Converged means the true residual met the tolerance (the recurrence's
  // drifts from it; the solver starts again from x where it must).
  test::check_true_residual(csr, hb, x.download(), r, o.tolerance);
  return r;
}

}  // namespace

TEMPLATE_TEST_CASE("CG reaches the tolerance on 2D Poisson within the Chebyshev bound's iterations", "[solvers]", float,
                   double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const HostCsr<T> csr = poisson2d<T>(37);  // 1369 unknowns
  SolverOptions o;
  o.tolerance = tolerance_for<T>();
  o.max_iterations = 2000;
  const std::vector<T> rhs = test::random_vector<T>(csr.rows);
  const SolverResult device = solve_and_check<T>(ctx, csr, false, o, rhs);
  const std::size_t host = reference::cg_iterations(csr, rhs, o.tolerance, 2000);
  const std::size_t bound = reference::poisson2d_cg_bound(37, o.tolerance, test::unit_roundoff<T>());
  const std::size_t delay = reference::poisson2d_cg_delay(37, host, test::unit_roundoff<T>(), o.tolerance);
  INFO("device " << device.iterations << ", host " << host << ", bound " << bound << ", rounding delay " << delay);
  CHECK(host > 20);
  CHECK(host <= bound);  // the double reference obeys it too
  CHECK(device.iterations <= bound);
  // And as the exact iteration does, within what rounding can move it.
  CHECK(device.iterations <= host + delay);
  CHECK(device.iterations + delay >= host);
}

TEMPLATE_TEST_CASE("CG's fused product and dot converge as the separate launches do, method by method", "[solvers]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // A Laplacian with its rows renumbered: ELL and ELLPACK-R padding, DIA
  // with many diagonals, an odd size.
  const HostCsr<T> csr = permuted_symmetric(poisson2d<T>(29), 5);
  const std::vector<T> rhs = test::random_vector<T>(csr.rows);
  SolverOptions o;
  o.tolerance = tolerance_for<T>();
  o.max_iterations = 2000;
  o.method = spmv_method_from_string("csr-scalar");  // not fused: a product, then krylov_dots
  const SolverResult separate = solve_and_check<T>(ctx, csr, false, o, rhs);
  CHECK(separate.spmv_plan.decision("product") == nullptr);
  CHECK(separate.spmv_plan.decision("cg_form") == nullptr);
  CHECK(separate.iterations <= reference::poisson2d_cg_bound(29, o.tolerance, test::unit_roundoff<T>()));
  // Fused and separate are the same iteration in exact arithmetic: each
  // within the rounding delay of the double reference.
  const std::size_t host = reference::cg_iterations(csr, rhs, o.tolerance, 2000);
  const std::size_t delay = reference::poisson2d_cg_delay(29, host, test::unit_roundoff<T>(), o.tolerance);
  INFO("host " << host << ", rounding delay " << delay << ", separate " << separate.iterations);
  CHECK(separate.iterations <= host + delay);
  CHECK(separate.iterations + delay >= host);
  for (const char* name : {"dia", "ell", "ell-r"}) {
    INFO(name);
    o.method = spmv_method_from_string(name);
    for (bool jacobi : {false, true}) {
      o.jacobi = jacobi;
      const SolverResult fused = solve_and_check<T>(ctx, csr, false, o, rhs);
      const Decision* product = fused.spmv_plan.decision("product");
      REQUIRE(product);
      CHECK(product->rule == "solver.fused-product-dot");
      const Decision* form = fused.spmv_plan.decision("cg_form");
      REQUIRE(form);
      CHECK(form->rule == "solver.single-reduction-cg");
      // Jacobi's diagonal is constant on a Laplacian: the same bound.
      CHECK(fused.iterations <= reference::poisson2d_cg_bound(29, o.tolerance, test::unit_roundoff<T>()));
      CHECK(fused.iterations <= host + delay);
      CHECK(fused.iterations + delay >= host);
    }
    o.jacobi = false;
  }
}

TEMPLATE_TEST_CASE("the solvers' results do not depend on how often the host checks them", "[solvers]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const HostCsr<T> csr = permuted_symmetric(poisson2d<T>(23), 3);
  const SparseMatrix<T> a(ctx, csr);
  const std::vector<T> rhs = test::random_vector<T>(csr.rows);
  const Buffer<T> b(ctx, rhs);
  // The single-reduction CG (ELLPACK-R's fused product), the three-launch
  // CG, BiCGStab; converging, and stopped by the limit between checks.
  for (const char* method : {"ell-r", "csr-scalar"})
    for (bool use_bicgstab : {false, true})
      for (std::size_t limit : {std::size_t(2000), std::size_t(13)}) {
        INFO(method << (use_bicgstab ? " BiCGStab" : " CG") << ", at most " << limit << " iterations");
        std::optional<std::vector<T>> first_x;
        std::optional<SolverResult> first;
        for (std::size_t every : {1, 3, 8, 1000}) {
          INFO("checked every " << every);
          SolverOptions o;
          o.tolerance = tolerance_for<T>();
          o.max_iterations = limit;
          o.method = spmv_method_from_string(method);
          o.check_every = every;
          Buffer<T> x(ctx, std::vector<T>(csr.rows, T(0)));
          const SolverResult r = use_bicgstab ? bicgstab(ctx, a, b, x, o) : cg(ctx, a, b, x, o);
          CHECK(r.history.size() == r.iterations);
          CHECK(r.converged == (limit == 2000));
          if (!use_bicgstab && std::string(method) == "ell-r") CHECK(r.spmv_plan.decision("cg_form") != nullptr);
          const std::vector<T> got = x.download();
          if (!first) {
            first = r;
            first_x = got;
            continue;
          }
          CHECK(r.iterations == first->iterations);
          CHECK(r.history == first->history);
          CHECK(got == *first_x);  // the same arithmetic, bit for bit
        }
      }
}

TEMPLATE_TEST_CASE("CG's iteration replayed from a recording gives its launches' results bit for bit", "[solvers]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const HostCsr<T> csr = permuted_symmetric(poisson2d<T>(19), 7);  // 361 unknowns
  const SparseMatrix<T> a(ctx, csr);
  const std::vector<T> rhs = test::random_vector<T>(csr.rows);
  const Buffer<T> b(ctx, rhs);
  cl_command_queue_properties queue_properties = 0;
  ctx.queue().getInfo(CL_QUEUE_PROPERTIES, &queue_properties);
  const ReplaySupport support = command_replay_support(ctx.info(), queue_properties);
  INFO("this device: " << (support.usable ? "replays, " : "cannot replay: ") << support.why);
  for (const char* method : {"dia", "ell-r"})
    for (bool jacobi : {false, true})
      for (std::size_t limit : {std::size_t(2000), std::size_t(11)})
        for (std::size_t every : {1, 8}) {
          INFO(method << (jacobi ? " with Jacobi" : "") << ", at most " << limit << " iterations, checked every "
                      << every);
          SolverOptions o;
          o.tolerance = tolerance_for<T>();
          o.max_iterations = limit;
          o.method = spmv_method_from_string(method);
          o.jacobi = jacobi;
          o.check_every = every;
          o.replay_iteration = false;
          Buffer<T> x_plain(ctx, std::vector<T>(csr.rows, T(0)));
          const SolverResult plain = cg(ctx, a, b, x_plain, o);
          const Decision* plain_way = plain.spmv_plan.decision("iteration");
          REQUIRE(plain_way);
          CHECK(plain_way->value == "launched kernel by kernel");
          o.replay_iteration.reset();  // the rule decides
          Buffer<T> x(ctx, std::vector<T>(csr.rows, T(0)));
          const SolverResult ruled = cg(ctx, a, b, x, o);
          const Decision* way = ruled.spmv_plan.decision("iteration");
          REQUIRE(way);
          CHECK(way->rule == "solver.replay-iteration");
          LaunchPlan scratch;
          const bool rule_replays = cg_replays_iteration(scratch, ctx.info(), queue_properties, true, std::nullopt);
          CHECK(way->value == (rule_replays ? "recorded once, replayed" : "launched kernel by kernel"));
          CHECK(ruled.converged == (limit == 2000));
          CHECK(ruled.iterations == plain.iterations);
          CHECK(ruled.history == plain.history);
          CHECK(x.download() == x_plain.download());
          if (limit == 2000) test::check_true_residual(csr, rhs, x.download(), ruled, o.tolerance);
          o.replay_iteration = true;
          if (support.usable) {
            Buffer<T> x_asked(ctx, std::vector<T>(csr.rows, T(0)));
            const SolverResult asked = cg(ctx, a, b, x_asked, o);
            REQUIRE(asked.spmv_plan.decision("iteration"));
            CHECK(asked.spmv_plan.decision("iteration")->value == "recorded once, replayed");
            CHECK(asked.iterations == plain.iterations);
            CHECK(asked.history == plain.history);
            CHECK(asked.stop_reason == plain.stop_reason);
            CHECK(x_asked.download() == x_plain.download());  // the same kernels and arguments
          } else {
            Buffer<T> x_asked(ctx, std::vector<T>(csr.rows, T(0)));
            CHECK_THROWS_WITH(cg(ctx, a, b, x_asked, o),
                              Catch::Contains("cannot be replayed as asked") && Catch::Contains(support.why));
          }
        }
  // A product that is not fused launches SpMV's own kernels, which are not
  // recorded: asking for the replay there is refused, naming why.
  SolverOptions o;
  o.method = spmv_method_from_string("csr-scalar");
  o.replay_iteration = true;
  Buffer<T> x(ctx, std::vector<T>(csr.rows, T(0)));
  CHECK_THROWS_WITH(cg(ctx, a, b, x, o), Catch::Contains("cannot be replayed") && Catch::Contains("not fused"));
  o.replay_iteration.reset();
  const SolverResult unfused = cg(ctx, a, b, x, o);
  REQUIRE(unfused.spmv_plan.decision("iteration"));
  CHECK(unfused.spmv_plan.decision("iteration")->value == "launched kernel by kernel");
}

TEMPLATE_TEST_CASE("Jacobi lowers CG's iterations on a badly scaled SPD matrix", "[solvers]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // D A D with D spanning three decades: still SPD, badly scaled.
  HostCsr<T> csr = poisson2d<T>(23);
  const std::vector<T> d = test::random_vector<T>(csr.rows, 1.0, 1000.0);
  for (std::size_t i = 0; i < csr.rows; ++i)
    for (std::uint64_t k = csr.row_ptr[i]; k < csr.row_ptr[i + 1]; ++k)
      csr.value[k] *= std::fabs(d[i]) * std::fabs(d[csr.col[k]]);
  SolverOptions o;
  o.tolerance = tolerance_for<T>() * 10;
  o.max_iterations = 5000;
  const SolverResult plain = solve_and_check<T>(ctx, csr, false, o);
  o.jacobi = true;
  const SolverResult jacobi = solve_and_check<T>(ctx, csr, false, o);
  INFO("plain " << plain.iterations << ", Jacobi " << jacobi.iterations);
  CHECK(jacobi.iterations < plain.iterations / 2);
}

TEMPLATE_TEST_CASE("BiCGStab converges on a non-symmetric convection-diffusion matrix", "[solvers]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const HostCsr<T> csr = convection_diffusion2d<T>(31, 2.0);
  SolverOptions o;
  o.tolerance = tolerance_for<T>();
  o.max_iterations = 2000;
  solve_and_check<T>(ctx, csr, true, o);
  o.jacobi = true;
  solve_and_check<T>(ctx, csr, true, o);
  o.criterion = SolverOptions::Criterion::max_residual;  // the books' absolute criterion
  o.check_every = 3;
  const SolverResult r = solve_and_check<T>(ctx, csr, true, o);
  CHECK(r.check_every == 3);
}

TEMPLATE_TEST_CASE("the solvers run under every device class's plan", "[sparse_plans]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const HostCsr<T> spd = poisson2d<T>(19), general = convection_diffusion2d<T>(17, 1.0);
  for (const auto& [f, plan] : test::class_plans(element_of<T>::value)) {
    INFO(f);
    SolverOptions o;
    o.tolerance = tolerance_for<T>();
    o.plan = plan;
    o.jacobi = true;
    solve_and_check<T>(ctx, spd, false, o);
    solve_and_check<T>(ctx, general, true, o);
  }
}

// With tolerance 0, a residual of exactly 0 is convergence (the measure
// is 0), not a breakdown on rho = 0 or omega = 0.
TEMPLATE_TEST_CASE("a residual of exactly 0 is convergence, even at tolerance 0", "[solvers]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const test::ExactInOneStep<T> system = test::exact_in_one_step<T>(227);
  const SparseMatrix<T> a = SparseMatrix<T>::from_entries(ctx, system.a);
  const Buffer<T> b(ctx, system.b);
  test::check_exact_in_one_step(system.b, [&](bool bicg, const SolverOptions& o) {
    Buffer<T> x(ctx, std::vector<T>(system.b.size(), T(0)));  // the start
    const SolverResult r = bicg ? bicgstab(ctx, a, b, x, o) : cg(ctx, a, b, x, o);
    return std::make_pair(r, x.download());
  });
}

TEST_CASE("non-convergence, breakdown and bad input are reported, never a silent answer", "[solvers]") {
  Context& ctx = test::cpu_context();
  const HostCsr<double> csr = poisson2d<double>(15);
  const SparseMatrix<double> a(ctx, csr);
  Buffer<double> b(ctx, test::random_vector<double>(225)), x(ctx, std::vector<double>(225, 0.0));
  SolverOptions o;
  o.max_iterations = 4;
  o.tolerance = 1e-12;
  SolverResult r = cg(ctx, a, b, x, o);
  CHECK_FALSE(r.converged);
  CHECK(r.iterations == 4);
  CHECK(r.history.size() == 4);
  CHECK(r.stop_reason == "iteration limit (4)");
  CHECK(r.residual > 1e-12);
  // Negative definite: p . A p < 0 is fine for CG's arithmetic, but a
  // matrix with p . A p = 0 breaks it down; an all-zero matrix does.
  CooEntries zero{225, 225, {}, {}, {}};
  for (std::uint32_t i = 0; i < 225; ++i) {
    zero.row.push_back(i);
    zero.col.push_back(i);
    zero.value.push_back(0.0);
  }
  const SparseMatrix<double> singular = SparseMatrix<double>::from_entries(ctx, zero);
  r = cg(ctx, singular, b, x, SolverOptions{});
  CHECK_FALSE(r.converged);
  CHECK_THAT(r.stop_reason, Catch::StartsWith("breakdown: p . A p = 0"));
  CHECK(r.broke_down);
  CHECK(r.restarts == 0);  // broken down in its first iteration: a new start would only repeat it
  // BiCGStab on a swap of two unknowns from b = e0: r0 . A r0 = 0 at once.
  const SparseMatrix<double> swap =
      SparseMatrix<double>::from_entries(ctx, CooEntries{2, 2, {0, 1}, {1, 0}, {1.0, 1.0}});
  Buffer<double> e0(ctx, std::vector<double>{1, 0}), swap_x(ctx, std::vector<double>{0, 0});
  r = bicgstab(ctx, swap, e0, swap_x, SolverOptions{});
  CHECK_FALSE(r.converged);
  CHECK(r.broke_down);
  CHECK(r.restarts == 0);
  CHECK_THAT(r.stop_reason, Catch::StartsWith("breakdown: r0 . v = 0"));
  // b = 0: x = 0 at once.
  Buffer<double> zero_b(ctx, std::vector<double>(225, 0.0));
  r = cg(ctx, a, zero_b, x, SolverOptions{});
  CHECK(r.converged);
  CHECK(r.iterations == 0);
  CHECK(test::first_difference(x.download(), std::vector<double>(225, 0.0)) == "equal");
  // Refused before any launch.
  const SparseMatrix<double> wide = SparseMatrix<double>::from_entries(ctx, CooEntries{3, 4, {0}, {3}, {1.0}});
  Buffer<double> three(ctx, 3), four(ctx, 4), short_b(ctx, 224);
  CHECK_THROWS_WITH(cg(ctx, wide, three, four), Catch::Contains("cg: A is 3 x 4; the solver needs a square matrix"));
  CHECK_THROWS_WITH(bicgstab(ctx, a, short_b, x), Catch::Contains("bicgstab: b has 224 elements but A has 225 rows"));
  for (double bad : {-1e-6, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    SolverOptions t;
    t.tolerance = bad;
    CHECK_THROWS_WITH(cg(ctx, a, b, x, t), Catch::Contains("cg: the tolerance must be a finite number >= 0"));
  }
  SolverOptions never;
  never.check_every = 0;
  CHECK_THROWS_WITH(cg(ctx, a, b, x, never), Catch::Contains("check_every must be at least 1"));
  SolverOptions jacobi;
  jacobi.jacobi = true;
  const SparseMatrix<double> no_diagonal =
      SparseMatrix<double>::from_entries(ctx, CooEntries{2, 2, {0, 1}, {1, 0}, {1.0, 1.0}});
  Buffer<double> two(ctx, std::vector<double>{1, 2}), two_x(ctx, 2);
  CHECK_THROWS_WITH(cg(ctx, no_diagonal, two, two_x, jacobi),
                    Catch::Contains("cg: Jacobi preconditioning needs a non-zero diagonal, but row 0 has none"));
}

// verified_solve (every solver's stop) over a scripted solver: a breakdown
// after some iterations starts again from x, at most kMostRestarts times
// and within the iterations left; one at the start is returned at once.
TEST_CASE("a breakdown past the first iteration starts again from x, within the restarts and iterations left",
          "[solvers]") {
  struct Run {
    std::size_t iterations;
    bool converged;
  };
  const auto script = [](std::vector<Run> runs, std::vector<double> measures, const SolverOptions& o) {
    std::size_t next = 0, measured = 0;
    std::vector<std::size_t> budgets;
    SolverResult r = verified_solve(
        o,
        [&](const SolverOptions& run) {
          budgets.push_back(run.max_iterations);
          const Run& it = runs.at(next++);
          SolverResult one;
          one.iterations = it.iterations;
          one.converged = it.converged;
          one.broke_down = !it.converged;
          one.history.assign(it.iterations, 1.0);
          one.stop_reason = it.converged ? "converged" : "breakdown: rho = 0 or omega = 0";
          return one;
        },
        [&] { return measures.at(measured++); });
    return std::make_tuple(r, next, budgets);
  };
  SolverOptions o;
  o.tolerance = 1e-4;
  o.max_iterations = 100;
  {  // broke down after 30, converged 12 iterations after the new start
    const auto [r, runs, budgets] = script({{30, false}, {12, true}}, {3e-4, 5e-5}, o);
    CHECK(runs == 2);
    CHECK(budgets == std::vector<std::size_t>{100, 70});
    CHECK(r.converged);
    CHECK_FALSE(r.broke_down);
    CHECK(r.restarts == 1);
    CHECK(r.iterations == 42);
    CHECK(r.history.size() == 42);
    CHECK(r.true_residual == 5e-5);
    CHECK(r.stop_reason == "converged");
  }
  {  // broke down in its first iteration: returned as it is
    const auto [r, runs, budgets] = script({{0, false}}, {1.0}, o);
    CHECK(runs == 1);
    CHECK(r.broke_down);
    CHECK(r.restarts == 0);
    CHECK_THAT(r.stop_reason, Catch::StartsWith("breakdown"));
  }
  {  // breaks down every time: kMostRestarts new starts, then the breakdown is the answer
    std::vector<Run> every(kMostRestarts + 1, Run{5, false});
    const auto [r, runs, budgets] = script(every, std::vector<double>(kMostRestarts + 1, 1e-2), o);
    CHECK(runs == kMostRestarts + 1);
    CHECK_FALSE(r.converged);
    CHECK(r.broke_down);
    CHECK(r.restarts == kMostRestarts);
    CHECK(r.iterations == 5 * (kMostRestarts + 1));
  }
  {  // no iterations left: no new start
    const auto [r, runs, budgets] = script({{100, false}}, {1e-2}, o);
    CHECK(runs == 1);
    CHECK(r.broke_down);
    CHECK(r.restarts == 0);
  }
}

TEST_CASE("a matrix's asymmetry is found once; CG on a non-symmetric matrix warns and points to BiCGStab",
          "[solvers]") {
  Context& ctx = test::cpu_context();
  // Symmetric matrices, exactly or to a rounding: no asymmetry.
  CHECK(asymmetry(poisson2d<double>(9)).empty());
  CHECK(SparseMatrix<float>(ctx, poisson3d27<float>(5)).asymmetry().empty());
  CooEntries e;
  e.rows = e.cols = 3;
  e.row = {0, 0, 1, 1, 2};
  e.col = {0, 1, 0, 2, 2};
  e.value = {4.0, 1.0, 1.0 + 1e-17, -2.0, 3.0};  // (1, 2) has no (2, 1)
  CHECK(asymmetry(csr_from_entries<double>(e)) == "(1, 2) is -2 but (2, 1) is absent");
  e.row.push_back(2);
  e.col.push_back(1);
  e.value.push_back(-2.0);
  CHECK(asymmetry(csr_from_entries<double>(e)).empty());
  e.value[2] = 1.5;
  CHECK(asymmetry(csr_from_entries<double>(e)) == "(0, 1) is 1 but (1, 0) is 1.5");
  e.rows = 4;
  CHECK(asymmetry(csr_from_entries<double>(e)) == "it is 4 x 3, not square");
  // CG on the non-symmetric convection-diffusion matrix: the warning, and a
  // stop short of convergence repeats it. BiCGStab gets none.
  const HostCsr<double> convection = convection_diffusion2d<double>(16, 40.0);
  const SparseMatrix<double> a(ctx, convection);
  REQUIRE_THAT(a.asymmetry(), Catch::Contains(" but "));
  Buffer<double> b(ctx, test::random_vector<double>(a.rows())), x(ctx, std::vector<double>(a.rows(), 0.0));
  SolverOptions o;
  o.max_iterations = 3;
  o.tolerance = 1e-14;
  const SolverResult r = cg(ctx, a, b, x, o);
  CHECK_THAT(r.warning, Catch::StartsWith("A is not symmetric: ") && Catch::Contains("use bicgstab"));
  CHECK_FALSE(r.converged);
  CHECK_THAT(r.stop_reason, Catch::StartsWith("iteration limit (3) (A is not symmetric"));
  x.upload(std::vector<double>(a.rows(), 0.0));
  CHECK(bicgstab(ctx, a, b, x, o).warning.empty());
  const SparseMatrix<double> spd(ctx, poisson2d<double>(8));
  Buffer<double> b2(ctx, test::random_vector<double>(spd.rows())), x2(ctx, std::vector<double>(spd.rows(), 0.0));
  CHECK(cg(ctx, spd, b2, x2).warning.empty());
}

TEST_CASE("converged means b - A x meets the tolerance as a user measures it, near float's attainable accuracy",
          "[solvers]") {
  // Float CG's recurrence residual runs ahead of the true one: before the
  // solvers checked b - A x at the stop, Poisson on 100 x 100 at tolerance
  // 3e-7 reported "converged" with ||b - A x|| / ||b|| = 1.07e-5. Now the
  // solver starts again from x, or says it cannot get there.
  Context& ctx = test::cpu_context();
  std::size_t restarted = 0, refused = 0;
  for (std::size_t side : {37, 100})
    for (double tolerance : {1e-5, 1e-6, 3e-7}) {
      INFO(side << " x " << side << ", tolerance " << tolerance);
      const HostCsr<float> csr = poisson2d<float>(side);
      const SparseMatrix<float> a(ctx, csr);
      const std::vector<float> hb = test::random_vector<float>(csr.rows);
      Buffer<float> b(ctx, hb), x(ctx, std::vector<float>(csr.rows, 0.0f));
      SolverOptions o;
      o.tolerance = tolerance;
      o.max_iterations = 5000;
      const SolverResult r = cg(ctx, a, b, x, o);
      INFO(r.stop_reason << " after " << r.iterations << " iterations, " << r.restarts << " restart(s)");
      // What a user would check: b - A x through the library, in float.
      Buffer<float> residual(ctx, hb);
      spmv(ctx, -1.0f, a, x, 1.0f, residual);
      const double measured = double(nrm2(ctx, residual)) / double(nrm2(ctx, b));
      CHECK(measured == r.true_residual);
      restarted += r.restarts > 0;
      if (r.converged) {
        CHECK(measured < tolerance);
        test::check_true_residual(csr, hb, x.download(), r, tolerance);
      } else {
        ++refused;
        CHECK(measured >= tolerance);
        CHECK(r.restarts == kMostRestarts);
        CHECK_THAT(r.stop_reason, Catch::Contains("but the true residual of x is"));
      }
    }
  CHECK(restarted > 0);
  INFO(refused << " of 6 refused");
}

// The hooked solvers (SolverHooks) run krylov_loop.hpp with the scalars on
// the host: plain, they follow CG as the double reference does (within the
// rounding delay); a preconditioner of the caller's (Jacobi, applied on the
// host) cuts the iterations on a badly scaled matrix; each iterate is
// shown once, in order, the last being the x returned.
TEMPLATE_TEST_CASE("solvers with hooks: the caller's preconditioner and a look at each iterate", "[solvers]", float,
                   double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  SolverOptions o;
  o.tolerance = tolerance_for<T>();
  o.max_iterations = 3000;
  {
    const HostCsr<T> csr = poisson2d<T>(37);
    const SparseMatrix<T> a(ctx, csr);
    const std::vector<T> rhs = test::random_vector<T>(csr.rows);
    const Buffer<T> b(ctx, rhs);
    Buffer<T> x(ctx, std::vector<T>(csr.rows, T(0)));
    std::vector<std::size_t> seen;
    std::vector<T> last_x;
    SolverHooks<T> hooks;
    hooks.after_iteration = [&](std::size_t it, const Buffer<T>& xk) {
      seen.push_back(it);
      last_x = xk.download();
    };
    const SolverResult r = cg(ctx, a, b, x, o, hooks);
    INFO(r.stop_reason << " after " << r.iterations);
    CHECK(r.converged);
    CHECK(r.check_every == 1);
    CHECK(r.history.size() == r.iterations);
    test::check_true_residual(csr, rhs, x.download(), r, o.tolerance);
    const std::size_t host = reference::cg_iterations(csr, rhs, o.tolerance, 2000);
    const std::size_t delay = reference::poisson2d_cg_delay(37, host, test::unit_roundoff<T>(), o.tolerance);
    INFO("hooked " << r.iterations << ", host " << host << ", rounding delay " << delay);
    CHECK(r.iterations <= host + delay);
    CHECK(r.iterations + delay >= host);
    REQUIRE(seen.size() == r.iterations);
    for (std::size_t k = 0; k < seen.size(); ++k) REQUIRE(seen[k] == k + 1);
    CHECK(test::first_difference(last_x, x.download()) == "equal");
  }
  // Rows and columns scaled by 1 to 10^3: Jacobi, as the caller's hook.
  HostCsr<T> scaled = poisson2d<T>(23);
  std::vector<double> inverse_diagonal(scaled.rows);
  for (std::size_t r = 0; r < scaled.rows; ++r)
    for (std::uint64_t k = scaled.row_ptr[r]; k < scaled.row_ptr[r + 1]; ++k) {
      scaled.value[k] *= T(std::pow(10.0, 1.5 * double(r % 3 + scaled.col[k] % 3) / 2));
      if (scaled.col[k] == r) inverse_diagonal[r] = 1.0 / double(scaled.value[k]);
    }
  const SparseMatrix<T> a(ctx, scaled);
  const std::vector<T> rhs = test::random_vector<T>(scaled.rows);
  const Buffer<T> b(ctx, rhs);
  for (const bool bicg : {false, true}) {
    INFO((bicg ? "BiCGStab" : "CG"));
    std::size_t applied = 0;
    SolverHooks<T> jacobi;
    jacobi.precondition = [&](const Buffer<T>& r, Buffer<T>& z) {
      std::vector<T> v = r.download();
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = T(double(v[i]) * inverse_diagonal[i]);
      z.upload(v);
      ++applied;
    };
    Buffer<T> plain_x(ctx, std::vector<T>(scaled.rows, T(0))), x(ctx, std::vector<T>(scaled.rows, T(0)));
    const SolverResult plain =
        bicg ? bicgstab(ctx, a, b, plain_x, o, SolverHooks<T>{}) : cg(ctx, a, b, plain_x, o, SolverHooks<T>{});
    const SolverResult r = bicg ? bicgstab(ctx, a, b, x, o, jacobi) : cg(ctx, a, b, x, o, jacobi);
    INFO("plain: " << plain.stop_reason << " after " << plain.iterations << "; Jacobi: " << r.stop_reason << " after "
                   << r.iterations << " (" << r.restarts << " restarts), applied " << applied);
    CHECK(r.converged);
    test::check_true_residual(scaled, rhs, x.download(), r, o.tolerance);
    CHECK(r.iterations < plain.iterations);  // the scaling is what Jacobi undoes
    // CG applies M^-1 once at each start and once an iteration.
    if (!bicg) CHECK(applied == r.iterations + r.restarts + 1);
    if (bicg) CHECK(applied >= 2 * r.iterations);
  }
  // At tolerance 0 a residual of exactly 0 is convergence here too.
  const test::ExactInOneStep<T> system = test::exact_in_one_step<T>(131);
  const SparseMatrix<T> twice = SparseMatrix<T>::from_entries(ctx, system.a);
  const Buffer<T> exact_b(ctx, system.b);
  test::check_exact_in_one_step(system.b, [&](bool bicg, const SolverOptions& zero) {
    Buffer<T> xz(ctx, std::vector<T>(system.b.size(), T(0)));
    const SolverResult r = bicg ? bicgstab(ctx, twice, exact_b, xz, zero, SolverHooks<T>{})
                                : cg(ctx, twice, exact_b, xz, zero, SolverHooks<T>{});
    return std::make_pair(r, xz.download());
  });
}

TEST_CASE("solvers with hooks refuse what they cannot do, and pass a hook's exception on", "[solvers]") {
  Context& ctx = test::cpu_context();
  const HostCsr<double> csr = poisson2d<double>(9);
  const SparseMatrix<double> a(ctx, csr);
  const Buffer<double> b(ctx, test::random_vector<double>(81));
  Buffer<double> x(ctx, std::vector<double>(81, 0.0));
  SolverHooks<double> hooks;
  hooks.precondition = [](const Buffer<double>& r, Buffer<double>& z) { z.upload(r.download()); };
  SolverOptions both;
  both.jacobi = true;
  CHECK_THROWS_WITH(cg(ctx, a, b, x, both, hooks), Catch::Contains("cg: jacobi and a precondition hook"));
  SolverOptions max_norm;
  max_norm.criterion = SolverOptions::Criterion::max_residual;
  CHECK_THROWS_WITH(bicgstab(ctx, a, b, x, max_norm, hooks),
                    Catch::Contains("bicgstab: with hooks only the relative_residual criterion"));
  Buffer<double> short_x(ctx, 80);
  CHECK_THROWS_WITH(cg(ctx, a, b, short_x, SolverOptions{}, hooks),
                    Catch::Contains("cg: x has 80 elements but A has 81 columns"));
  SolverHooks<double> failing;
  failing.after_iteration = [](std::size_t it, const Buffer<double>&) {
    if (it == 3) throw std::runtime_error("the caller stops at iteration 3");
  };
  CHECK_THROWS_WITH(cg(ctx, a, b, x, SolverOptions{}, failing), Catch::Contains("the caller stops at iteration 3"));
  // The context is still usable afterwards.
  const SolverResult r = cg(ctx, a, b, x, SolverOptions{}, hooks);
  CHECK(r.converged);
}
