// SPDX-License-Identifier: Apache-2.0
// A Krylov solver's convergence claim checked on the host: its own measure
// of b - A x (SolverResult::true_residual, in the working precision) met
// the tolerance, and ||b - A x|| / ||b|| in double stands within what that
// measure's rounding allows (reference::true_residual_bound).
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "../../src/tuning/sparse_reference.hpp"
#include "portacl/sparse.hpp"
#include "test_support.hpp"

namespace test {

template <class T, class V>
void check_true_residual(const portacl::HostCsr<T>& csr, const std::vector<V>& b, const std::vector<V>& x,
                         const portacl::SolverResult& r, double tolerance) {
  CHECK(r.true_residual < tolerance);
  const double u = sizeof(V) == 4 ? kFloatU : kDoubleU;
  const double got = portacl::reference::relative_residual(csr, b, x),
               bound = portacl::reference::true_residual_bound(csr, b, x, r.true_residual, u);
  INFO("true residual in double " << got << ", bound " << bound << ", measured " << r.true_residual);
  CHECK(got <= bound);
}

// 2 I x = b with b of small random integers (1 to 7): every sum is exact in
// any order, so CG's and BiCGStab's first iteration leave r exactly 0
// (alpha = 1/2; in BiCGStab s = 0, t = 0 and omega = 0), and x = b / 2.
template <class T>
struct ExactInOneStep {
  portacl::CooEntries a;
  std::vector<T> b;
};
template <class T>
ExactInOneStep<T> exact_in_one_step(std::uint32_t n) {
  ExactInOneStep<T> s{portacl::CooEntries{n, n, {}, {}, {}}, random_vector<T>(n, 1.0, 8.0)};
  for (std::uint32_t i = 0; i < n; ++i) {
    s.a.row.push_back(i);
    s.a.col.push_back(i);
    s.a.value.push_back(2.0);
    s.b[i] = std::floor(s.b[i]);
  }
  return s;
}

// CG and BiCGStab (`solve(bicgstab, options)` returns the result and x,
// from x = 0) on exact_in_one_step's system at tolerance 0: each converged
// after one iteration with a residual of exactly 0 (not a breakdown on rho
// = 0 or omega = 0), and x = b / 2 exactly.
template <class T, class Solve>
void check_exact_in_one_step(const std::vector<T>& b, Solve&& solve) {
  for (const bool bicgstab : {false, true}) {
    portacl::SolverOptions o;
    o.tolerance = 0;
    const auto [r, x] = solve(bicgstab, o);
    INFO((bicgstab ? "BiCGStab: " : "CG: ") << r.stop_reason);
    CHECK(r.converged);
    CHECK(r.iterations == 1);
    CHECK(r.residual == 0);
    CHECK(r.true_residual == 0);
    REQUIRE(x.size() == b.size());
    for (std::size_t i = 0; i < b.size(); ++i) REQUIRE(x[i] == b[i] / 2);
  }
}

}  // namespace test
