// SPDX-License-Identifier: Apache-2.0
#include "group_scaling.hpp"

#include <chrono>
#include <cmath>
#include <functional>
#include <iomanip>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>

#include "../common/cli.hpp"
#include "../common/scaling_cases.hpp"
#include "kernels/sparse/generators.hpp"
#include "portacl/portacl.hpp"
#include "tuning/timing.hpp"

using namespace portacl;

namespace bench {

namespace {

using Case = ScalingCase;
Case parse_case(const std::string& spec) { return parse_scaling_case(spec, "--group-cases"); }

struct GroupTiming {
  double ms = 0;              // per unit
  double exchange_share = 0;  // of the timed runs' wall time
};

// Milliseconds per unit over the group, median, and the exchange's share.
GroupTiming group_ms(DeviceGroup& group, const Case& c, int reps) {
  const std::size_t k = scaling_units(c);
  ScalingRun r;
  if (c.kind == "cg") {
    auto a = std::make_shared<GroupSparseMatrix<double>>(group, poisson2d<double>(c.n));
    auto b = std::make_shared<GroupVector<double>>(group, std::vector<double>(c.n * c.n, 1.0));
    auto x = std::make_shared<GroupVector<double>>(group, std::vector<double>(c.n * c.n, 0.0));
    r = scaling_run(a, [b, x, k](const GroupSparseMatrix<double>& m) { group_cg(m, *b, *x, scaling_cg_options(k)); });
  } else if (c.kind == "spmv") {
    auto a = std::make_shared<GroupSparseMatrix<double>>(group, poisson2d<double>(c.n));
    auto x = std::make_shared<GroupVector<double>>(group, std::vector<double>(c.n * c.n, 1.0));
    auto y = std::make_shared<GroupVector<double>>(group, std::vector<double>(c.n * c.n, 0.0));
    r = scaling_run(a, [x, y, k](const GroupSparseMatrix<double>& m) {
      for (std::size_t i = 0; i < k; ++i) group_spmv(1.0, m, *x, 0.0, *y);
    });
  } else if (c.kind == "heat") {
    r = heat_run(std::make_shared<GroupHeat2d<float>>(group, std::vector<float>(c.n * c.n, 1.0f), c.n, c.n), k);
  } else if (c.kind == "nbody") {
    const NbodyOptions o = scaling_nbody_options();
    r = nbody_run(std::make_shared<GroupNbody>(group, scaling_bodies(c.n, 7), std::vector<float>(4 * c.n, 0.0f), o), k);
  } else if (c.kind == "fft3d") {
    auto f = std::make_shared<GroupFft3d>(group, std::array<std::size_t, 3>{c.n, c.n, c.n});
    auto slabs = std::make_shared<std::vector<Buffer<float>>>(f->scatter(scaling_fft3d_values(c.n, 7)));
    r = scaling_run(f, [slabs, k](const GroupFft3d& g) {
      for (std::size_t s = 0; s < k; ++s) g.forward(*slabs);
    });
  } else {
    // The group takes the batch from host memory (each member uploads its share every step).
    auto images = std::make_shared<std::vector<float>>();
    auto labels = std::make_shared<std::vector<int>>();
    scaling_batch(c.n, 7, *images, *labels);
    r = scaling_run(std::make_shared<GroupSmallCnn>(group, scaling_network(), 7),
                    [images, labels, c, k](GroupSmallCnn& net) {
                      for (std::size_t s = 0; s < k; ++s) net.train_step(*images, *labels, c.n, scaling_sgd_options());
                    });
  }
  const std::function<void()>& run = r.run;
  const std::function<double()>& exchanging = r.exchanging;
  auto finish_all = [&] {
    for (std::size_t m = 0; m < group.size(); ++m) group.context(m).finish();
  };
  double wall_total = 0;
  run();  // warm-up: compiles every member's kernels
  finish_all();
  const double exchange_before = exchanging();
  const TimingSummary t = measure(0, reps, [&] {
    const auto start = std::chrono::steady_clock::now();
    run();
    finish_all();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    wall_total += ms;
    return ms;
  });
  GroupTiming g;
  g.ms = t.median_ms / double(k);
  g.exchange_share = wall_total > 0 ? 1000.0 * (exchanging() - exchange_before) / wall_total : 0.0;
  return g;
}

// The case's own rates as weights: each member's time alone on this very
// problem (the short calibration of portacl-tune --group times a 2^22-float
// copy, which is launch-bound on a GPU: on the H100 machine it weighed the
// GPU 9:1 against the 16-core CPU where CG ran 24x, heat 100x faster).
std::string weigh(DeviceGroup& group, const std::vector<double>& alone) {
  std::vector<double> w;
  std::string text = "alone, this run (";
  for (std::size_t m = 0; m < alone.size(); ++m) {
    w.push_back(1.0 / alone[m]);
    text += (m ? ":" : "") + fixed(alone.back() / alone[m], 2);
  }
  group.set_weights(w);
  return text + ")";
}

}  // namespace

void check_group_cases(const std::vector<std::string>& cases) {
  for (const std::string& c : cases) parse_case(c);
}

bool run_group_scaling(const GroupScalingArgs& args, unsigned long long seed, std::ostream& out) {
  DeviceGroup group(args.group);
  std::unique_ptr<Context> reference = args.reference.empty() ? nullptr : std::make_unique<Context>(args.reference);
  const std::size_t p = group.size();
  out << "\ndevice group '" << args.group << "' (" << p << " members), wall clock around the calls and every member's "
      << "clFinish, median of " << args.reps << " runs; each member alone by the single-device call (CG: cg(), its "
      << "fused single-device form; heat: heat2d; N-body: nbody_step; training: SmallCnn::train_step on a batch in "
         "device memory, while the group's takes it from the host):\n"
      << group.describe();
  if (reference) out << "reference: " << reference->info().name << " alone\n";
  out << "\nstrong scaling (the same problem), ms per unit (CG iteration, step):\n"
      << "| case | each member alone | reference alone | group | weights | vs fastest member | efficiency | "
         "in exchange |\n|---|---|---|---|---|---|---|---|\n";
  for (const std::string& spec : args.cases) {
    const Case c = parse_case(spec);
    std::string each;
    double fastest = 1e300, rate = 0;
    std::vector<double> alone;
    for (std::size_t m = 0; m < p; ++m) {
      const double ms = alone_ms(group.context(m), c, args.reps, seed);
      alone.push_back(ms);
      each += (m ? " / " : "") + fixed(ms, 3);
      fastest = std::min(fastest, ms);
      rate += 1.0 / ms;
    }
    const std::string ref = reference ? fixed(alone_ms(*reference, c, args.reps, seed), 3) : "-";
    const std::string weights = weigh(group, alone);
    const GroupTiming g = group_ms(group, c, args.reps);
    // Efficiency: the summed rates of the members alone give the ideal.
    out << "| " << spec << " | " << each << " | " << ref << " | " << fixed(g.ms, 3) << " | " << weights << " | "
        << fixed(fastest / g.ms, 2) << "x | " << fixed(100.0 / (rate * g.ms), 0) << "% | "
        << fixed(100.0 * g.exchange_share, 1) << "% |\n";
  }
  out << "\nweak scaling (the work grows with the members: N becomes sqrt(p) N, as the work is N^2; a batch B becomes "
         "p B; a 3D FFT's N the smallest 2^a 3^b 5^c at least cbrt(p) N), "
         "member 0 alone at the case's size against the group, equal weights:\n"
      << "| case | member 0 alone | group | scaled case | efficiency | in exchange "
         "|\n|---|---|---|---|---|---|\n";
  bool alike = true;
  for (std::size_t m = 1; m < p; ++m) alike = alike && group.device(m).info().name == group.device(0).info().name;
  if (!alike) {
    out << "(not measured: the members are different devices, so a member's share of the work is not one "
           "device's problem; the strong-scaling table above holds the group's figures)\n";
    return true;
  }
  group.set_weights(std::vector<double>(p, 1.0));
  for (const std::string& spec : args.cases) {
    const Case c = parse_case(spec);
    const Case scaled = c.grown(p);
    const double one = alone_ms(group.context(0), c, args.reps, seed);
    const GroupTiming g = group_ms(group, scaled, args.reps);
    out << "| " << spec << " | " << fixed(one, 3) << " | " << fixed(g.ms, 3) << " | " << scaled.kind << ":" << scaled.n
        << " | " << fixed(100.0 * one / g.ms, 0) << "% | " << fixed(100.0 * g.exchange_share, 1) << "% |\n";
  }
  return true;
}

}  // namespace bench
