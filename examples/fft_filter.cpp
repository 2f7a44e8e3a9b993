// SPDX-License-Identifier: Apache-2.0
// Low-pass filter a noisy signal by FFT: a real-to-complex transform, zero
// every frequency above a cut-off, and back; the plans are made once and
// run as often as needed.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <portacl/portacl.hpp>

int main() {
  portacl::Context ctx;
  const std::size_t n = 48000;  // 2^7 3 5^3: mixed radix
  std::mt19937 rng(7);
  std::normal_distribution<float> noise(0.0f, 0.3f);
  std::vector<float> clean(n), signal(n);
  for (std::size_t j = 0; j < n; ++j) {
    clean[j] = std::sin(2 * M_PI * 5 * j / n) + 0.5f * std::cos(2 * M_PI * 12 * j / n);
    signal[j] = clean[j] + noise(rng);
  }

  portacl::FftOptions r2c, c2r;
  r2c.kind = portacl::FftKind::r2c;
  c2r.kind = portacl::FftKind::c2r;
  portacl::Fft forward(ctx, {n}, r2c), backward(ctx, {n}, c2r);
  std::printf("%s", forward.explain().substr(0, forward.explain().find('\n') + 1).c_str());

  portacl::Buffer<float> x(ctx, signal), spectrum(ctx, forward.elements().output), y(ctx, n);
  forward.forward(x, spectrum);
  std::vector<float> s = spectrum.download();                                // n / 2 + 1 complex values
  for (std::size_t k = 21; k <= n / 2; ++k) s[2 * k] = s[2 * k + 1] = 0.0f;  // keep frequencies up to 20
  spectrum.upload(s);
  backward.inverse(spectrum, y);  // unnormalised: n times the signal
  const std::vector<float> filtered = y.download();

  double before = 0, after = 0;
  for (std::size_t j = 0; j < n; ++j) {
    before += std::pow(signal[j] - clean[j], 2);
    after += std::pow(filtered[j] / n - clean[j], 2);
  }
  std::printf("rms error %.4f before, %.4f after filtering\n", std::sqrt(before / n), std::sqrt(after / n));
  return std::sqrt(after / n) < 0.05 ? 0 : 1;
}
