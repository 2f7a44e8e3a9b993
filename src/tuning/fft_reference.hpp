// SPDX-License-Identifier: Apache-2.0
// The host reference of the FFT, shared by the tests, the tuner and
// portacl-bench: the discrete Fourier transform in double, by its
// definition up to 64 points (and inside a longer transform for a part of
// 8 points or fewer, or a prime up to 64), by recursive decimation in time
// otherwise (a prime above 64 by Bluestein's identity through a power of
// two), every root taken from (j k mod n) so that large indices lose
// nothing, out of one table of roots a transform; and the error bound a
// transform in a given precision is held to.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <string>
#include <vector>

namespace portacl::reference {

using cplx = std::complex<double>;

// exp(sign 2 pi i k / n), k reduced modulo n first.
inline cplx fft_root(std::size_t k, std::size_t n, int sign) {
  const double a = sign * 2.0 * M_PI * (double(k % n) / double(n));
  return {std::cos(a), std::sin(a)};
}

std::vector<cplx> fft(const std::vector<cplx>& x, int sign);

// A prime length by Bluestein's identity jk = (j^2 + k^2 - (k - j)^2) / 2:
// a cyclic convolution of length 2^a >= 2n - 1.
inline std::vector<cplx> fft_bluestein(const std::vector<cplx>& x, int sign) {
  const std::size_t n = x.size();
  std::size_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  std::vector<cplx> w(n), a(m, 0.0), b(m, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    const double r = double((j * j) % (2 * n));
    w[j] = std::polar(1.0, sign * M_PI * r / double(n));
    a[j] = x[j] * w[j];
    b[j] = b[(m - j) % m] = std::conj(w[j]);
  }
  const std::vector<cplx> A = fft(a, -1), B = fft(b, -1);
  std::vector<cplx> c(m);
  for (std::size_t k = 0; k < m; ++k) c[k] = A[k] * B[k];
  const std::vector<cplx> conv = fft(c, +1);
  std::vector<cplx> X(n);
  for (std::size_t k = 0; k < n; ++k) X[k] = w[k] * conv[k] / double(m);
  return X;
}

// Decimation in time by the smallest prime factor p: X_k = sum_r
// W^(r k) Y_r[k mod n/p], Y_r the transform of x_(j p + r). The roots of
// n are read from w, the table of the first call's length N, as
// W_n^k = w[k step] (step = N / n): N sines and cosines a transform
// instead of n p a pass.
inline std::vector<cplx> fft_by_table(const std::vector<cplx>& x, const std::vector<cplx>& w, std::size_t step,
                                      int sign) {
  const std::size_t n = x.size();
  std::size_t p = 2;
  while (p * p <= n && n % p) ++p;
  const bool prime = n % p != 0 || n < 4;
  if (n > 64 && prime) return fft_bluestein(x, sign);
  // By the definition: a small prime, a leaf of 8 points or fewer, and a
  // whole transform (step 1) of up to 64 points, so that short lengths
  // are checked against the DFT itself.
  if (n <= 8 || prime || (step == 1 && n <= 64)) {
    std::vector<cplx> X(n);
    for (std::size_t k = 0; k < n; ++k) {
      cplx acc = 0;
      for (std::size_t j = 0; j < n; ++j) acc += x[j] * w[(j * k) % n * step];
      X[k] = acc;
    }
    return X;
  }
  const std::size_t q = n / p;
  std::vector<std::vector<cplx>> y(p);
  for (std::size_t r = 0; r < p; ++r) {
    std::vector<cplx> part(q);
    for (std::size_t j = 0; j < q; ++j) part[j] = x[j * p + r];
    y[r] = fft_by_table(part, w, step * p, sign);
  }
  std::vector<cplx> X(n);
  for (std::size_t k = 0; k < n; ++k) {
    cplx acc = 0;
    for (std::size_t r = 0; r < p; ++r) acc += w[(r * k) % n * step] * y[r][k % q];
    X[k] = acc;
  }
  return X;
}

// The n roots exp(sign 2 pi i k / n), k < n.
inline std::vector<cplx> fft_roots(std::size_t n, int sign) {
  std::vector<cplx> w(n);
  for (std::size_t k = 0; k < n; ++k) w[k] = fft_root(k, n, sign);
  return w;
}

inline std::vector<cplx> fft(const std::vector<cplx>& x, int sign) {
  return fft_by_table(x, fft_roots(x.size(), sign), 1, sign);
}

// The transform of every `shape` array of a packed batch, along each axis
// (the last fastest-varying).
inline std::vector<cplx> fftn(std::vector<cplx> x, const std::vector<std::size_t>& shape, std::size_t batch, int sign) {
  std::size_t total = 1;
  for (std::size_t n : shape) total *= n;
  for (std::size_t axis = 0; axis < shape.size(); ++axis) {
    std::size_t inner = 1;
    for (std::size_t k = axis + 1; k < shape.size(); ++k) inner *= shape[k];
    const std::size_t n = shape[axis], outer = total / (n * inner);
    std::vector<cplx> line(n);
    const std::vector<cplx> w = fft_roots(n, sign);  // every line's
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t i = 0; i < inner; ++i) {
          const std::size_t base = b * total + o * n * inner + i;
          for (std::size_t j = 0; j < n; ++j) line[j] = x[base + j * inner];
          const std::vector<cplx> X = fft_by_table(line, w, 1, sign);
          for (std::size_t j = 0; j < n; ++j) x[base + j * inner] = X[j];
        }
  }
  return x;
}

// ||got - want|| / ||want|| over every value (0 when both are 0).
inline double fft_relative_error(const std::vector<cplx>& got, const std::vector<cplx>& want) {
  double e = 0, w = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    e += std::norm(got[i] - want[i]);
    w += std::norm(want[i]);
  }
  return w > 0 ? std::sqrt(e / w) : std::sqrt(e);
}

// The relative RMS error of an array's forward transform `got` (pairs of
// floats; `half`: the last axis's first n / 2 + 1 outputs only, an R2C
// transform's) against the transform of its input `x` in double: the error
// table of docs/fft.md, printed alike by portacl-bench and cufft_direct.
inline double forward_error(std::vector<cplx> x, const std::vector<std::size_t>& shape, bool half, const float* got) {
  const std::vector<cplx> want = fftn(std::move(x), shape, 1, -1);
  const std::size_t last = shape.back(), kept = half ? last / 2 + 1 : last, outputs = want.size() / last * kept;
  std::vector<cplx> have(outputs), want_kept(outputs);
  for (std::size_t o = 0; o < outputs; ++o) {
    have[o] = cplx(got[2 * o], got[2 * o + 1]);
    want_kept[o] = want[o / kept * last + o % kept];
  }
  return fft_relative_error(have, want_kept);
}

// The normwise relative error a transform of `n` points may have when its
// arithmetic rounds to unit roundoff u (2^-24 float, 2^-53 double), after
// Higham (Accuracy and Stability of Numerical Algorithms, 24.1): each pass
// of radix p adds at most mu + sqrt2 gamma_4 (a twiddle of relative error
// mu = 9u, two rounded table values and their product, or on GPUs a root
// from its angle, three roundings and sinpi and cospi of 4 ulp, under
// 8u; times a value) and,
// for p > 2, sqrt2 sqrt(p) gamma_(p+2) (its outputs' sums of p products,
// relative to the pass's gain sqrt(p)); the passes of n's prime factors add
// up. A length with a prime factor above 13 runs by Bluestein's chirp-z:
// two transforms of m >= 2n - 1 and the spectrum's, times (2n - 1) /
// sqrt(m n) <= sqrt((2n - 1) / n) (the convolution's kernel's largest
// coefficient over the gain), and two chirp products.
inline double fft_pass_bound(std::size_t p, double u) {
  auto gamma = [u](double k) { return k * u / (1 - k * u); };
  double e = 9 * u + std::sqrt(2.0) * gamma(4);
  if (p > 2) e += std::sqrt(2.0) * std::sqrt(double(p)) * gamma(double(p) + 2);
  return e;
}

inline double fft_smooth_bound(std::size_t n, double u) {
  double e = 0;
  for (std::size_t p = 2; n > 1;) {
    if (n % p == 0) {
      e += fft_pass_bound(p, u);
      n /= p;
    } else {
      ++p;
    }
  }
  return e;
}

inline double fft_error_bound(std::size_t n, double u) {
  std::size_t largest = 1, r = n;
  for (std::size_t p = 2; r > 1; ++p)
    while (r % p == 0) {
      largest = p;
      r /= p;
    }
  if (largest <= 13) return fft_smooth_bound(n, u);
  // The smallest 2^a 3^b 5^c 7^d >= 2n - 1 bounds m's passes by those of
  // the power of two at least 2n - 1 with a 7 in place of each 2 (the
  // worst a smooth length of that size can have).
  std::size_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  const double passes = std::log2(double(m));
  const double em = passes * fft_pass_bound(7, u);
  const double ratio = std::sqrt((2.0 * n - 1) / double(n));
  return ratio * (3 * em + 2 * u) + 2 * (9 * u + std::sqrt(2.0) * 4 * u / (1 - 4 * u));
}

// The bound of a transform over several axes: each axis's, added.
inline double fft_error_bound(const std::vector<std::size_t>& shape, double u) {
  double e = 0;
  for (std::size_t n : shape) e += fft_error_bound(n, u);
  return e;
}

// How far a correlation by FFT may stand from the exact one, as a 2-norm
// over its outputs (and so for each one), to first order: the sum over
// `terms` correlations added in the spectrum (a layer's channels; 1 for a
// single image and mask) of x_c, zero-padded to `grid`, with w_c, whose
// sum_c |x_c|_2 |w_c|_1 is `norms`. With e the transforms' bound over the
// grid's axes (it bounds each spectrum value too, as every path from an
// input to an output of a pass carries at most that pass's relative
// error), the spectra X_c = F x_c and W_c = F w_c come out within
// e sqrt(G) |x_c|_2 (normwise) and e |w_c|_1 (each value); each product
// takes a complex product's sqrt2 gamma_2 and their sum gamma_{terms - 1}
// of the magnitudes' sum; |W_ck| <= |w_c|_1 and |X_c|_2 = sqrt(G) |x_c|_2.
// The inverse scaled by 1 / G multiplies norms by 1 / sqrt(G) and adds its
// own e; the scaling and one more rounding after it (a bias, a product's
// scale) two u of |y|_2 <= norms (Young). In all:
//   (3 e + sqrt2 gamma_2 + gamma_{terms - 1} + 2 u) norms.
inline double fft_correlation_bound(const std::vector<std::size_t>& grid, double u, double norms,
                                    std::size_t terms = 1) {
  const auto gamma = [u](double k) { return k * u / (1 - k * u); };
  return (3 * fft_error_bound(grid, u) + std::sqrt(2.0) * gamma(2) + gamma(double(terms - 1)) + 2 * u) * norms;
}

// The grid a plan's decision "fft_grid" ("G0 x G1") names, as the
// transform's shape: {G1} where G0 is 1.
inline std::vector<std::size_t> fft_grid_named(const std::string& named) {
  const std::size_t g0 = std::stoul(named), g1 = std::stoul(named.substr(named.find('x') + 1));
  return g0 > 1 ? std::vector<std::size_t>{g0, g1} : std::vector<std::size_t>{g1};
}

}  // namespace portacl::reference
