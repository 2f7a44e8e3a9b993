// SPDX-License-Identifier: Apache-2.0
// A Krylov solver's convergence claim checked on the host: its own measure
// of b - A x (SolverResult::true_residual, in the working precision) met
// the tolerance, and ||b - A x|| / ||b|| in double stands within what that
// measure's rounding allows (reference::true_residual_bound).
#pragma once

#include <catch2/catch.hpp>

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

}  // namespace test
