// SPDX-License-Identifier: Apache-2.0
// The FFT family's benchmark problem, shared by its cases and the
// baselines portacl-bench supplies (FFTW on a CPU device): a batch of
// packed transforms of random values in [-1, 1), the plan and its
// buffers, and the check of an output against sampled values of the
// definition in double.
#pragma once

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "fft_reference.hpp"
#include "portacl/fft.hpp"

namespace portacl {

struct FftBench {
  FftBench(Context& ctx, std::vector<std::size_t> shape_, std::size_t batch_, FftKind kind_, unsigned long long seed)
      : shape(std::move(shape_)),
        batch(batch_),
        kind(kind_),
        plan(ctx, shape, FftOptions{kind, batch, {}, {}, {}}),
        in(ctx, plan.elements().input),
        out(ctx, plan.elements().output),
        host(plan.elements().input) {
    const std::vector<LaunchPlan> plans = plan.plans();
    first = plans.front();
    launches = kind == FftKind::c2c ? plans.size() / 2 : plans.size();  // C2C: the forward's half
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> d(-1, 1);
    for (float& v : host) v = d(rng);
    in.upload(host);
  }
  std::vector<std::size_t> shape;
  std::size_t batch;
  FftKind kind;
  Fft plan;
  Buffer<float> in, out;
  std::vector<float> host;   ///< the input (interleaved pairs for C2C, reals for R2C)
  LaunchPlan first;          ///< the forward transform's first launch's plan (the one a timed call returns)
  std::size_t launches = 0;  ///< the forward transform's launches

  std::size_t points() const {
    std::size_t p = batch;
    for (std::size_t n : shape) p *= n;
    return p;
  }
  std::size_t out_last() const { return kind == FftKind::r2c ? shape.back() / 2 + 1 : shape.back(); }

  /// The first transform's relative RMS error, every output against the
  /// transform of its input in double (reference::fftn).
  double relative_rms(const std::vector<float>& got) const {
    const std::size_t n = points() / batch;
    std::vector<reference::cplx> x(n);
    for (std::size_t j = 0; j < n; ++j)
      x[j] = kind == FftKind::c2c ? reference::cplx(host[2 * j], host[2 * j + 1]) : reference::cplx(host[j], 0.0);
    return reference::forward_error(std::move(x), shape, kind == FftKind::r2c, got.data());
  }
  std::vector<float> checked;  ///< the output the last check judged (the error is measured on it, not downloaded again)

  /// "" when 16 outputs (4 past 2^20 points a transform), the first and last batch's first values among
  /// them, match the forward transform's definition in double within the
  /// normwise bound (an entry's error is at most the bound times the
  /// output's norm, sqrt(n) ||x|| a transform).
  std::string check(const std::vector<float>& got, unsigned long long seed) const {
    const std::size_t n = points() / batch, per_out = n / shape.back() * out_last();
    std::mt19937_64 rng(seed);
    const bool complex_in = kind == FftKind::c2c;
    const double bound = reference::fft_error_bound(shape, std::ldexp(1.0, -24)) +
                         reference::fft_error_bound(shape, std::ldexp(1.0, -53));
    const int samples = n > (std::size_t{1} << 20) ? 4 : 16;
    for (int s = 0; s < samples; ++s) {
      const std::size_t b = s == 0 ? 0 : s == 1 ? batch - 1 : rng() % batch, o = s < 2 ? 0 : rng() % per_out;
      std::vector<std::size_t> k(shape.size());
      for (std::size_t a = shape.size(), r = o; a-- > 0;) {
        const std::size_t len = a + 1 == shape.size() ? out_last() : shape[a];
        k[a] = r % len;
        r /= len;
      }
      std::complex<double> want = 0;
      double norm = 0;
      for (std::size_t j = 0; j < n; ++j) {
        std::size_t phase = 0, r = j;
        for (std::size_t a = shape.size(); a-- > 0;) {
          // sum over axes of j_a k_a / n_a, as a fraction of n (exact in integers)
          const std::size_t ja = r % shape[a];
          r /= shape[a];
          phase = (phase + (ja * k[a]) % shape[a] * (n / shape[a])) % n;
        }
        const std::size_t e = b * n + j;
        const std::complex<double> x =
            complex_in ? std::complex<double>(host[2 * e], host[2 * e + 1]) : std::complex<double>(host[e], 0.0);
        want += x * reference::fft_root(phase, n, -1);
        norm += std::norm(x);
      }
      const std::size_t at = b * per_out + o;
      const std::complex<double> have(got[2 * at], got[2 * at + 1]);
      const double allowed = bound * std::sqrt(double(n) * norm);
      if (!(std::abs(have - want) <= allowed))
        return "output " + std::to_string(o) + " of batch " + std::to_string(b) + ": " + std::to_string(have.real()) +
               (have.imag() < 0 ? " - " : " + ") + std::to_string(std::abs(have.imag())) + "i, want " +
               std::to_string(want.real()) + (want.imag() < 0 ? " - " : " + ") + std::to_string(std::abs(want.imag())) +
               "i (within " + std::to_string(allowed) + ")";
    }
    return "";
  }
};

}  // namespace portacl
