// SPDX-License-Identifier: Apache-2.0
#include "stencil_cases.hpp"

#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>

#include "portacl/kernels/heat2d.hpp"
#include "../common/cli.hpp"
#include "tuning/stencil_reference.hpp"

namespace bench {
namespace {

using namespace portacl;

struct HeatSpec {
  std::size_t n = 0, steps = 0;
};

HeatSpec parse(const std::string& spec) {
  const std::string head = "heat2d:";
  const std::size_t colon = spec.find(':', head.size());
  auto number = [&](const std::string& text) { return cli::positive_whole(text, "--stencils '" + spec + "'"); };
  if (spec.rfind(head, 0) != 0 || colon == std::string::npos)
    throw std::invalid_argument("--stencils '" + spec + "': expected heat2d:N:STEPS");
  return {number(spec.substr(head.size(), colon - head.size())), number(spec.substr(colon + 1))};
}

// A 3-step run of the variant against the host steps.
// A variant: forced tile or not, forced steps per launch, or the rules'.
struct Variant {
  const char* label;
  std::optional<bool> tile;
  std::optional<std::size_t> per_launch;
};

// A 9-step run of the variant (two blocked launches and a remainder where
// it blocks) against the host steps.
template <class T>
std::string check_variant(Context& ctx, std::size_t n, const std::vector<T>& u0, const Variant& v) {
  Buffer<T> u(ctx, u0);
  HeatOptions<T> o;
  o.r = T(0.2);
  o.steps = 9;
  o.local_tile = v.tile;
  o.steps_per_launch = v.per_launch;
  heat2d(ctx, u, n, n, o);
  const std::vector<double> want = reference::heat2d(u0, n, n, 0.2, 9);
  const std::vector<T> got = u.download();
  const double bound = 144 * std::numeric_limits<T>::epsilon();
  for (std::size_t k = 0; k < got.size(); ++k)
    if (!(std::fabs(double(got[k]) - want[k]) <= bound))
      return "cell " + std::to_string(k) + ": " + std::to_string(double(got[k])) + " against " +
             std::to_string(want[k]);
  return "ok";
}

template <class T>
void heat_rows(Context& ctx, const std::string& spec, int warmup, int reps, unsigned long long seed,
               const Ceilings& ceilings, std::vector<StencilRow>& out) {
  const HeatSpec h = parse(spec);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> u0(h.n * h.n);
  for (auto& v : u0) v = static_cast<T>(d(rng));
  Buffer<T> u(ctx, u0);
  static const Variant variants[] = {{"rules", std::nullopt, std::nullopt},
                                     {"cached", false, 1},
                                     {"tiled", true, 1},
                                     {"4 steps per launch", std::nullopt, 4},
                                     {"2 steps per launch", std::nullopt, 2}};
  for (const Variant& variant : variants) {
    StencilRow row;
    row.stencil = "heat2d " + std::to_string(h.n) + "^2 x " + std::to_string(h.steps);
    row.element = sizeof(T) == 4 ? "float" : "double";
    row.variant = variant.label;
    HeatOptions<T> o;
    o.r = T(0.2);
    o.steps = h.steps;
    o.local_tile = variant.tile;
    o.steps_per_launch = variant.per_launch;
    try {
      row.check = check_variant<T>(ctx, h.n, u0, variant);
      const LaunchPlan plan = heat2d(ctx, u, h.n, h.n, o);
      if (!variant.tile && !variant.per_launch) {
        const Decision* v = plan.decision("variant");
        const Decision* k = plan.decision("steps_per_launch");
        row.variant = "rules (" + (v ? v->value : std::string("?")) + (k ? ", " + k->value + " per launch" : "") + ")";
      }
      row.ours = measure(warmup, reps, [&] { return portacl_ms(ctx, [&] { heat2d(ctx, u, h.n, h.n, o); }); });
      row.ours_wall = measure(warmup, reps, [&] { return wall_ms(ctx, [&] { heat2d(ctx, u, h.n, h.n, o); }); });
      const double updates = double(h.n) * double(h.n) * double(h.steps);
      row.gbs = 2.0 * sizeof(T) * updates / (row.ours.median_ms * 1e6);
      row.gflops = 6.0 * updates / (row.ours.median_ms * 1e6);
      row.gpoints = updates / (row.ours.median_ms * 1e6);
      row.fraction_of_copy = row.gbs / ceilings.copy_gbs;
    } catch (const std::exception& e) {
      row.check = std::string("failed: ") + e.what();
    }
    out.push_back(row);
  }
}

}  // namespace

void check_stencil_specs(const std::vector<std::string>& specs) {
  for (const std::string& s : specs) parse(s);
}

std::vector<StencilRow> run_stencils(Context& ctx, const std::vector<std::string>& specs, int warmup, int reps,
                                     unsigned long long seed, const Ceilings& ceilings) {
  std::vector<StencilRow> out;
  for (const std::string& spec : specs) {
    heat_rows<float>(ctx, spec, warmup, reps, seed, ceilings, out);
    if (ctx.info().fp64) heat_rows<double>(ctx, spec, warmup, reps, seed, ceilings, out);
  }
  return out;
}

}  // namespace bench
