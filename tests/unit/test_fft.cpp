// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "test_support.hpp"
#include "tuning/fft_reference.hpp"

using namespace portacl;
using reference::cplx;

namespace {

template <class T>
constexpr double fft_roundoff() {
  return std::ldexp(1.0, -std::numeric_limits<T>::digits);
}

std::size_t lengths_product(const std::vector<std::size_t>& v) {
  std::size_t p = 1;
  for (std::size_t n : v) p *= n;
  return p;
}

// Element positions of a layout: batch b, packed index i of `dims`.
std::size_t layout_position(const std::vector<std::size_t>& dims, const FftLayout& l, std::size_t batch_index,
                            std::size_t packed) {
  const std::size_t distance = l.distance ? l.distance : l.stride * lengths_product(dims);
  return l.offset + batch_index * distance + packed * l.stride;
}

// A problem: the transform's arrays as the host sees them, laid out, and
// the values they hold in order (batch-major, packed).
template <class T>
struct FftCase {
  std::vector<std::size_t> shape, in_dims, out_dims;
  FftOptions options;
  bool in_complex = true, out_complex = true;
};

template <class T>
FftCase<T> make_case(std::vector<std::size_t> shape, const FftOptions& o) {
  FftCase<T> c;
  c.shape = shape;
  c.in_dims = c.out_dims = shape;
  c.options = o;
  if (o.kind == FftKind::r2c) c.out_dims.back() = shape.back() / 2 + 1;
  if (o.kind == FftKind::c2r) c.in_dims.back() = shape.back() / 2 + 1;
  c.in_complex = o.kind != FftKind::r2c;
  c.out_complex = o.kind != FftKind::c2r;
  return c;
}

// Random values for every element the input buffer holds (its gaps too),
// and the values the layout picks, in order.
template <class T>
std::vector<T> fft_fill_input(const FftCase<T>& c, std::size_t elements, std::vector<cplx>& values) {
  std::vector<T> host = test::random_vector<T>(elements, 0.0, 1.0);
  const std::size_t per = lengths_product(c.in_dims);
  values.assign(c.options.batch * per, 0.0);
  for (std::size_t b = 0; b < c.options.batch; ++b)
    for (std::size_t i = 0; i < per; ++i) {
      const std::size_t e = layout_position(c.in_dims, c.options.input, b, i);
      values[b * per + i] = c.in_complex ? cplx(host[2 * e], host[2 * e + 1]) : cplx(host[e], 0.0);
    }
  return host;
}

// The values the output layout holds, in order; every other element of
// the buffer must still hold the poison.
template <class T>
std::vector<cplx> fft_read_output(const FftCase<T>& c, const std::vector<T>& host, std::size_t& touched_gaps) {
  const std::size_t per = lengths_product(c.out_dims);
  std::vector<cplx> values(c.options.batch * per);
  std::vector<char> used(host.size(), 0);
  for (std::size_t b = 0; b < c.options.batch; ++b)
    for (std::size_t i = 0; i < per; ++i) {
      const std::size_t e = layout_position(c.out_dims, c.options.output, b, i);
      if (c.out_complex) {
        values[b * per + i] = cplx(host[2 * e], host[2 * e + 1]);
        used[2 * e] = used[2 * e + 1] = 1;
      } else {
        values[b * per + i] = cplx(host[e], 0.0);
        used[e] = 1;
      }
    }
  touched_gaps = 0;
  for (std::size_t k = 0; k < host.size(); ++k) touched_gaps += !used[k] && !std::isnan(host[k]);
  return values;
}

// The reference output of `c` for input values `x` (double), per batch.
template <class T>
std::vector<cplx> fft_reference_output(const FftCase<T>& c, const std::vector<cplx>& x, bool inverse) {
  const std::size_t batch = c.options.batch, full = lengths_product(c.shape);
  const int sign = inverse ? +1 : -1;
  if (c.options.kind == FftKind::c2c) return reference::fftn(x, c.shape, batch, sign);
  if (c.options.kind == FftKind::r2c) {
    const std::vector<cplx> X = reference::fftn(x, c.shape, batch, -1);
    std::vector<cplx> half(batch * lengths_product(c.out_dims));
    const std::size_t n = c.shape.back(), h = c.out_dims.back();
    for (std::size_t r = 0; r < half.size() / h; ++r)
      for (std::size_t k = 0; k < h; ++k) half[r * h + k] = X[r * n + k];
    return half;
  }
  // C2R: the Hermitian array the half one stands for, X[k] = conj(X[-k])
  // past the last axis's half, then its inverse's real parts.
  std::vector<cplx> X(batch * full);
  const std::size_t n = c.shape.back(), h = c.in_dims.back();
  std::vector<std::size_t> dims = c.shape;
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < full; ++i) {
      std::vector<std::size_t> idx(dims.size());
      for (std::size_t k = dims.size(), r = i; k-- > 0; r /= dims[k]) idx[k] = r % dims[k];
      bool mirror = idx.back() >= h;
      std::size_t from = 0;
      for (std::size_t k = 0; k < dims.size(); ++k) {
        const std::size_t j = mirror ? (dims[k] - idx[k]) % dims[k] : idx[k];
        from = from * (k + 1 == dims.size() ? h : dims[k]) + j;
      }
      const cplx v = x[b * lengths_product(c.in_dims) + from];
      X[b * full + i] = mirror ? std::conj(v) : v;
    }
  std::vector<cplx> out = reference::fftn(X, c.shape, batch, +1);
  for (cplx& v : out) v = cplx(v.real(), 0.0);
  (void)n;
  return out;
}

// Runs `c` forward (or inverse) on fresh random input with a poisoned
// output and checks it against the reference within the derived bound,
// and that no element outside the output's layout changed.
template <class T>
double check_fft(Context& ctx, const std::vector<std::size_t>& shape, const FftOptions& o, bool inverse = false,
                 bool in_place = false) {
  FftCase<T> c = make_case<T>(shape, o);
  std::string label = "shape";
  for (std::size_t n : shape) label += " " + std::to_string(n);
  INFO(label << ", batch " << o.batch << (inverse ? ", inverse" : ", forward") << (in_place ? ", in place" : "")
             << ", kind " << int(o.kind) << ", in stride " << o.input.stride << " distance " << o.input.distance
             << " offset " << o.input.offset << ", out stride " << o.output.stride << " distance " << o.output.distance
             << " offset " << o.output.offset << ", seed " << test::seed());
  BasicFft<T> f(ctx, shape, o);
  std::vector<cplx> x;
  std::vector<T> host = fft_fill_input(c, f.elements().input, x);
  if (c.options.kind == FftKind::c2r) {
    // A Hermitian input: the half spectrum of random reals.
    FftCase<T> real = make_case<T>(shape, [&] {
      FftOptions r = o;
      r.kind = FftKind::r2c;
      r.input = {};
      r.output = {};
      return r;
    }());
    std::vector<cplx> reals(o.batch * lengths_product(shape));
    for (cplx& v : reals) v = cplx(std::uniform_real_distribution<double>(-1, 1)(test::rng()), 0.0);
    const std::vector<cplx> half = fft_reference_output(real, reals, false);
    for (std::size_t b = 0; b < o.batch; ++b)
      for (std::size_t i = 0; i < lengths_product(c.in_dims); ++i) {
        const std::size_t e = layout_position(c.in_dims, o.input, b, i);
        const cplx v = half[b * lengths_product(c.in_dims) + i];
        host[2 * e] = static_cast<T>(v.real());
        host[2 * e + 1] = static_cast<T>(v.imag());
        x[b * lengths_product(c.in_dims) + i] = cplx(host[2 * e], host[2 * e + 1]);
      }
  }
  const std::vector<cplx> want = fft_reference_output(c, x, inverse);
  std::vector<cplx> got;
  std::size_t touched = 0;
  const T poison = std::numeric_limits<T>::quiet_NaN();
  if (in_place) {
    Buffer<T> data(ctx, host);
    inverse ? f.inverse(data) : f.forward(data);
    got = fft_read_output(c, data.download(), touched);
  } else {
    Buffer<T> in(ctx, host), out(ctx, std::vector<T>(f.elements().output, poison));
    inverse ? f.inverse(in, out) : f.forward(in, out);
    got = fft_read_output(c, out.download(), touched);
    CHECK(in.download() == host);  // the input is left as it was
    CHECK(touched == 0);
  }
  const double error = reference::fft_relative_error(got, want);
  const double bound =
      reference::fft_error_bound(shape, fft_roundoff<T>()) + reference::fft_error_bound(shape, fft_roundoff<double>());
  INFO("relative error " << error << ", bound " << bound);
  CHECK(error <= bound);
  return error;
}

FftOptions fft_batch(std::size_t b, FftKind kind = FftKind::c2c) { return FftOptions{kind, b, {}, {}, {}}; }

}  // namespace

TEST_CASE("fft: every length up to 64, forward and inverse, in batches of 3", "[fft]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n = 1; n <= 64; ++n) {
    check_fft<float>(ctx, {n}, fft_batch(3));
    check_fft<float>(ctx, {n}, fft_batch(3), true);
  }
}

TEST_CASE("fft: primes, products of 2, 3, 5, 7, 11 and 13, powers of two, Bluestein lengths", "[fft]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : {17u, 97u, 1009u, 210u, 143u, 2187u, 1000u, 2401u, 4096u, 12288u, 65536u, 1u << 20})
    check_fft<float>(ctx, {n}, fft_batch(n > 10000 ? 1 : 5));
  check_fft<float>(ctx, {65537}, fft_batch(1));
  check_fft<float>(ctx, {65537}, fft_batch(1), true);
  check_fft<float>(ctx, {3 * 65536}, fft_batch(2), true);
}

TEST_CASE("fft: inverse after forward gives n x, Parseval, a delta and a single frequency", "[fft]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : {1, 7, 64, 360, 1009, 16384}) {
    INFO("n " << n);
    Fft f(ctx, {n});
    const std::vector<float> x = test::random_vector<float>(2 * n, 0.0, 1.0);
    Buffer<float> a(ctx, x), b(ctx, 2 * n), c(ctx, 2 * n);
    f.forward(a, b);
    f.inverse(b, c);
    const std::vector<float> X = b.download(), y = c.download();
    double ex = 0, eX = 0, diff = 0;
    for (std::size_t i = 0; i < 2 * n; ++i) {
      ex += double(x[i]) * x[i];
      eX += double(X[i]) * X[i];
      diff += std::pow(double(y[i]) - double(n) * x[i], 2);
    }
    const double bound = 2 * reference::fft_error_bound(n, fft_roundoff<float>());
    CHECK(std::sqrt(diff / (double(n) * n * ex)) <= bound);    // round trip
    CHECK(std::abs(std::sqrt(eX / (n * ex)) - 1.0) <= bound);  // Parseval
    // A delta at 0 transforms to all ones; exp(2 pi i 3 j / n) to n at 3.
    std::vector<float> d(2 * n, 0.0f), w(2 * n);
    d[0] = 1;
    for (std::size_t j = 0; j < n; ++j) {
      const cplx v = reference::fft_root(3 * j, n, +1);
      w[2 * j] = float(v.real());
      w[2 * j + 1] = float(v.imag());
    }
    Buffer<float> bd(ctx, d), bw(ctx, w);
    f.forward(bd);
    f.forward(bw);
    const std::vector<float> D = bd.download(), W = bw.download();
    for (std::size_t k = 0; k < n; ++k) {
      CHECK(std::abs(D[2 * k] - 1.0f) <= 1e-6f);
      CHECK(std::abs(D[2 * k + 1]) <= 1e-6f);
      const double want = k == 3 % n ? double(n) : 0.0;
      CHECK(std::abs(W[2 * k] - want) <= n * bound + 1e-6);
      CHECK(std::abs(W[2 * k + 1]) <= n * bound + 1e-6);
    }
  }
}

TEST_CASE("fft: strided, offset and interleaved layouts, in place", "[fft]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : {12, 97, 1024, 3000}) {
    FftOptions o = fft_batch(3);
    o.input = {5, 3, 0};       // every third value, after 5
    o.output = {1, 1, n + 7};  // packed with gaps between transforms
    check_fft<float>(ctx, {n}, o);
    o.input = {0, 3, 1};  // the batch interleaved
    o.output = {2, 3, 1};
    check_fft<float>(ctx, {n}, o, true);
    FftOptions same = fft_batch(5);
    same.input = same.output = {3, 2, 2 * n + 1};
    check_fft<float>(ctx, {n}, same, false, true);
    check_fft<float>(ctx, {n}, fft_batch(5), true, true);
  }
}

TEST_CASE("fft: real to complex and complex to real, odd and even lengths", "[fft]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : {1, 2, 3, 8, 15, 16, 17, 100, 1009, 4096, 65536}) {
    check_fft<float>(ctx, {n}, fft_batch(3, FftKind::r2c));
    check_fft<float>(ctx, {n}, fft_batch(3, FftKind::c2r), true);
  }
  FftOptions o = fft_batch(2, FftKind::r2c);
  o.input = {1, 2, 0};
  o.output = {0, 1, 40};
  check_fft<float>(ctx, {31}, o);
  // An even length of two stages: its reals as half as many complex values
  // (fft.real-packed), through strided, offset and spaced layouts, and as
  // the last axis of a 2D transform.
  for (std::size_t n : {40000u, 2u * 3 * 5 * 7 * 11 * 13 * 4}) {
    FftOptions r = fft_batch(2, FftKind::r2c);
    r.input = {1, 2, 0};
    r.output = {3, 1, n / 2 + 11};
    check_fft<float>(ctx, {n}, r);
    FftOptions c = fft_batch(2, FftKind::c2r);
    c.input = {1, 1, n / 2 + 5};
    c.output = {2, 3, 0};
    check_fft<float>(ctx, {n}, c, true);
    check_fft<float>(ctx, {3, n}, fft_batch(1, FftKind::r2c));
    check_fft<float>(ctx, {3, n}, fft_batch(1, FftKind::c2r), true);
  }
}

TEST_CASE("fft: 2D and 3D, complex and real, with a Bluestein axis", "[fft]") {
  Context& ctx = test::cpu_context();
  const std::vector<std::vector<std::size_t>> shapes = {{5, 12}, {64, 64}, {17, 6}, {3, 4, 5}, {8, 19, 6}, {1, 7, 1}};
  for (const auto& s : shapes) {
    check_fft<float>(ctx, s, fft_batch(2));
    check_fft<float>(ctx, s, fft_batch(1), true);
    check_fft<float>(ctx, s, fft_batch(2, FftKind::r2c));
    check_fft<float>(ctx, s, fft_batch(2, FftKind::c2r), true);
  }
  check_fft<float>(ctx, {24, 30}, fft_batch(3), false, true);
}

TEST_CASE("fft: double precision where the device has fp64", "[fft]") {
  Context& ctx = test::cpu_context();
  if (!ctx.info().fp64) return;
  for (std::size_t n : {1, 5, 64, 97, 1000, 4096, 65537}) {
    check_fft<double>(ctx, {n}, fft_batch(2));
    check_fft<double>(ctx, {n}, fft_batch(2), true);
    check_fft<double>(ctx, {n}, fft_batch(2, FftKind::r2c));
  }
  check_fft<double>(ctx, {6, 10, 9}, fft_batch(1, FftKind::c2r), true);
  check_fft<double>(ctx, {40000}, fft_batch(2, FftKind::r2c));  // packed (fft.real-packed)
  check_fft<double>(ctx, {40000}, fft_batch(2, FftKind::c2r), true);
}

TEST_CASE("fft runs right under every device class's plan", "[fft]") {
  Context& ctx = test::cpu_context();
  for (const auto& [fixture, opt] : test::class_plans(ElementType::f32)) {
    INFO(fixture);
    for (std::size_t n : {1u, 2u, 7u, 60u, 1009u, 1u << 17}) {
      FftOptions o = fft_batch(n > 4096 ? 1 : 3);
      o.plan = opt;
      check_fft<float>(ctx, {n}, o);
      o.kind = FftKind::r2c;
      check_fft<float>(ctx, {n}, o);
    }
    FftOptions o = fft_batch(2);
    o.plan = opt;
    check_fft<float>(ctx, {12, 35}, o, true);
    // A long axis whose values lie 3 apart: loaded and stored across slots.
    check_fft<float>(ctx, {2048, 3}, o);
  }
}

TEST_CASE("fft: column axes take neighbouring transforms a work-group under every device class's plan", "[fft]") {
  Context& ctx = test::cpu_context();
  for (const auto& [fixture, opt] : test::class_plans(ElementType::f32)) {
    INFO(fixture);
    // Column axes longer than a work-group holds in a sector's worth of
    // transforms (fft.columns): neighbouring transforms a work-group, side
    // by side in the temporaries between the stages.
    FftOptions o = fft_batch(2);
    o.plan = opt;
    check_fft<float>(ctx, {1u << 17, 3}, o);
    o.kind = FftKind::r2c;
    check_fft<float>(ctx, {3u << 15, 6}, o);
    o.kind = FftKind::c2r;
    check_fft<float>(ctx, {3u << 15, 6}, o, true);
    // Both axes of one length, the column's split where the row's is whole
    // (on GPUs' plans): each reads its own stages' tables.
    FftOptions square = fft_batch(1);
    square.plan = opt;
    check_fft<float>(ctx, {1500, 1500}, square);
  }
}

TEST_CASE("fft explains its algorithm, stages and radices by their rules", "[fft]") {
  Context& ctx = test::cpu_context();
  Fft smooth(ctx, {2401});  // 7^4: the stages on every class (fft.lanes takes radices 2, 3, 4, 5 and 8)
  CHECK_THAT(smooth.explain(), Catch::Contains("[fft.stage-length]") && Catch::Contains("[fft.radices]") &&
                                   Catch::Contains("[fft.slots]") && Catch::Contains("[fft.coalescing]"));
  // Reals as half as many complex values, the halves joined by a launch of
  // their own, or within the stage of a GPU's in-place program, or not
  // packed (one stage on a CPU).
  FftOptions real = fft_batch(1, FftKind::r2c);
  CHECK_THAT(Fft(ctx, {40000}, real).explain(),
             Catch::Contains("packed, 20000 complex values, joined by a launch  [fft.real-packed]") &&
                 Catch::Contains("fft_real_post"));
  bool gpu_plan = false, cpu_plan = false;
  decltype(real.plan) gpu_options;
  for (const auto& [fixture, opt] : test::class_plans(ElementType::f32)) {
    real.plan = opt;
    if (fixture.find("intel_cpu") != std::string::npos) {
      cpu_plan = true;
      CHECK_THAT(Fft(ctx, {64}, real).explain(), Catch::Contains("as complex values  [fft.real-packed]"));
      // A SIMD width of sequences a work-item where the radices are 2, 3, 4,
      // 5 and 8 and the length fits; else the stages.
      FftOptions c = fft_batch(80);  // 80000 values: a CPU plan specialises its stages
      c.plan = opt;
      CHECK_THAT(Fft(ctx, {1000}, c).explain(), Catch::Contains("sequences a work-item, 1 stage  [fft.lanes]") &&
                                                    Catch::Contains("fft_lanes:") && !Catch::Contains("fft_stage:") &&
                                                    !Catch::Contains("[fft.stage-length]") &&
                                                    !Catch::Contains("[fft.pass-twiddles]"));
      CHECK_THAT(Fft(ctx, {1001}, c).explain(), Catch::Contains("none (the stages)  [fft.lanes]"));
      // Longer: stages of lanes, neighbouring slots of a transform, or one
      // slot of neighbouring transforms on a column axis.
      CHECK_THAT(Fft(ctx, {4096}, c).explain(), Catch::Contains("sequences a work-item, 2 stages  [fft.lanes]") &&
                                                    Catch::Contains("neighbouring slots of a transform") &&
                                                    !Catch::Contains("fft_stage:"));
      FftOptions column = fft_batch(1);
      column.plan = opt;
      CHECK_THAT(Fft(ctx, {4096, 64}, column).explain(),
                 Catch::Contains("one slot of neighbouring transforms") && !Catch::Contains("fft_stage:"));
    }
    if (fixture.find("h100") != std::string::npos) {
      gpu_plan = true;
      gpu_options = opt;
      CHECK_THAT(Fft(ctx, {8192}, real).explain(),
                 Catch::Contains("joined in the stage  [fft.real-packed]") && !Catch::Contains("fft_real_post"));
    }
  }
  REQUIRE(gpu_plan);
  REQUIRE(cpu_plan);
  real.kind = FftKind::c2r;
  real.plan = gpu_options;
  CHECK_THAT(Fft(ctx, {8192}, real).explain(), Catch::Contains("joined in the stage  [fft.real-packed]"));
  real.plan = {};
  CHECK_THAT(Fft(ctx, {40000}, real).explain(), Catch::Contains("fft_real_pre"));
  Fft prime(ctx, {65537});
  CHECK_THAT(prime.explain(), Catch::Contains("[fft.bluestein]") && Catch::Contains("prime factor 65537"));
  for (const LaunchPlan& p : prime.plans()) CHECK(p.provenance == "rules");
}

TEST_CASE("fft refuses what it cannot transform, naming the problem, before any launch", "[fft]") {
  Context& ctx = test::cpu_context();
  CHECK_THROWS_WITH(Fft(ctx, {}), Catch::Contains("0 lengths"));
  CHECK_THROWS_WITH(Fft(ctx, {2, 2, 2, 2}), Catch::Contains("4 lengths"));
  CHECK_THROWS_WITH(Fft(ctx, {8, 0}), Catch::Contains("length 1 is 0"));
  CHECK_THROWS_WITH(Fft(ctx, {8}, fft_batch(0)), Catch::Contains("batch of 0"));
  FftOptions zero;
  zero.input.stride = 0;
  CHECK_THROWS_WITH(Fft(ctx, {8}, zero), Catch::Contains("input stride is 0"));
  FftOptions overlap = fft_batch(4);
  overlap.output.distance = 3;  // transforms of 8 three apart
  CHECK_THROWS_WITH(Fft(ctx, {8}, overlap), Catch::Contains("batches overlap"));
  Fft f(ctx, {8}, fft_batch(2));
  Buffer<float> small(ctx, 31), ok(ctx, 32), other(test::another_context(), 32);
  CHECK_THROWS_WITH(f.forward(small, ok), Catch::Contains("in has 31 elements") && Catch::Contains("32"));
  CHECK_THROWS_WITH(f.forward(ok, small), Catch::Contains("out has 31 elements"));
  CHECK_THROWS_WITH(f.forward(other, ok), Catch::Contains("another context"));
  Fft r(ctx, {8}, fft_batch(1, FftKind::r2c));
  Buffer<float> reals(ctx, 8), spectrum(ctx, 10);
  CHECK_THROWS_WITH(r.inverse(spectrum, reals), Catch::Contains("R2C plan runs forward only"));
  CHECK_THROWS_WITH(r.forward(spectrum, spectrum), Catch::Contains("runs out of place"));
  Fft c(ctx, {8}, fft_batch(1, FftKind::c2r));
  CHECK_THROWS_WITH(c.forward(spectrum, reals), Catch::Contains("C2R plan runs inverse only"));
  // Double precision on a device without fp64 (the Xeon Phi fixture's plan).
  FftOptions no_fp64;
  no_fp64.plan.plan_as = test::load_fixture("intel_xeon_phi_knc.clinfo");
  CHECK_THROWS_WITH(FftDouble(ctx, {64}, no_fp64), Catch::Contains("double precision") && Catch::Contains("fp64"));
  FftOptions two;
  two.output.offset = 1;
  Fft t(ctx, {8}, two);
  Buffer<float> big(ctx, 64);
  CHECK_THROWS_WITH(t.forward(big, big), Catch::Contains("two layouts"));
}
