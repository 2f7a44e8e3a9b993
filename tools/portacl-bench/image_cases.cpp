// SPDX-License-Identifier: Apache-2.0
// portacl-bench's image cases: 2D and 1D convolution (float, zero
// boundary) and 8-bit normalised cross-correlation, each variant checked on
// a small image against the host reference, then timed.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>

#include "portacl/kernels/stencil/convolution.hpp"
#include "portacl/kernels/stencil/ncc.hpp"
#include "stencil_cases.hpp"
#include "tuning/stencil_reference.hpp"

namespace bench {
namespace {

using namespace portacl;

std::vector<float> uniform(std::size_t n, std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<float> v(n);
  for (auto& e : v) e = static_cast<float>(d(rng));
  return v;
}

struct ConvVariant {
  const char* label;
  std::optional<bool> tile;
  std::optional<std::size_t> outputs, output_rows;
};

// Outputs per work-item: rows x columns.
const ConvVariant conv_variants[] = {{"rules", std::nullopt, std::nullopt, std::nullopt},
                                     {"cached, 1 x 1 outputs", false, 1, 1},
                                     {"cached, 1 x 4 outputs", false, 4, 1},
                                     {"cached, 1 x 8 outputs", false, 8, 1},
                                     {"cached, 2 x 4 outputs", false, 4, 2},
                                     {"cached, 4 x 4 outputs", false, 4, 4},
                                     {"cached, 2 x 8 outputs", false, 8, 2},
                                     {"cached, 4 x 2 outputs", false, 2, 4},
                                     {"cached, 8 x 4 outputs", false, 4, 8},
                                     {"tiled", true, std::nullopt, std::nullopt}};

// One row per variant of convolving a rows x cols image with `mask`,
// checked first on a small image of check_rows x check_cols.
void conv_case(Context& ctx, const std::string& name, std::size_t rows, std::size_t cols, std::size_t check_rows,
               std::size_t check_cols, const ConvolutionMask<float>& mask, std::mt19937_64& rng, int warmup, int reps,
               const Ceilings& ceilings, std::vector<StencilRow>& out) {
  const std::vector<float> small = uniform(check_rows * check_cols, rng, -1, 1);
  const std::vector<double> want =
      reference::convolve2d(small, check_rows, check_cols, mask.weights(), mask.rows(), mask.cols(), Boundary::zero);
  Buffer<float> image(ctx, uniform(rows * cols, rng, -1, 1)), result(ctx, rows * cols);
  Buffer<float> check_in(ctx, small), check_out(ctx, small.size());
  const double outputs = double(rows) * double(cols);
  const double bound = 4.0 * double(mask.rows() * mask.cols() + 1) * std::numeric_limits<float>::epsilon();
  for (const ConvVariant& v : conv_variants) {
    if (rows == 1 && v.output_rows.value_or(1) > 1) continue;  // a 1D convolution has one row
    StencilRow row;
    row.stencil = name;
    row.element = "float";
    row.variant = v.label;
    ConvolutionOptions o;
    o.local_tile = v.tile;
    o.outputs_per_work_item = v.outputs;
    o.output_rows_per_work_item = v.output_rows;
    try {
      convolve2d(ctx, check_in, check_rows, check_cols, mask, check_out, o);
      row.check = within(check_out.download(), want, bound);
      const LaunchPlan plan = convolve2d(ctx, image, rows, cols, mask, result, o);
      if (!v.tile && !v.outputs) {
        const Decision* k = plan.decision("outputs_per_work_item");
        const Decision* q = plan.decision("output_rows_per_work_item");
        row.variant = "rules (" + plan.decision("variant")->value + (k ? ", " + k->value + " outputs" : "") +
                      (q ? " x " + q->value + " rows" : "") + ")";
      }
      time_case(
          ctx, warmup, reps, ceilings, {8.0 * outputs, 2.0 * double(mask.rows() * mask.cols()) * outputs, outputs},
          [&] { convolve2d(ctx, image, rows, cols, mask, result, o); }, row);
    } catch (const std::exception& e) {
      row.check = std::string("failed: ") + e.what();
    }
    out.push_back(row);
  }
}

}  // namespace

void conv2d_rows(Context& ctx, std::size_t n, std::size_t m, int warmup, int reps, unsigned long long seed,
                 const Ceilings& ceilings, std::vector<StencilRow>& out) {
  std::mt19937_64 rng(seed);
  const std::string name = "conv2d " + std::to_string(n) + "^2 " + std::to_string(m) + "x" + std::to_string(m);
  const ConvolutionMask<float> mask(ctx, uniform(m * m, rng, -1, 1), m, m);
  conv_case(ctx, name + " zero", n, n, 67, 131, mask, rng, warmup, reps, ceilings, out);
  // A separable mask (binomial rows: a Gaussian's usual stand-in) as the
  // rules run it, and as two forced 1D passes.
  std::vector<float> binomial(m, 0.0f), outer(m * m);
  binomial[0] = 1;
  for (std::size_t k = 1; k < m; ++k)
    for (std::size_t j = k; j > 0; --j) binomial[j] += binomial[j - 1];
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) outer[i * m + j] = binomial[i] * binomial[j] / float(1u << (2 * m - 2));
  const ConvolutionMask<float> separable(ctx, outer, m, m, true);
  StencilRow row;
  row.stencil = name + " zero";
  row.element = "float";
  row.variant = "two 1D passes (separable)";
  if (!separable.separable()) {
    row.check = "failed: the binomial mask was not found separable";
    out.push_back(row);
    return;
  }
  Buffer<float> image(ctx, uniform(n * n, rng, -1, 1)), mid(ctx, n * n), result(ctx, n * n);
  const std::vector<float> small = uniform(67 * 131, rng, -1, 1);
  Buffer<float> check_in(ctx, small), check_mid(ctx, small.size()), check_out(ctx, small.size());
  convolve2d(ctx, check_in, 67, 131, *separable.column_factor(), check_mid);
  convolve2d(ctx, check_mid, 67, 131, *separable.row_factor(), check_out);
  row.check = within(check_out.download(), reference::convolve2d(small, 67, 131, outer, m, m, Boundary::zero),
                     8.0 * double(m * m + 1) * std::numeric_limits<float>::epsilon());
  const double outputs = double(n) * double(n);
  time_case(
      ctx, warmup, reps, ceilings, {8.0 * outputs, 2.0 * double(m * m) * outputs, outputs},
      [&] {
        convolve2d(ctx, image, n, n, *separable.column_factor(), mid);
        convolve2d(ctx, mid, n, n, *separable.row_factor(), result);
      },
      row);
  out.push_back(row);
}

void conv1d_rows(Context& ctx, std::size_t n, std::size_t m, int warmup, int reps, unsigned long long seed,
                 const Ceilings& ceilings, std::vector<StencilRow>& out) {
  std::mt19937_64 rng(seed);
  const ConvolutionMask<float> mask(ctx, uniform(m, rng, -1, 1), 1, m);
  conv_case(ctx, "conv1d " + std::to_string(n) + " " + std::to_string(m) + "-point zero", 1, n, 1, 100003, mask, rng,
            warmup, reps, ceilings, out);
}

void ncc_rows(Context& ctx, std::size_t n, std::size_t t, int warmup, int reps, unsigned long long seed,
              const Ceilings& ceilings, std::vector<StencilRow>& out) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pixel(0, 255);
  auto pixels = [&](std::size_t count) {
    std::vector<std::uint8_t> v(count);
    for (auto& e : v) e = static_cast<std::uint8_t>(pixel(rng));
    return v;
  };
  if (t > n) throw std::invalid_argument("ncc: the template is larger than the image");
  const std::vector<std::uint8_t> image = pixels(n * n), small = pixels((t + 45) * (t + 61));
  std::vector<std::uint8_t> templ(t * t), small_templ(t * t);
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = 0; j < t; ++j) {
      templ[i * t + j] = image[(i + n / 3) * n + j + n / 2 - t / 2];
      small_templ[i * t + j] = small[(i + 7) * (t + 61) + j + 11];
    }
  const std::vector<double> want = reference::ncc(small, t + 45, t + 61, small_templ, t, t);
  const auto [mr, mc] = ncc_map_size(n, n, t, t);
  Buffer<std::uint8_t> in(ctx, image), check_in(ctx, small);
  Buffer<float> map(ctx, mr * mc), check_map(ctx, want.size());
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
  const double offsets = double(mr) * double(mc), n_t = double(t) * double(t);
  const NccTemplate<std::uint8_t> prepared(ctx, templ, t, t);  // formed once, as for many frames
  for (const Variant& v : variants) {
    StencilRow row;
    row.stencil = "ncc " + std::to_string(n) + "^2 " + std::to_string(t) + "^2 template";
    row.element = "uint8";
    row.variant = v.label;
    NccOptions o;
    o.local_tile = v.tile;
    o.outputs_per_work_item = v.outputs;
    try {
      ncc(ctx, check_in, t + 45, t + 61, small_templ, t, t, check_map, o);
      row.check = within(check_map.download(), want, 1e-6);
      const LaunchPlan plan = ncc(ctx, in, n, n, prepared, map, o);
      if (!v.tile) row.variant = std::string("rules (") + plan.decision("variant")->value + ")";
      // Points: template pixels visited (the book's measure); flops: three
      // multiply-adds per template pixel (sum, sum of squares, product).
      time_case(
          ctx, warmup, reps, ceilings, {double(n) * double(n) + 4.0 * offsets, 6.0 * n_t * offsets, n_t * offsets},
          [&] { ncc(ctx, in, n, n, prepared, map, o); }, row);
      const NccMatch best = ncc_best_match(ctx, map, mr, mc);
      if (row.check == "ok" && (best.row != n / 3 || best.col != n / 2 - t / 2))
        row.check = "best match at (" + std::to_string(best.row) + ", " + std::to_string(best.col) + "), not where cut";
    } catch (const std::exception& e) {
      row.check = std::string("failed: ") + e.what();
    }
    out.push_back(row);
  }
}

}  // namespace bench
