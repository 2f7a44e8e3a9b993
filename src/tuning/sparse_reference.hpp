// SPDX-License-Identifier: Apache-2.0
// The double-precision host references of the sparse operations, shared by
// the tests and portacl-bench: A x for a CSR matrix, and conjugate
// gradients (the iteration count a device CG should come close to).
#pragma once

#include <cmath>
#include <vector>

#include "portacl/kernels/sparse/host_csr.hpp"
#include "host_reference.hpp"

namespace portacl::reference {

// A x, row by row, with each row's magnitude for the error bound.
template <class T, class X>
std::vector<Exact> csr_product(const HostCsr<T>& a, const std::vector<X>& x) {
  std::vector<Exact> out(a.rows);
  for (std::size_t r = 0; r < a.rows; ++r) {
    const std::size_t first = a.row_ptr[r];
    out[r] = sum_of(a.row_ptr[r + 1] - first,
                    [&](std::size_t k) { return double(a.value[first + k]) * double(x[a.col[first + k]]); });
  }
  return out;
}

// The longest row: the number of terms an entry of A x adds.
template <class T>
std::size_t longest_row(const HostCsr<T>& a) {
  std::size_t longest = 0;
  for (std::size_t r = 0; r < a.rows; ++r) longest = std::max<std::size_t>(longest, a.row_ptr[r + 1] - a.row_ptr[r]);
  return longest;
}

// ||b - A x|| / ||b|| in double.
template <class T, class V>
double relative_residual(const HostCsr<T>& a, const std::vector<V>& b, const std::vector<V>& x) {
  const std::vector<Exact> ax = csr_product(a, x);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    rr += (double(b[i]) - ax[i].value) * (double(b[i]) - ax[i].value);
    bb += double(b[i]) * double(b[i]);
  }
  return bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
}

// Conjugate gradients in double from x = 0 until ||r|| / ||b|| < tol:
// the iterations it took (max_iterations + 1 when it did not get there).
template <class T, class V>
std::size_t cg_iterations(const HostCsr<T>& a, const std::vector<V>& b, double tol, std::size_t max_iterations) {
  const std::size_t n = a.rows;
  std::vector<double> x(n, 0), r(b.begin(), b.end()), p = r, q(n);
  double rr = 0;
  for (double v : r) rr += v * v;
  const double stop = tol * std::sqrt(rr);
  for (std::size_t it = 1; it <= max_iterations; ++it) {
    const std::vector<Exact> ap = csr_product(a, p);
    double pq = 0;
    for (std::size_t i = 0; i < n; ++i) pq += p[i] * (q[i] = ap[i].value);
    const double alpha = rr / pq;
    double rr_new = 0;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      rr_new += r[i] * r[i];
    }
    if (std::sqrt(rr_new) < stop) return it;
    const double beta = rr_new / rr;
    rr = rr_new;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
  }
  return max_iterations + 1;
}

}  // namespace portacl::reference
