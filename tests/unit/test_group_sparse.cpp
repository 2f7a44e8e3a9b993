// SPDX-License-Identifier: Apache-2.0
// Sparse products, CG and BiCGStab over a device group of PoCL halves: the
// row partition reassembles the matrix exactly; the group product matches
// the double-precision host product under even and uneven splits and a
// member with no rows; group CG reaches the tolerance (the true residual
// agrees) in about the single-device CG's iterations, with and without
// Jacobi; group BiCGStab solves nonsymmetric systems to the tolerance (the
// true residual agrees); bad input is refused by name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "../../src/tuning/sparse_reference.hpp"
#include "kernels/sparse/generators.hpp"
#include "kernels/sparse/halo_product.hpp"
#include "kernels/sparse/halo_send.hpp"
#include "runtime/sub_buffer.hpp"
#include "kernels/sparse/row_partition.hpp"
#include "portacl/sparse.hpp"
#include "sparse_checks.hpp"
#include "solver_checks.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

const std::vector<std::vector<double>> kWeights{{1, 1}, {3, 1}, {1, 0}, {0, 1}};

// Group CG from x = 0; the true residual met the tolerance
// (solver_checks.hpp).
template <class T>
SolverResult solve_and_check(DeviceGroup& group, const HostCsr<T>& csr, const std::vector<T>& rhs, double tolerance,
                             bool jacobi) {
  const GroupSparseMatrix<T> a(group, csr);
  SolverOptions o;
  o.tolerance = tolerance;
  o.max_iterations = 5000;
  o.jacobi = jacobi;
  const GroupVector<T> b(group, rhs);
  GroupVector<T> x(group, std::vector<T>(csr.rows, T(0)));
  const SolverResult r = group_cg(a, b, x, o);
  INFO((jacobi ? "Jacobi: " : "plain: ") << r.stop_reason << " after " << r.iterations << ", residual " << r.residual);
  CHECK(r.converged);
  CHECK(r.warning.empty());
  CHECK(r.history.size() == r.iterations);
  test::check_true_residual(csr, rhs, x.download(), r, tolerance);
  return r;
}

// `solve` (group_cg or group_bicgstab) under every device class's plan,
// with and without Jacobi, from a start that is not 0, on a 2 : 1 split:
// converged, and the true residual met the tolerance.
template <class T, class Solve>
void solve_under_class_plans(const HostCsr<T>& csr, Solve solve) {
  DeviceGroup& group = test::cpu_halves();
  group.set_weights({2, 1});
  const double tolerance = sizeof(T) == 4 ? 1e-4 : 1e-9;
  const std::vector<T> rhs = test::random_vector<T>(csr.rows);
  const GroupSparseMatrix<T> a(group, csr);
  const GroupVector<T> b(group, rhs);
  for (const auto& [fixture, plan] : test::class_plans(element_of<T>::value)) {
    for (bool jacobi : {false, true}) {
      INFO(fixture << (jacobi ? ", Jacobi" : ""));
      SolverOptions o;
      o.tolerance = tolerance;
      o.max_iterations = 5000;
      o.jacobi = jacobi;
      o.plan = plan;
      GroupVector<T> x(group, std::vector<T>(csr.rows, T(-7)));  // a start that is not 0
      const SolverResult r = solve(a, b, x, o);
      CHECK(r.converged);
      test::check_true_residual(csr, rhs, x.download(), r, tolerance);
    }
  }
  group.set_weights({1, 1});
}

}  // namespace

TEMPLATE_TEST_CASE("row partition: interior and halo blocks give back the matrix, entry for entry", "[group_sparse]",
                   float, double) {
  using T = TestType;
  const HostCsr<T> a = test::awkward_matrix<T>(97, 97, false);
  for (const std::vector<std::size_t>& offsets :
       std::vector<std::vector<std::size_t>>{{0, 97}, {0, 40, 97}, {0, 0, 97}, {0, 97, 97}, {0, 10, 11, 60, 97}}) {
    const RowPartition<T> p = partition_rows(a, offsets);
    CooEntries back;
    auto push = [&](std::size_t r, std::size_t c, T v) {
      back.row.push_back(std::uint32_t(r));
      back.col.push_back(std::uint32_t(c));
      back.value.push_back(double(v));
    };
    for (std::size_t m = 0; m + 1 < offsets.size(); ++m) {
      const RowBlock<T>& b = p.blocks[m];
      for (std::size_t r = 0; r < b.rows; ++r) {
        for (std::uint64_t k = b.local.row_ptr[r]; k < b.local.row_ptr[r + 1]; ++k)
          push(b.first_row + r, b.first_row + b.local.col[k], b.local.value[k]);
        for (std::uint64_t k = b.halo.row_ptr[r]; k < b.halo.row_ptr[r + 1]; ++k) {
          const std::uint32_t c = b.halo_columns[b.halo.col[k]];
          CHECK((c < b.first_row || c >= b.first_row + b.rows));
          push(b.first_row + r, c, b.halo.value[k]);
        }
      }
      // What an owner sends a receiver is the receiver's run from that owner.
      for (std::size_t owner = 0; owner + 1 < offsets.size(); ++owner)
        for (std::size_t h = b.halo_from[owner]; h < b.halo_from[owner + 1]; ++h) {
          const std::size_t at = p.send_to[owner][m] + (h - b.halo_from[owner]);
          CHECK(p.send_index[owner][at] + offsets[owner] == b.halo_columns[h]);
        }
    }
    back.rows = back.cols = 97;
    const HostCsr<T> again = csr_from_entries<T>(back);
    CHECK(again.row_ptr == a.row_ptr);
    CHECK(again.col == a.col);
    CHECK(again.value == a.value);
  }
}

TEST_CASE("entry runs cover the rows with entries, start aligned and skip long gaps", "[group_sparse]") {
  // Rows with entries: 0, 1, 9, 10, 30 of 40; rows 2-8 (7 empty) and
  // 11-29 (19 empty) between them.
  HostCsr<float> a;
  a.rows = 40;
  a.cols = 3;
  a.row_ptr.assign(1, 0);
  for (std::size_t r = 0; r < a.rows; ++r) {
    if (r == 0 || r == 1 || r == 9 || r == 10 || r == 30) {
      a.col.push_back(std::uint32_t(r % 3));
      a.value.push_back(1.0f);
    }
    a.row_ptr.push_back(a.col.size());
  }
  auto runs = [&](std::size_t gap, std::size_t align) {
    std::vector<std::pair<std::size_t, std::size_t>> v;
    for (const RowRun& r : entry_runs(a, gap, align)) v.emplace_back(r.first, r.rows);
    return v;
  };
  using Runs = std::vector<std::pair<std::size_t, std::size_t>>;
  CHECK(runs(100, 1) == Runs{{0, 31}});                // one run over every gap
  CHECK(runs(7, 1) == Runs{{0, 11}, {30, 1}});         // 7 empty rows carried, 19 not
  CHECK(runs(6, 1) == Runs{{0, 2}, {9, 2}, {30, 1}});  // neither gap carried
  CHECK(runs(6, 8) == Runs{{0, 2}, {8, 3}, {24, 7}});  // starts aligned down to 8
  CHECK(runs(6, 16) == Runs{{0, 11}, {16, 15}});       // row 9 aligns back into run 0
  CHECK(runs(6, 64) == Runs{{0, 31}});
  HostCsr<float> empty;
  empty.rows = 5;
  empty.row_ptr.assign(6, 0);
  CHECK(entry_runs(empty, 1, 1).empty());
}

TEMPLATE_TEST_CASE("the halo term adds exactly the rows with entries, in every run", "[group_sparse]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // A block's halo: 1000 rows, 13 halo entries, about one row in 40 with
  // entries and long empty stretches; gaps of 0, 5 and more runs.
  const std::size_t rows = 1000, cols = 13;
  HostCsr<T> h;
  h.rows = rows;
  h.cols = cols;
  h.row_ptr.assign(1, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    if ((r > 300 && r < 700) || test::rng()() % 40 != 0) {
      h.row_ptr.push_back(h.col.size());
      continue;
    }
    for (std::uint32_t c = 0; c < cols; ++c)
      if (test::rng()() % 3 == 0) {
        h.col.push_back(c);
        h.value.push_back(test::random_vector<T>(1)[0]);
      }
    h.row_ptr.push_back(h.col.size());
  }
  const std::vector<T> hx = test::random_vector<T>(cols), hy = test::random_vector<T>(rows);
  const Buffer<T> x(ctx, hx);
  // y is a buffer of its own, or a caller's sub-buffer of a larger one
  // (whose views are cut from its parent).
  const std::size_t lead = sub_buffer_alignment(ctx, sizeof(T));
  std::vector<T> padded(lead, T(7));
  padded.insert(padded.end(), hy.begin(), hy.end());
  for (std::size_t gap : {std::size_t(0), std::size_t(5), kHaloRunGap}) {
    for (bool nested : {false, true}) {
      INFO("gap " << gap << (nested ? ", y a sub-buffer" : ""));
      const HaloProduct<T> product(ctx, h, gap);
      if (gap == 0 && h.nnz()) CHECK(product.rows_touched() < rows);
      Buffer<T> parent(ctx, padded);
      Buffer<T> y = nested ? sub_buffer(ctx, parent, lead, rows, "y") : Buffer<T>(ctx, hy);
      product.add(T(-1.5), x, y);
      const std::vector<T> got = y.download();
      if (nested) {  // the elements before the view are untouched
        const std::vector<T> all = parent.download();
        CHECK(std::all_of(all.begin(), all.begin() + std::ptrdiff_t(lead), [](T v) { return v == T(7); }));
      }
      for (std::size_t r = 0; r < rows; ++r) {
        double want = double(hy[r]), scale = std::abs(double(hy[r]));
        for (std::uint64_t k = h.row_ptr[r]; k < h.row_ptr[r + 1]; ++k) {
          want += -1.5 * double(h.value[k]) * double(hx[h.col[k]]);
          scale += 1.5 * std::abs(double(h.value[k]) * double(hx[h.col[k]]));
        }
        INFO("row " << r);
        if (h.row_ptr[r + 1] == h.row_ptr[r])
          CHECK(got[r] == hy[r]);  // untouched, bit for bit
        else
          CHECK(std::abs(double(got[r]) - want) <= 16 * double(std::numeric_limits<T>::epsilon()) * scale);
      }
    }
  }
}

TEMPLATE_TEST_CASE("a halo send reads the indexed entries, run by run or gathered", "[group_sparse]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const std::vector<T> x = test::random_vector<T>(1009);
  Buffer<T> device_x(ctx, x);
  // Runs of 1, 2, 3, ... consecutive indices with gaps, up to and past the
  // most runs read directly; a reversed index; none at all.
  for (std::size_t runs :
       {std::size_t(0), std::size_t(1), std::size_t(2), kMaxDirectSendRuns, kMaxDirectSendRuns + 1, std::size_t(40)}) {
    std::vector<std::uint32_t> index;
    std::uint32_t at = 3;
    for (std::size_t r = 0; r < runs; ++r, at += 5)
      for (std::size_t k = 0; k <= r % 4; ++k) index.push_back(at++);
    for (bool reversed : {false, true}) {
      if (reversed) std::reverse(index.begin(), index.end());
      INFO(runs << " runs" << (reversed ? ", reversed" : ""));
      HaloSend<T> send(ctx, index, "test");
      std::size_t pieces = 0;  // maximal runs of consecutive ascending indices
      for (std::size_t i = 0; i < index.size(); ++i) pieces += i == 0 || index[i] != index[i - 1] + 1;
      CHECK(send.direct() == (pieces <= kMaxDirectSendRuns));
      T* host = const_cast<T*>(send.host());
      std::fill(host, host + send.size(), std::numeric_limits<T>::quiet_NaN());  // poison
      send.post(device_x);
      send.wait();
      REQUIRE(send.size() == index.size());
      for (std::size_t i = 0; i < index.size(); ++i) CHECK(send.host()[i] == x[index[i]]);
    }
  }
}

TEMPLATE_TEST_CASE("group SpMV matches the host product under every split", "[group_sparse]", float, double) {
  using T = TestType;
  DeviceGroup& group = test::cpu_halves();
  for (const std::vector<double>& weights : kWeights) {
    group.set_weights(weights);
    for (std::size_t n : {0, 1, 2, 7, 101, 1009}) {
      const HostCsr<T> csr = test::awkward_matrix<T>(n, n, false);
      const GroupSparseMatrix<T> a(group, csr);
      INFO(a.describe());
      for (T beta : {T(0), T(0.5)}) {
        const std::vector<T> hx = test::random_vector<T>(n);
        std::vector<T> hy = test::random_vector<T>(n);
        if (beta == T(0))
          for (T& v : hy) v = std::numeric_limits<T>::quiet_NaN();  // never read
        GroupVector<T> x(group, hx), y(group, hy);
        group_spmv(T(1.5), a, x, beta, y);
        const std::vector<reference::Exact> product = reference::csr_product(csr, hx);
        CHECK(reference::compare_update(
                  y.download(), hy, [](std::size_t i) { return i; }, T(1.5), beta, reference::longest_row(csr),
                  product) == "");
      }
    }
  }
  group.set_weights({1, 1});
}

TEMPLATE_TEST_CASE("group CG converges like single-device CG, with and without Jacobi", "[group_sparse]", float,
                   double) {
  using T = TestType;
  DeviceGroup& group = test::cpu_halves();
  const double tolerance = sizeof(T) == 4 ? 1e-4 : 1e-9;
  // A permuted Poisson matrix: every row block has a halo from everywhere.
  HostCsr<T> csr = permuted_symmetric(poisson2d<T>(29), 5);
  const std::vector<T> rhs = test::random_vector<T>(csr.rows);
  for (const std::vector<double>& weights : kWeights) {
    group.set_weights(weights);
    for (bool jacobi : {false, true}) {
      INFO("weights " << weights[0] << ":" << weights[1] << (jacobi ? ", Jacobi" : ""));
      const SolverResult r = solve_and_check(group, csr, rhs, tolerance, jacobi);
      // The Chebyshev bound (Jacobi's diagonal is constant on a Laplacian,
      // so Jacobi's iterates are CG's in exact arithmetic), and the double
      // reference's count within what rounding can move it.
      const double u = sizeof(T) == 4 ? test::kFloatU : test::kDoubleU;
      CHECK(r.iterations <= reference::poisson2d_cg_bound(29, tolerance, u));
      const std::size_t host = reference::cg_iterations(csr, rhs, tolerance, 2000);
      const std::size_t delay = reference::poisson2d_cg_delay(29, host, u, tolerance);
      INFO("host " << host << ", rounding delay " << delay << ", group " << r.iterations);
      CHECK(r.iterations <= host + delay);
      CHECK(r.iterations + delay >= host);
    }
  }
  // Jacobi on a badly scaled matrix: rows and columns scaled by 1 to 10^3.
  group.set_weights({1, 2});
  HostCsr<T> scaled = poisson2d<T>(23);
  for (std::size_t r = 0; r < scaled.rows; ++r)
    for (std::uint64_t k = scaled.row_ptr[r]; k < scaled.row_ptr[r + 1]; ++k)
      scaled.value[k] *= T(std::pow(10.0, 1.5 * double(r % 3 + scaled.col[k] % 3) / 2));
  const std::vector<T> rhs2 = test::random_vector<T>(scaled.rows);
  std::size_t iterations[2];
  for (bool jacobi : {false, true})
    iterations[jacobi] = solve_and_check(group, scaled, rhs2, tolerance, jacobi).iterations;
  CHECK(iterations[1] < iterations[0]);
  group.set_weights({1, 1});
}

TEMPLATE_TEST_CASE("group CG's vector passes run under every device class's plan", "[group_sparse]", float, double) {
  using T = TestType;
  // 961 rows cut 2 : 1, blocks that are no multiple of a work-group or an unroll.
  solve_under_class_plans(permuted_symmetric(poisson2d<T>(31), 3), [](auto&... args) { return group_cg(args...); });
}

TEMPLATE_TEST_CASE("group BiCGStab solves nonsymmetric systems under every split, with and without Jacobi",
                   "[group_sparse]", float, double) {
  using T = TestType;
  DeviceGroup& group = test::cpu_halves();
  const double tolerance = sizeof(T) == 4 ? 1e-4 : 1e-9;
  // Convection-diffusion (not symmetric), permuted: every row block has a
  // halo from everywhere; 23^2 = 529 rows, no multiple of a work-group.
  const HostCsr<T> csr = permuted_symmetric(convection_diffusion2d<T>(23, 2.0), 7);
  const std::vector<T> rhs = test::random_vector<T>(csr.rows);
  for (const std::vector<double>& weights : kWeights) {
    group.set_weights(weights);
    const GroupSparseMatrix<T> a(group, csr);
    CHECK(!a.asymmetry().empty());  // the premise: CG would not do
    const GroupVector<T> b(group, rhs);
    for (bool jacobi : {false, true}) {
      INFO("weights " << weights[0] << ":" << weights[1] << (jacobi ? ", Jacobi" : ""));
      SolverOptions o;
      o.tolerance = tolerance;
      o.max_iterations = 2000;
      o.jacobi = jacobi;
      GroupVector<T> x(group, std::vector<T>(csr.rows, T(0)));
      const SolverResult r = group_bicgstab(a, b, x, o);
      INFO(r.stop_reason << " after " << r.iterations << ", residual " << r.residual);
      CHECK(r.converged);
      CHECK(r.iterations > 1);
      CHECK(r.history.size() == r.iterations);
      test::check_true_residual(csr, rhs, x.download(), r, tolerance);
    }
  }
  // Stopped by the limit: not converged, and says why.
  group.set_weights({1, 1});
  const GroupSparseMatrix<T> a(group, csr);
  const GroupVector<T> b(group, rhs);
  GroupVector<T> x(group, std::vector<T>(csr.rows, T(0)));
  SolverOptions o;
  o.tolerance = tolerance;
  o.max_iterations = 3;
  const SolverResult r = group_bicgstab(a, b, x, o);
  CHECK(!r.converged);
  CHECK(r.iterations == 3);
  CHECK(r.stop_reason == "iteration limit (3)");
  CHECK(r.residual > tolerance);
}

TEMPLATE_TEST_CASE("group BiCGStab runs under every device class's plan", "[group_sparse]", float, double) {
  using T = TestType;
  // 361 rows of convection-diffusion cut 2 : 1.
  solve_under_class_plans(permuted_symmetric(convection_diffusion2d<T>(19, 1.0), 3),
                          [](auto&... args) { return group_bicgstab(args...); });
}

// As on one device (test_sparse_krylov.cpp): with tolerance 0 the group's
// solvers (the loop whose scalars the host holds) take a residual of
// exactly 0 as convergence.
TEMPLATE_TEST_CASE("group solvers take a residual of exactly 0 as convergence", "[group_sparse]", float, double) {
  using T = TestType;
  DeviceGroup& group = test::cpu_halves();
  group.set_weights({1, 1});
  const test::ExactInOneStep<T> system = test::exact_in_one_step<T>(101);
  const GroupSparseMatrix<T> a(group, csr_from_entries<T>(system.a));
  const GroupVector<T> b(group, system.b);
  test::check_exact_in_one_step(system.b, [&](bool bicg, const SolverOptions& o) {
    GroupVector<T> x(group, std::vector<T>(system.b.size(), T(0)));  // the start
    const SolverResult r = bicg ? group_bicgstab(a, b, x, o) : group_cg(a, b, x, o);
    return std::make_pair(r, x.download());
  });
}

TEST_CASE("group sparse calls refuse bad input by name", "[group_sparse]") {
  DeviceGroup& group = test::cpu_halves();
  group.set_weights({1, 1});
  HostCsr<double> wide = poisson2d<double>(4);
  wide.cols += 1;
  CHECK_THROWS_WITH(GroupSparseMatrix<double>(group, wide), Catch::Contains("must be square"));
  HostCsr<double> broken = poisson2d<double>(4);
  broken.col[3] = 99;
  CHECK_THROWS_WITH(GroupSparseMatrix<double>(group, broken), Catch::Contains("GroupSparseMatrix: "));
  const HostCsr<double> csr = poisson2d<double>(5);
  const GroupSparseMatrix<double> a(group, csr);
  GroupVector<double> x(group, std::vector<double>(25, 1.0)), y(group, 25), short_y(group, 24);
  CHECK_THROWS_WITH(group_spmv(1.0, a, x, 0.0, x), Catch::Contains("the same vector"));
  CHECK_THROWS_WITH(group_spmv(1.0, a, x, 0.0, short_y), Catch::Contains("y has 24 elements but A has 25 rows"));
  group.set_weights({1, 3});
  GroupVector<double> other_split(group, 25);
  CHECK_THROWS_WITH(group_spmv(1.0, a, x, 0.0, other_split), Catch::Contains("other weights"));
  group.set_weights({1, 1});
  HostCsr<double> no_diagonal = poisson2d<double>(5);
  no_diagonal.value[0] = 0;  // row 0's diagonal
  const GroupSparseMatrix<double> z(group, no_diagonal);
  GroupVector<double> zero(group, std::vector<double>(25, 0.0));
  using Solver = SolverResult (*)(const GroupSparseMatrix<double>&, const GroupVector<double>&, GroupVector<double>&,
                                  const SolverOptions&);
  const std::pair<std::string, Solver> solvers[] = {{"group_cg", group_cg<double>},
                                                    {"group_bicgstab", group_bicgstab<double>}};
  for (const auto& [name, solve] : solvers) {
    INFO(name);
    SolverOptions o;
    o.criterion = SolverOptions::Criterion::max_residual;
    CHECK_THROWS_WITH(solve(a, x, y, o), Catch::Contains(name + ": only the relative_residual"));
    o = SolverOptions{};
    o.tolerance = -1;
    CHECK_THROWS_WITH(solve(a, x, y, o), Catch::Contains(name + ": the tolerance"));
    o.tolerance = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(solve(a, x, y, o), Catch::Contains(name + ": the tolerance"));
    CHECK_THROWS_WITH(solve(a, x, x, SolverOptions{}), Catch::Contains(name + ": b and x are the same"));
    CHECK_THROWS_WITH(solve(a, x, short_y, SolverOptions{}),
                      Catch::Contains(name + ": x has 24 elements but A has 25 rows"));
    o = SolverOptions{};
    o.jacobi = true;
    CHECK_THROWS_WITH(solve(z, x, y, o), Catch::Contains("row 0 has none"));
    // b = 0: x = 0 exactly, at once, whatever x held.
    GroupVector<double> w(group, std::vector<double>(25, 5.0));
    const SolverResult r = solve(a, zero, w, SolverOptions{});
    CHECK(r.converged);
    CHECK(r.iterations == 0);
    for (double v : w.download()) CHECK(v == 0.0);
  }
}
