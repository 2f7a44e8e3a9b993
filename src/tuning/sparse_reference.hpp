// SPDX-License-Identifier: Apache-2.0
// The double-precision host references of the sparse operations, shared by
// the tests and portacl-bench: A x for a CSR matrix, and conjugate
// gradients (the iteration count a device CG should come close to).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "portacl/sparse.hpp"
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

// How far ||b - A x|| / ||b|| (relative_residual) may stand from a solver's
// own measure of it, `measured`, taken in the working precision of unit u
// (kFloatU or kDoubleU): each entry of fl(b - A x) within (k_i + 2) u of
// |b_i| plus its row's magnitude (k_i products and sums, the scaling, b);
// each norm, a sum of n squares and a square root, within n/2 + kSqrtU
// units u of itself; the division in double; relative_residual's own
// roundings (the same deviation in units of kDoubleU). Returns the largest value relative_residual can take.
template <class T, class V>
double true_residual_bound(const HostCsr<T>& a, const std::vector<V>& b, const std::vector<V>& x, double measured,
                           double u) {
  const std::vector<Exact> ax = csr_product(a, x);
  double deviation = 0, bb = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    const double k = double(a.row_ptr[i + 1] - a.row_ptr[i]) + 2;
    const double e = k * u / (1 - k * u) * (std::fabs(double(b[i])) + ax[i].magnitude);
    deviation += e * e;
    bb += double(b[i]) * double(b[i]);
  }
  const double n = double(a.rows), norm = (n / 2 + kSqrtU) * u / (1 - (n / 2 + kSqrtU) * u);
  const double scale = bb > 0 ? std::sqrt(bb) : 1.0;
  // relative_residual's own b - A x in double deviates as the device's does, in units kDoubleU.
  return measured * (1 + norm) / (1 - norm) * (1 + kDoubleU) + (1 + kDoubleU / u) * std::sqrt(deviation) / scale;
}

// The most iterations CG from x = 0 can need to bring ||r|| / ||b|| below
// tol on a matrix of condition number kappa: ||r_k|| / ||r_0|| <=
// sqrt(kappa) ||e_k||_A / ||e_0||_A <= 2 sqrt(kappa) rho^k with
// rho = (sqrt(kappa) - 1) / (sqrt(kappa) + 1) (the Chebyshev bound). In
// finite precision CG behaves as exact CG on a matrix whose eigenvalues lie
// within about n u ||A|| of A's (Greenbaum, 1989): pass kappa widened by
// that (widened_condition).
inline std::size_t cg_iteration_bound(double kappa, double tol) {
  const double root = std::sqrt(kappa), rho = (root - 1) / (root + 1);
  // At least one iteration from x = 0 (kappa = 1 takes exactly one).
  return std::max<std::size_t>(1, std::size_t(std::ceil(std::log(2 * root / tol) / -std::log(rho))));
}
// kappa of a matrix with extreme eigenvalues lambda_min and lambda_max,
// each moved by n u ||A|| (||A|| <= lambda_max for a symmetric matrix).
inline double widened_condition(double lambda_min, double lambda_max, std::size_t n, double u) {
  const double shift = double(n) * u * lambda_max;
  return (lambda_max + shift) / (lambda_min - shift);
}
// How many iterations CG in precision u may lag (or lead) the same CG in
// exact arithmetic, here the double reference that took `iterations`. Each
// step's product and two updates round (row_entries + 2 terms) relative to
// ||A|| ||x|| <= kappa ||b||, so after k steps the recurrence's residual may
// differ from the exact one by g = k (row_entries + 2) u kappa relative to
// ||b||; a relative gap g around the stopping level tol moves the stop by
// at most log(1 + g / tol) / -log(rho) iterations at the Chebyshev rate rho.
inline std::size_t cg_rounding_delay(double kappa, std::size_t iterations, std::size_t row_entries, double u,
                                     double tol) {
  const double root = std::sqrt(kappa), rho = (root - 1) / (root + 1);
  const double gap = double(iterations) * double(row_entries + 2) * u * kappa;
  return std::size_t(std::ceil(std::log1p(gap / tol) / -std::log(rho)));
}
// The extreme eigenvalues of poisson2d(n) (generators.hpp) are
// 4 - 4 cos(pi / (n + 1)) and 4 + 4 cos(pi / (n + 1)).
inline double poisson2d_lambda_min(std::size_t n) {
  const double s = std::sin(3.14159265358979323846 / (2.0 * double(n + 1)));
  return 8 * s * s;
}
inline double poisson2d_lambda_max(std::size_t n) { return 8 - poisson2d_lambda_min(n); }
// cg_iteration_bound for poisson2d(n) (or any symmetric permutation of it)
// in a precision of unit u.
inline std::size_t poisson2d_cg_bound(std::size_t n, double tol, double u) {
  return cg_iteration_bound(widened_condition(poisson2d_lambda_min(n), poisson2d_lambda_max(n), n * n, u), tol);
}
// cg_rounding_delay for poisson2d(n) (5 entries a row) or a permutation of it.
inline std::size_t poisson2d_cg_delay(std::size_t n, std::size_t iterations, double u, double tol) {
  return cg_rounding_delay(widened_condition(poisson2d_lambda_min(n), poisson2d_lambda_max(n), n * n, u), iterations, 5,
                           u, tol);
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
