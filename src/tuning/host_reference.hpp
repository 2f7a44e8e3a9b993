// SPDX-License-Identifier: Apache-2.0
// The one double-precision host reference of every operation, shared by the
// unit tests, the tuner's checks and portacl-bench's checks of portacl and
// of the baselines. A result carries the magnitude its rounding error
// scales with (the sum of |terms|), and the comparisons below apply one
// bound per kind of operation, so every caller judges alike.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace portacl::reference {

// Float's unit roundoff: a correctly rounded float operation errs by at most
// this much of its result. Float bounds are counts of these times the
// magnitudes involved.
constexpr double kFloatU = double(std::numeric_limits<float>::epsilon()) / 2;
constexpr double kDoubleU = std::numeric_limits<double>::epsilon() / 2;
// The unit roundoff of T (float or double).
template <class T>
constexpr double unit_roundoff() {
  return sizeof(T) == 4 ? kFloatU : kDoubleU;
}
// OpenCL C's error allowance, in units of kFloatU, for single-precision
// division (2.5 ulp), sqrt (3 ulp) and rsqrt (2 ulp), built without
// -cl-fp32-correctly-rounded-divide-sqrt (OpenCL C 1.2, 7.4): an ulp of x is
// at most 2 kFloatU |x|.
constexpr double kDivisionU = 5, kSqrtU = 6, kRsqrtU = 4;
// What an underflow may lose besides: a float result below 2^-126 may be
// flushed to zero (OpenCL allows it), so each float operation may also
// stand this far off in absolute terms.
constexpr double kFloatTiny = double(std::numeric_limits<float>::min());  // 2^-126

// An exact (double) result and the sum of the magnitudes of its terms.
struct Exact {
  double value = 0, magnitude = 0;
};

// The sum of term(0) .. term(k - 1).
template <class Term>
Exact sum_of(std::size_t k, Term term) {
  Exact e;
  for (std::size_t p = 0; p < k; ++p) {
    const double t = term(p);
    e.value += t;
    e.magnitude += std::fabs(t);
  }
  return e;
}

// ---- element-wise ---------------------------------------------------------

// a x + b y, element by element (axpy: b = 1; scale: x = y, b = 0).
template <class T>
std::vector<Exact> axpby(double a, const std::vector<T>& x, double b, const std::vector<T>& y) {
  std::vector<Exact> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double ax = a * double(x[i]), by = b * double(y[i]);
    out[i] = {ax + by, std::fabs(ax) + std::fabs(by)};
  }
  return out;
}
template <class T>
std::vector<Exact> scale(double a, const std::vector<T>& y) {
  return axpby(a, y, 0.0, y);
}

// f(x) element by element, its own magnitude.
template <class T, class F>
std::vector<Exact> map(const std::vector<T>& x, F f) {
  std::vector<Exact> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double v = f(double(x[i]));
    out[i] = {v, std::fabs(v)};
  }
  return out;
}

// f(x, y) element by element, f giving the value and its terms' magnitude.
template <class T, class F>
std::vector<Exact> map2(const std::vector<T>& x, const std::vector<T>& y, F f) {
  std::vector<Exact> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = f(double(x[i]), double(y[i]));
  return out;
}

// f(x), f(x, y), ... element by element over integer vectors of one
// length, in unsigned 128-bit arithmetic: modulo 2^128, where wrapping is
// defined (a product of two 64-bit operands needs all 128 bits). The
// caller wraps the result into an unsigned T (modulo 2^bits, as C's
// unsigned arithmetic does) or reads a signed one back by two's complement
// and checks that it fits (exact while the true value is within 2^127).
template <class F, class T, class... More>
std::vector<unsigned __int128> integer_map(F f, const std::vector<T>& x, const More&... more) {
  using Wide = unsigned __int128;
  std::vector<Wide> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = f(Wide(x[i]), Wide(more[i])...);
  return out;
}

// ---- reductions -----------------------------------------------------------

template <class T>
Exact sum(const std::vector<T>& x) {
  return sum_of(x.size(), [&](std::size_t i) { return double(x[i]); });
}
// An integer sum, exactly: in 128 bits, so that a sum past 64 bits shows.
template <class T>
__int128 integer_sum(const std::vector<T>& x) {
  __int128 s = 0;
  for (const T& v : x) s += v;
  return s;
}
template <class T>
Exact dot(const std::vector<T>& x, const std::vector<T>& y) {
  return sum_of(x.size(), [&](std::size_t i) { return double(x[i]) * double(y[i]); });
}
template <class T>
Exact nrm2(const std::vector<T>& x) {
  const double r = std::sqrt(dot(x, x).value);
  return {r, r};
}
template <class T, class Predicate>
std::size_t count_if(const std::vector<T>& x, Predicate keep) {
  std::size_t k = 0;
  for (const T& v : x) k += keep(v) ? 1 : 0;
  return k;
}

struct Extremum {
  double value = 0;  // |x| for iamax
  std::size_t index = 0;
};
// The first index whose value (|value| when `absolute`) is better than all
// before it; the first NaN wins, as the device kernels define. x non-empty.
template <class T, class Better>
Extremum extremum(const std::vector<T>& x, Better better, bool absolute) {
  auto at = [&](std::size_t i) { return absolute ? std::fabs(double(x[i])) : double(x[i]); };
  Extremum e{at(0), 0};
  for (std::size_t i = 1; i < x.size() && !std::isnan(e.value); ++i)
    if (std::isnan(at(i)) || better(at(i), e.value)) e = {at(i), i};
  return e;
}

// ---- scans ----------------------------------------------------------------

// Running sums; the magnitude is that of every term added so far.
template <class T>
std::vector<Exact> scan(const std::vector<T>& x, bool inclusive) {
  std::vector<Exact> out(x.size());
  Exact run;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!inclusive) out[i] = run;
    run.value += double(x[i]);
    run.magnitude += std::fabs(double(x[i]));
    if (inclusive) out[i] = run;
  }
  return out;
}

// ---- matrix products ------------------------------------------------------

// Row i of a matrix-vector product: sum over j < k of a(i, j) x(j).
template <class A, class X>
std::vector<Exact> matvec(std::size_t m, std::size_t k, A a, X x) {
  std::vector<Exact> out(m);
  for (std::size_t i = 0; i < m; ++i) out[i] = sum_of(k, [&](std::size_t j) { return double(a(i, j)) * double(x(j)); });
  return out;
}

// Entry (i, j) of op(A) op(B), over k products.
template <class A, class B>
Exact gemm_entry(std::size_t i, std::size_t j, std::size_t k, A a, B b) {
  return sum_of(k, [&](std::size_t p) { return double(a(i, p)) * double(b(p, j)); });
}

// ---- comparisons: "" or the first failure, readable -----------------------

// The bound of a dot product of k terms: 2 (k + 2) eps of the magnitudes.
template <class T>
double dot_bound(std::size_t k) {
  return 2.0 * double(k + 2) * std::numeric_limits<T>::epsilon();
}

// |got - want| <= bound * magnitude, NaN never passes.
inline std::string compare_value(const std::string& what, double got, const Exact& want, double bound) {
  const double tol = bound * want.magnitude + 1e-30;
  if (std::fabs(got - want.value) <= tol) return "";
  std::ostringstream s;
  s.precision(9);
  s << what << ": got " << got << ", want " << want.value << " (tolerance " << tol << ")";
  return s.str();
}

// Element by element, `ulps` roundings of T allowed per element.
template <class T>
std::string compare(const std::vector<T>& got, const std::vector<Exact>& want, double ulps) {
  if (got.size() < want.size())
    return "output has " + std::to_string(got.size()) + " elements, want " + std::to_string(want.size());
  const double bound = ulps * std::numeric_limits<T>::epsilon();
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::string m = compare_value("element " + std::to_string(i), double(got[i]), want[i], bound); !m.empty())
      return m;
  return "";
}

// y = alpha * product + beta * y0 at y's elements position(i), each within
// dot_bound(k) of its terms, and every other element of y unchanged (NaN
// stays NaN). beta == 0 ignores y0 there (it may hold NaN). GEMV's y is at
// offset + i * inc; GEMM's C at its (row, column) place.
template <class T, class Position>
std::string compare_update(const std::vector<T>& got, const std::vector<T>& y0, Position position, T alpha, T beta,
                           std::size_t k, const std::vector<Exact>& product) {
  if (got.size() != y0.size()) return "y changed size";
  std::vector<bool> inside(got.size(), false);
  for (std::size_t i = 0; i < product.size(); ++i) {
    const std::size_t at = position(i);
    inside[at] = true;
    const double c = beta == T(0) ? 0.0 : double(beta) * double(y0[at]);
    const Exact want{double(alpha) * product[i].value + c,
                     std::fabs(double(alpha)) * product[i].magnitude + std::fabs(c)};
    if (std::string m = compare_value("result " + std::to_string(i), double(got[at]), want, dot_bound<T>(k));
        !m.empty())
      return m;
  }
  for (std::size_t e = 0; e < got.size(); ++e)
    if (!inside[e] && !(got[e] == y0[e] || (std::isnan(double(got[e])) && std::isnan(double(y0[e])))))
      return "element " + std::to_string(e) + " outside the result was written";
  return "";
}

// `count` floats uniform in [-1, 1) from `seed`: the inputs of the
// bench's fixed cases.
inline std::vector<float> uniform_floats(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 draw(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = u(draw);
  return v;
}

// `samples` entries of C = A B, square row-major matrices of order n,
// drawn at random from `seed`: a full host product of a large order takes
// minutes. Each within dot_bound(n) of its terms.
template <class T>
std::string compare_gemm_samples(const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c,
                                 std::size_t n, unsigned long long seed, int samples = 64) {
  if (n == 0) return "";
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  for (int s = 0; s < samples; ++s) {
    const std::size_t i = pick(rng), j = pick(rng);
    const Exact want = gemm_entry(
        i, j, n, [&](std::size_t r, std::size_t p) { return a[r * n + p]; },
        [&](std::size_t p, std::size_t col) { return b[p * n + col]; });
    const std::string at = "C(" + std::to_string(i) + "," + std::to_string(j) + ")";
    if (std::string m = compare_value(at, double(c[i * n + j]), want, dot_bound<T>(n)); !m.empty()) return m;
  }
  return "";
}

// The histogram of `keys` into `bins` bins: bin = key >> shift, or
// (key >> shift) mod bins with `wrap`; keys whose bin is `bins` or more are
// not counted. Counted in 64 bits, so a count that overflowed 32 on the
// device shows as a difference.
inline std::vector<std::uint64_t> histogram(const std::vector<std::uint32_t>& keys, std::size_t bins, unsigned shift,
                                            bool wrap) {
  std::vector<std::uint64_t> counts(bins, 0);
  for (std::uint32_t k : keys) {
    std::uint64_t b = k >> shift;
    if (wrap) b %= bins;
    if (b < bins) ++counts[b];
  }
  return counts;
}

// "" when the device's counts equal the reference's, else the first bin
// that differs.
inline std::string compare_counts(const std::vector<std::uint32_t>& got, const std::vector<std::uint64_t>& want) {
  if (got.size() != want.size()) return std::to_string(got.size()) + " counts, want " + std::to_string(want.size());
  for (std::size_t b = 0; b < got.size(); ++b)
    if (got[b] != want[b])
      return "bin " + std::to_string(b) + ": " + std::to_string(got[b]) + ", want " + std::to_string(want[b]);
  return "";
}

}  // namespace portacl::reference
