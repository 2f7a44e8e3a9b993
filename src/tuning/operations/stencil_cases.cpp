// SPDX-License-Identifier: Apache-2.0
// The stencil family's benchmark cases (portacl-bench --stencils, the forms
// at the end): the 2D heat equation, the 3D star and box, 2D
// and 1D convolution, and 8-bit NCC, each by the rules and by every forced
// variant, each variant checked on a small instance against the host
// reference before it is timed.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>

#include "../family.hpp"
#include "family_parts.hpp"
#include "../fft_reference.hpp"
#include "../stencil_reference.hpp"
#include "portacl/stencil.hpp"

namespace portacl {
namespace {

std::vector<float> uniform(std::size_t n, std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<float> v(n);
  for (auto& e : v) e = static_cast<float>(d(rng));
  return v;
}

template <class T>
const char* element_name() {
  return sizeof(T) == 4 ? "float" : "double";
}

// ---- the 2D heat equation

// A variant: forced tile or not, forced steps per launch and cells per
// work-item, or the rules'.
struct HeatVariant {
  const char* label;
  std::optional<bool> tile;
  std::optional<std::size_t> per_launch;
  std::optional<std::size_t> cells_x = std::nullopt;
  std::optional<std::size_t> cells_y = std::nullopt;
};

const HeatVariant heat_variants[] = {{"rules", std::nullopt, std::nullopt},
                                     {"cached", false, 1},
                                     {"cached, 1 cell of a row", false, 1, 1},
                                     {"cached, 2 cells of a row", false, 1, 2},
                                     {"cached, 4 cells of a row", false, 1, 4},
                                     {"cached, 8 cells of a row", false, 1, 8},
                                     {"tiled", true, 1},
                                     {"2 steps per launch", std::nullopt, 2},
                                     {"4 steps per launch", std::nullopt, 4},
                                     {"8 steps per launch", std::nullopt, 8},
                                     {"4 steps, 1 cell of a column", std::nullopt, 4, std::nullopt, 1},
                                     {"4 steps, 16 cells of a column", std::nullopt, 4, std::nullopt, 16}};

template <class T>
HeatOptions<T> heat_options(const HeatVariant& v, std::size_t steps) {
  HeatOptions<T> o;
  o.r = T(0.2);
  o.steps = steps;
  o.local_tile = v.tile;
  o.steps_per_launch = v.per_launch;
  o.cells_x = v.cells_x;
  o.cells_y = v.cells_y;
  return o;
}

template <class T>
struct HeatState {
  HeatState(Context& ctx, std::vector<T> start) : u0(std::move(start)), u(ctx, u0) {}
  std::vector<T> u0;
  Buffer<T> u;
};

template <class T>
BenchCase heat_case(Context& ctx, std::size_t n, std::size_t steps, unsigned long long seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> u0(n * n);
  for (auto& v : u0) v = static_cast<T>(d(rng));
  auto s = std::make_shared<HeatState<T>>(ctx, std::move(u0));
  const double updates = double(n) * double(n) * double(steps);
  BenchCase c{"heat2d " + std::to_string(n) + "^2 x " + std::to_string(steps), element_name<T>(),
              2.0 * sizeof(T) * updates, 6.0 * updates, updates};
  c.state = s;
  for (const HeatVariant& v : heat_variants) {
    BenchVariant b{v.label,
                   // A 9-step run (two blocked launches and a remainder where
                   // it blocks) against the host steps.
                   [&ctx, s, n, v] {
                     Buffer<T> u(ctx, s->u0);
                     heat2d(ctx, u, n, n, heat_options<T>(v, 9));
                     return reference::within(u.download(), reference::heat2d(s->u0, n, n, 0.2, 9),
                                              144 * std::numeric_limits<T>::epsilon());
                   },
                   [&ctx, s, n, steps, v] { return heat2d(ctx, s->u, n, n, heat_options<T>(v, steps)); }};
    if (!v.tile && !v.per_launch)
      b.describe = [](const LaunchPlan& plan) {
        const Decision* variant = plan.decision("variant");
        const Decision* k = plan.decision("steps_per_launch");
        const Decision* cells = plan.decision(k ? "temporal_cells_y" : "cells_per_work_item");
        return "rules (" + (variant ? variant->value : std::string("?")) +
               (cells ? ", " + cells->value + (k ? " cells of a column" : " cells of a row") : "") +
               (k ? ", " + k->value + " per launch" : "") + ")";
      };
    c.variants.push_back(std::move(b));
  }
  return c;
}

// ---- 3D stencils

// A variant: forced plane queue or not, outputs in y, z chunk, planes of
// loads in flight, and a work-group shape (x by y) other than the rules'.
struct Variant3d {
  const char* label;
  std::optional<bool> queue;
  std::optional<std::size_t> outputs;
  std::optional<std::size_t> z_chunk = std::nullopt;
  std::optional<std::size_t> prefetch = std::nullopt;
  std::optional<std::array<std::size_t, 2>> shape = std::nullopt;
};

Stencil3dOptions options_3d(const Variant3d& v) {
  Stencil3dOptions o;
  o.plane_queue = v.queue;
  o.outputs_y = v.outputs;
  o.z_chunk = v.z_chunk;
  o.prefetch_planes = v.prefetch;
  if (v.shape) {
    PlanOverride shape;
    shape.local_shape = std::array<std::size_t, 3>{(*v.shape)[0], (*v.shape)[1], 1};
    shape.provenance = "the bench's shape";
    o.plan.override_values = shape;
  }
  return o;
}

std::string describe_3d(const LaunchPlan& plan) {
  const Decision* outputs = plan.decision("outputs_y");
  const Decision* chunk = plan.decision("z_chunk");
  const Decision* ahead = plan.decision("prefetch_planes");
  const Decision* variant = plan.decision("variant");
  return "rules (" + (variant ? variant->value : std::string("?")) + (outputs ? ", " + outputs->value + " in y" : "") +
         (ahead ? ", " + ahead->value + " ahead" : "") +
         (outputs ? ", " + std::to_string(plan.local[0]) + " x " + std::to_string(plan.local[1]) : "") +
         (chunk ? ", " + chunk->value : "") + ")";
}

// A 3D stencil on an n^3 grid, zero boundary: `run` is the call (the
// weights prepared once, as a time-stepping loop would); `points` the host
// reference's terms, `reach` their largest offset.
template <class T, class Prepared>
struct Grid3dState {
  Grid3dState(Context& ctx, std::size_t n, std::mt19937_64& rng, Prepared weights)
      : e{n, n, n},
        prepared(std::move(weights)),
        in(ctx, random_field(e.cells(), rng)),
        out(ctx, e.cells()),
        check_field(random_field(small.cells(), rng)),
        check_in(ctx, check_field),
        check_out(ctx, small.cells()) {}
  static std::vector<T> random_field(std::size_t n, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> d(-1, 1);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(d(rng));
    return v;
  }
  Extent3 e, small{37, 29, 23};
  Prepared prepared;
  Buffer<T> in, out;
  std::vector<T> check_field;
  Buffer<T> check_in, check_out;
};

template <class T, class Prepared, class Call>
BenchCase grid3d_case(Context& ctx, const std::string& label, std::size_t n, Prepared prepared,
                      const std::vector<std::array<double, 4>>& points, std::size_t reach,
                      const std::vector<Variant3d>& variants, unsigned long long seed, Call call) {
  std::mt19937_64 rng(seed);
  auto s = std::make_shared<Grid3dState<T, Prepared>>(ctx, n, rng, std::move(prepared));
  auto want = std::make_shared<const std::vector<double>>(
      reference::stencil3d(s->check_field, s->small.nx, s->small.ny, s->small.nz, points, reach, Boundary::zero));
  const double cells = double(s->e.cells()), bound = 8.0 * double(points.size()) * std::numeric_limits<T>::epsilon();
  BenchCase c{label, element_name<T>(), 2.0 * sizeof(T) * cells, 2.0 * double(points.size()) * cells, cells};
  c.state = s;
  for (const Variant3d& v : variants) {
    const Stencil3dOptions o = options_3d(v);
    BenchVariant b{v.label,
                   [&ctx, s, want, o, bound, call] {
                     call(ctx, s->prepared, s->check_in, s->small, s->check_out, o);
                     return reference::within(s->check_out.download(), *want, bound);
                   },
                   [&ctx, s, o, call] { return call(ctx, s->prepared, s->in, s->e, s->out, o); }};
    if (!v.queue) b.describe = describe_3d;
    c.variants.push_back(std::move(b));
  }
  return c;
}

// The 3D star: the rules' variant, the plane queue with 1 to 8 outputs per
// work-item in y, loads ahead, shapes and z chunks, and the cache-reliant
// variant; each forces one choice and leaves the rest to the rules.
BenchCase star_case(Context& ctx, std::size_t n, std::size_t radius, unsigned long long seed) {
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<float> c(radius + 1);
  for (auto& v : c) v = static_cast<float>(d(rng));
  using Shape = std::optional<std::array<std::size_t, 2>>;
  static const Shape w32{{32, 8}}, w128{{128, 2}};
  static const std::vector<Variant3d> variants = {
      {"rules", std::nullopt, std::nullopt},
      {"queue, 1 output in y", true, 1},
      {"queue, 2 outputs in y", true, 2},
      {"queue, 8 outputs in y", true, 8},
      {"queue, loads 1 plane ahead", true, std::nullopt, std::nullopt, 1},
      {"queue, loads 2 planes ahead", true, std::nullopt, std::nullopt, 2},
      {"queue, loads 4 planes ahead", true, std::nullopt, std::nullopt, 4},
      {"queue, 32 x 8 group", true, std::nullopt, std::nullopt, std::nullopt, w32},
      {"queue, 128 x 2 group", true, std::nullopt, std::nullopt, std::nullopt, w128},
      {"queue, 64-plane chunks", true, std::nullopt, 64},
      {"cache-reliant", false, std::nullopt}};
  return grid3d_case<float>(
      ctx, "star3d " + std::to_string(n) + "^3 r" + std::to_string(radius) + " zero", n,
      std::make_shared<StarWeights<float>>(ctx, c), reference::star_points(c), radius, variants, seed,
      [](Context& cx, const std::shared_ptr<StarWeights<float>>& w, const Buffer<float>& in, Extent3 e,
         Buffer<float>& out, const Stencil3dOptions& o) { return star_stencil3d(cx, in, e, *w, out, o); });
}

// A general 3D stencil: every offset of the (2R + 1)^3 box with its own
// random weight. Its only variant on GPUs is the cache-reliant one; CPUs
// walk whole rows.
BenchCase box_case(Context& ctx, std::size_t n, std::size_t radius, unsigned long long seed) {
  std::mt19937_64 rng(seed + 2);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<StencilPoint<float>> points;
  std::vector<std::array<double, 4>> terms;
  const int r = static_cast<int>(radius);
  for (int dz = -r; dz <= r; ++dz)
    for (int dy = -r; dy <= r; ++dy)
      for (int dx = -r; dx <= r; ++dx) {
        const float w = static_cast<float>(d(rng));
        points.push_back({dx, dy, dz, w});
        terms.push_back({double(dx), double(dy), double(dz), double(w)});
      }
  static const std::vector<Variant3d> variants = {{"rules", std::nullopt, std::nullopt},
                                                  {"cache-reliant, a work-item per cell", false, std::nullopt}};
  return grid3d_case<float>(
      ctx, "box3d " + std::to_string(n) + "^3 r" + std::to_string(radius) + " zero", n,
      std::make_shared<StencilPoints<float>>(ctx, points), terms, radius, variants, seed,
      [](Context& cx, const std::shared_ptr<StencilPoints<float>>& p, const Buffer<float>& in, Extent3 e,
         Buffer<float>& out, const Stencil3dOptions& o) { return stencil3d(cx, in, e, *p, out, o); });
}

// ---- convolution

struct ConvVariant {
  const char* label;
  std::optional<bool> tile;
  std::optional<std::size_t> outputs, output_rows;
  std::optional<bool> fft;
};

// Outputs per work-item: rows x columns.
const ConvVariant conv_variants[] = {{"rules", std::nullopt, std::nullopt, std::nullopt, std::nullopt},
                                     {"cached, 1 x 1 outputs", false, 1, 1, std::nullopt},
                                     {"cached, 1 x 4 outputs", false, 4, 1, std::nullopt},
                                     {"cached, 1 x 8 outputs", false, 8, 1, std::nullopt},
                                     {"cached, 2 x 4 outputs", false, 4, 2, std::nullopt},
                                     {"cached, 4 x 4 outputs", false, 4, 4, std::nullopt},
                                     {"cached, 2 x 8 outputs", false, 8, 2, std::nullopt},
                                     {"cached, 4 x 2 outputs", false, 2, 4, std::nullopt},
                                     {"cached, 8 x 4 outputs", false, 4, 8, std::nullopt},
                                     {"tiled", true, std::nullopt, std::nullopt, std::nullopt},
                                     {"by FFT", std::nullopt, std::nullopt, std::nullopt, true}};

struct ConvState {
  ConvState(Context& ctx, std::size_t rows, std::size_t cols, std::size_t check_rows, std::size_t check_cols,
            std::vector<float> mask_weights, std::size_t mask_rows, std::size_t mask_cols, std::mt19937_64& rng)
      : rows(rows),
        cols(cols),
        check_rows(check_rows),
        check_cols(check_cols),
        mask(ctx, std::move(mask_weights), mask_rows, mask_cols),
        small(uniform(check_rows * check_cols, rng, -1, 1)),
        image(ctx, uniform(rows * cols, rng, -1, 1)),
        result(ctx, rows * cols),
        check_in(ctx, small),
        check_out(ctx, small.size()),
        want(reference::convolve2d(small, check_rows, check_cols, mask.weights(), mask.rows(), mask.cols(),
                                   Boundary::zero)) {}
  std::size_t rows, cols, check_rows, check_cols;
  ConvolutionMask<float> mask;
  std::vector<float> small;
  Buffer<float> image, result, check_in, check_out;
  std::vector<double> want;
};

// Every variant of convolving a rows x cols image with a mask, checked
// first on a check_rows x check_cols image.
BenchCase conv_case(const std::string& label, const std::shared_ptr<ConvState>& s, Context& ctx) {
  const double outputs = double(s->rows) * double(s->cols), taps = double(s->mask.rows() * s->mask.cols());
  const double bound = 4.0 * (taps + 1) * std::numeric_limits<float>::epsilon();
  BenchCase c{label, "float", 8.0 * outputs, 2.0 * taps * outputs, outputs};
  c.state = s;
  for (const ConvVariant& v : conv_variants) {
    if (s->rows == 1 && v.output_rows.value_or(1) > 1) continue;  // a 1D convolution has one row
    ConvolutionOptions o;
    o.local_tile = v.tile;
    o.outputs_per_work_item = v.outputs;
    o.output_rows_per_work_item = v.output_rows;
    // A forced direct variant stays direct whatever rule convolution.fft says.
    o.fft = v.fft ? v.fft : v.tile || v.outputs ? std::optional<bool>(false) : std::nullopt;
    BenchVariant b{
        v.label,
        [&ctx, s, o, bound] {
          const LaunchPlan used = convolve2d(ctx, s->check_in, s->check_rows, s->check_cols, s->mask, s->check_out, o);
          const Decision* algorithm = used.decision("algorithm");  // none for separable masks
          const bool fft = algorithm && algorithm->value == "fft";
          return reference::within(s->check_out.download(), s->want,
                                   fft ? reference::fft_convolution_bound(used, s->small, s->mask.weights()) : bound);
        },
        [&ctx, s, o] { return convolve2d(ctx, s->image, s->rows, s->cols, s->mask, s->result, o); }};
    if (!v.tile && !v.outputs && !v.fft)
      b.describe = [](const LaunchPlan& plan) {
        const Decision* algorithm = plan.decision("algorithm");
        if (algorithm && algorithm->value == "fft") return std::string("rules (by FFT)");
        const Decision* k = plan.decision("outputs_per_work_item");
        const Decision* q = plan.decision("output_rows_per_work_item");
        const Decision* variant = plan.decision("variant");
        return "rules (" + (variant ? variant->value : std::string("?")) + (k ? ", " + k->value + " outputs" : "") +
               (q ? " x " + q->value + " rows" : "") + ")";
      };
    c.variants.push_back(std::move(b));
  }
  return c;
}

// A separable mask (binomial rows: a Gaussian's usual stand-in) as two
// forced 1D passes: a variant of the 2D case.
BenchVariant separable_variant(Context& ctx, std::size_t n, std::size_t m, std::mt19937_64& rng) {
  std::vector<float> binomial(m, 0.0f), outer(m * m);
  binomial[0] = 1;
  for (std::size_t k = 1; k < m; ++k)
    for (std::size_t j = k; j > 0; --j) binomial[j] += binomial[j - 1];
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j)
      outer[i * m + j] = float(std::ldexp(double(binomial[i]) * binomial[j], -int(2 * m - 2)));
  struct State {
    State(Context& ctx, std::vector<float> w, std::size_t n, std::size_t m, std::mt19937_64& rng)
        : mask(ctx, w, m, m, true),
          image(ctx, uniform(n * n, rng, -1, 1)),
          mid(ctx, n * n),
          result(ctx, n * n),
          small(uniform(67 * 131, rng, -1, 1)),
          check_in(ctx, small),
          check_mid(ctx, small.size()),
          check_out(ctx, small.size()),
          want(reference::convolve2d(small, 67, 131, w, m, m, Boundary::zero)) {}
    ConvolutionMask<float> mask;
    Buffer<float> image, mid, result;
    std::vector<float> small;
    Buffer<float> check_in, check_mid, check_out;
    std::vector<double> want;
  };
  auto s = std::make_shared<State>(ctx, outer, n, m, rng);
  const double bound = 8.0 * double(m * m + 1) * std::numeric_limits<float>::epsilon();
  return {"two 1D passes (separable)",
          [&ctx, s, bound]() -> std::string {
            if (!s->mask.separable()) return "the binomial mask was not found separable";
            convolve2d(ctx, s->check_in, 67, 131, *s->mask.column_factor(), s->check_mid);
            convolve2d(ctx, s->check_mid, 67, 131, *s->mask.row_factor(), s->check_out);
            return reference::within(s->check_out.download(), s->want, bound);
          },
          [&ctx, s, n] {
            convolve2d(ctx, s->image, n, n, *s->mask.column_factor(), s->mid);
            return convolve2d(ctx, s->mid, n, n, *s->mask.row_factor(), s->result);
          }};
}

BenchCase conv2d_case(Context& ctx, std::size_t n, std::size_t m, unsigned long long seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> weights = uniform(m * m, rng, -1, 1);
  auto s = std::make_shared<ConvState>(ctx, n, n, 67, 131, std::move(weights), m, m, rng);
  BenchCase c =
      conv_case("conv2d " + std::to_string(n) + "^2 " + std::to_string(m) + "x" + std::to_string(m) + " zero", s, ctx);
  c.variants.push_back(separable_variant(ctx, n, m, rng));
  return c;
}

BenchCase conv1d_case(Context& ctx, std::size_t n, std::size_t m, unsigned long long seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> weights = uniform(m, rng, -1, 1);
  auto s = std::make_shared<ConvState>(ctx, 1, n, 1, 100003, std::move(weights), 1, m, rng);
  return conv_case("conv1d " + std::to_string(n) + " " + std::to_string(m) + "-point zero", s, ctx);
}

// ---- normalised cross-correlation

BenchCase ncc_case(Context& ctx, std::size_t n, std::size_t t, unsigned long long seed) {
  if (t > n) throw std::invalid_argument("ncc: the template is larger than the image");
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pixel(0, 255);
  auto pixels = [&](std::size_t count) {
    std::vector<std::uint8_t> v(count);
    for (auto& e : v) e = static_cast<std::uint8_t>(pixel(rng));
    return v;
  };
  struct State {
    std::size_t n, t, mr, mc;
    std::vector<std::uint8_t> small_templ;
    std::vector<double> want;
    Buffer<std::uint8_t> in, check_in;
    Buffer<float> map, check_map;
    NccTemplate<std::uint8_t> prepared;  // formed once, as for many frames
  };
  const std::vector<std::uint8_t> image = pixels(n * n), small = pixels((t + 45) * (t + 61));
  std::vector<std::uint8_t> templ(t * t), small_templ(t * t);
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = 0; j < t; ++j) {
      templ[i * t + j] = image[(i + n / 3) * n + j + n / 2 - t / 2];
      small_templ[i * t + j] = small[(i + 7) * (t + 61) + j + 11];
    }
  std::vector<double> want = reference::ncc(small, t + 45, t + 61, small_templ, t, t);
  const auto [mr, mc] = ncc_map_size(n, n, t, t);
  const std::size_t check_size = want.size();
  auto s = std::shared_ptr<State>(new State{
      n, t, mr, mc, small_templ, std::move(want), Buffer<std::uint8_t>(ctx, image), Buffer<std::uint8_t>(ctx, small),
      Buffer<float>(ctx, mr * mc), Buffer<float>(ctx, check_size), NccTemplate<std::uint8_t>(ctx, templ, t, t)});
  struct Variant {
    const char* label;
    std::optional<bool> tile;
    std::optional<std::size_t> outputs;
  };
  static const Variant variants[] = {{"rules", std::nullopt, std::nullopt},
                                     {"tiled, 1 output", true, 1},
                                     {"tiled, 4 outputs", true, 4},
                                     {"tiled, 8 outputs", true, 8},
                                     {"cache-reliant, 4 outputs", false, 4}};
  // Points: template pixels visited (the book's measure); flops: three
  // multiply-adds per template pixel (sum, sum of squares, product).
  const double offsets = double(mr) * double(mc), n_t = double(t) * double(t);
  BenchCase c{"ncc " + std::to_string(n) + "^2 " + std::to_string(t) + "^2 template", "uint8",
              double(n) * double(n) + 4.0 * offsets, 6.0 * n_t * offsets, n_t * offsets};
  c.state = s;
  for (const Variant& v : variants) {
    NccOptions o;
    o.local_tile = v.tile;
    o.outputs_per_work_item = v.outputs;
    BenchVariant b{v.label,
                   [&ctx, s, o] {
                     ncc(ctx, s->check_in, s->t + 45, s->t + 61, s->small_templ, s->t, s->t, s->check_map, o);
                     return reference::within(s->check_map.download(), s->want, 1e-6);
                   },
                   [&ctx, s, o] { return ncc(ctx, s->in, s->n, s->n, s->prepared, s->map, o); }};
    if (!v.tile)
      b.describe = [](const LaunchPlan& plan) {
        const Decision* variant = plan.decision("variant");
        return std::string("rules (") + (variant ? variant->value : std::string("?")) + ")";
      };
    // The best match is where the template was cut.
    b.after = [&ctx, s]() -> std::string {
      const NccMatch best = ncc_best_match(ctx, s->map, s->mr, s->mc);
      if (best.row != s->n / 3 || best.col != s->n / 2 - s->t / 2)
        return "best match at (" + std::to_string(best.row) + ", " + std::to_string(best.col) + "), not where cut";
      return "";
    };
    c.variants.push_back(std::move(b));
  }
  return c;
}

std::vector<BenchCase> stencil_bench_cases(Context& ctx, const CaseSpec& spec, unsigned long long seed) {
  const std::size_t a = spec.values[0], b = spec.values[1];
  if (spec.kind == "heat2d") {
    std::vector<BenchCase> cases{heat_case<float>(ctx, a, b, seed)};
    if (ctx.info().fp64) cases.push_back(heat_case<double>(ctx, a, b, seed));
    return cases;
  }
  if (spec.kind == "star3d") return {star_case(ctx, a, b, seed)};
  if (spec.kind == "box3d") return {box_case(ctx, a, b, seed)};
  if (spec.kind == "conv2d") return {conv2d_case(ctx, a, b, seed)};
  if (spec.kind == "conv1d") return {conv1d_case(ctx, a, b, seed)};
  return {ncc_case(ctx, a, b, seed)};
}

// portacl-bench's stencil section (--stencils): every variant of each case.
CaseForms stencil_forms() {
  return {"--stencils",
          {{"heat2d", {{"N"}, {"STEPS"}}, "the 2D heat equation on N^2, float and double"},
           {"star3d", {{"N"}, {"RADIUS", 4, "the radius is 1 to 4"}}, "the 3D star of the radius on N^3"},
           {"box3d",
            {{"N"}, {"RADIUS", 2, "the box's radius is 1 or 2 (27 or 125 points)"}},
            "a general stencil: every offset of the (2 RADIUS + 1)^3 box on N^3"},
           {"conv2d", {{"N"}, {"MASK"}}, "an N^2 image, a MASK x MASK mask"},
           {"conv1d", {{"N"}, {"MASK"}}, "N samples, MASK taps"},
           {"ncc", {{"N"}, {"TEMPLATE"}}, "an 8-bit N^2 image, a TEMPLATE x TEMPLATE template"}}};
}

const FamilyRegistration stencil_family({"stencil",
                                         80,
                                         stencil_operations,
                                         stencil_forms,
                                         stencil_bench_cases,
                                         {{"heat", {{"N", 0, "", 2}}, "heat 2D on an N x N grid (float), per step"}}});

}  // namespace
}  // namespace portacl
