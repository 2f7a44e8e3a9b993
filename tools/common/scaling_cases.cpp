// SPDX-License-Identifier: Apache-2.0
// The scaling sections' cases and one device's time on each (see the header).
#include "scaling_cases.hpp"

#include <chrono>
#include <cmath>
#include <functional>
#include <iomanip>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>

#include "kernels/sparse/generators.hpp"
#include "rules/fft_rules.hpp"
#include "tuning/family.hpp"
#include "tuning/timing.hpp"

using namespace portacl;

namespace bench {

namespace {

// The families' scaling forms (family.hpp), by the families' order.
const std::vector<CaseForm>& scaling_forms() {
  static const std::vector<CaseForm> forms = [] {
    std::vector<CaseForm> all;
    for (const Family& f : families()) all.insert(all.end(), f.scaling.begin(), f.scaling.end());
    return all;
  }();
  return forms;
}

}  // namespace

const std::string& scaling_forms_text() {
  static const std::string text = forms_text(scaling_forms(), 23);
  return text;
}

ScalingCase ScalingCase::grown(std::size_t p) const {
  ScalingCase g = *this;
  // Training's work is linear in its batch, the 3D FFT's about N^3 (N
  // kept a 2^a 3^b 5^c, as a Bluestein length would change the algorithm),
  // the rest's N^2.
  g.n = kind == "train"   ? n * p
        : kind == "fft3d" ? fft_smooth_at_least(std::size_t(std::lround(double(n) * std::cbrt(double(p)))), 5)
                          : std::size_t(std::lround(double(n) * std::sqrt(double(p))));
  return g;
}

ScalingCase parse_scaling_case(const std::string& spec, const std::string& option) {
  const CaseSpec parsed = parse_case(CaseForms{option, scaling_forms()}, spec);
  return ScalingCase{parsed.kind, parsed.values[0]};
}

std::size_t scaling_units(const ScalingCase& c) {
  if (c.kind == "cg" || c.kind == "spmv") return 40;
  if (c.kind == "heat") return 32;
  if (c.kind == "train" || c.kind == "fft3d") return 4;
  return c.n >= 100000 ? 2 : 5;
}

std::vector<float> scaling_bodies(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> bodies(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int j = 0; j < 3; ++j) bodies[4 * i + j] = d(rng);
    bodies[4 * i + 3] = 1.0f / float(n);
  }
  return bodies;
}

SmallCnnShape scaling_network() { return SmallCnnShape{3, 32, 32, 16, 10}; }

std::vector<float> scaling_fft3d_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(2 * n * n * n);
  for (float& x : v) x = d(rng);
  return v;
}

SolverOptions scaling_cg_options(std::size_t k) {
  SolverOptions o;
  o.tolerance = 0;
  o.max_iterations = k;
  return o;
}

HeatOptions<float> scaling_heat_options(std::size_t k) {
  HeatOptions<float> o;
  o.steps = k;
  o.r = 0.2f;
  return o;
}

NbodyOptions scaling_nbody_options() {
  NbodyOptions o;
  o.softening = 0.01f;
  return o;
}

SgdOptions scaling_sgd_options() {
  SgdOptions o;
  o.learning_rate = 0.001f;
  return o;
}

void scaling_batch(std::size_t batch, std::uint64_t seed, std::vector<float>& images, std::vector<int>& labels) {
  const SmallCnnShape s = scaling_network();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  images.resize(batch * s.channels * s.height * s.width);
  for (float& x : images) x = d(rng);
  labels.resize(batch);
  for (int& l : labels) l = int(rng() % s.classes);
}

double alone_ms(Context& ctx, const ScalingCase& c, int reps, std::uint64_t seed) {
  const std::size_t k = scaling_units(c);
  std::function<void()> run;
  if (c.kind == "cg") {
    auto a = std::make_shared<SparseMatrix<double>>(ctx, poisson2d<double>(c.n));
    auto b = std::make_shared<Buffer<double>>(ctx, std::vector<double>(c.n * c.n, 1.0));
    auto x = std::make_shared<Buffer<double>>(ctx, c.n * c.n);
    run = [&ctx, a, b, x, k] {
      fill(ctx, *x, 0.0);
      const SolverOptions o = scaling_cg_options(k);
      cg(ctx, *a, *b, *x, o);
    };
  } else if (c.kind == "spmv") {
    auto a = std::make_shared<SparseMatrix<double>>(ctx, poisson2d<double>(c.n));
    auto x = std::make_shared<Buffer<double>>(ctx, std::vector<double>(c.n * c.n, 1.0));
    auto y = std::make_shared<Buffer<double>>(ctx, c.n * c.n);
    run = [&ctx, a, x, y, k] {
      for (std::size_t i = 0; i < k; ++i) spmv(ctx, 1.0, *a, *x, 0.0, *y);
    };
  } else if (c.kind == "heat") {
    auto u = std::make_shared<Buffer<float>>(ctx, std::vector<float>(c.n * c.n, 1.0f));
    run = [&ctx, u, c, k] {
      const HeatOptions<float> o = scaling_heat_options(k);
      heat2d(ctx, *u, c.n, c.n, o);
    };
  } else if (c.kind == "fft3d") {
    auto data = std::make_shared<Buffer<float>>(ctx, scaling_fft3d_values(c.n, seed));
    auto f = std::make_shared<Fft>(ctx, std::vector<std::size_t>{c.n, c.n, c.n});
    run = [data, f, k] {
      for (std::size_t s = 0; s < k; ++s) f->forward(*data);
    };
  } else if (c.kind == "nbody") {
    auto b = std::make_shared<Buffer<float>>(ctx, scaling_bodies(c.n, seed));
    auto v = std::make_shared<Buffer<float>>(ctx, std::vector<float>(4 * c.n, 0.0f));
    auto a = std::make_shared<Buffer<float>>(ctx, 4 * c.n);
    const NbodyOptions o = scaling_nbody_options();
    nbody_accelerations(ctx, *b, *a, o);
    run = [&ctx, a, b, v, o, k] {
      for (std::size_t s = 0; s < k; ++s) nbody_step(ctx, *b, *v, *a, 1e-4f, o);
    };
  } else {
    std::vector<float> images;
    std::vector<int> labels;
    scaling_batch(c.n, seed, images, labels);
    auto net = std::make_shared<SmallCnn>(ctx, scaling_network(), seed);
    auto di = std::make_shared<Buffer<float>>(ctx, images);
    auto dl = std::make_shared<Buffer<int>>(ctx, labels);
    run = [net, di, dl, c, k] {
      const SgdOptions o = scaling_sgd_options();
      for (std::size_t s = 0; s < k; ++s) net->train_step(*di, *dl, c.n, o);
    };
  }
  const TimingSummary t = measure(1, reps, [&] {
    const auto start = std::chrono::steady_clock::now();
    run();
    ctx.finish();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  });
  return t.median_ms / double(k);
}

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

}  // namespace bench
