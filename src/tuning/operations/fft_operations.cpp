// SPDX-License-Identifier: Apache-2.0
// The FFT family's operation (the tuner's, the first-use check's and the
// bench's operation tables: batched C2C transforms of 1024 points over the
// workload's values, one read and one write of each, VkFFT's measure) and
// its bench section (portacl-bench --ffts): batched 1D, 2D and 3D C2C and
// 1D and 2D R2C transforms, beside the library the device's users would call where
// portacl-bench has it (FFTW on a CPU device, tools/portacl-bench).
#include <algorithm>
#include <cmath>

#include "../family.hpp"
#include "../fft_cases.hpp"
#include "kernels/fft_tunables.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

// The workload's values as complex pairs, in transforms of `longest` (of
// fewer where the workload holds fewer).
struct FftWork {
  FftWork(Workload& w, std::size_t longest, Options o)
      : length(std::max<std::size_t>(1, std::min(longest, w.n / 2))),
        batch(std::max<std::size_t>(1, w.n / 2 / length)),
        plan(w.ctx, {length}, FftOptions{FftKind::c2c, batch, {}, {}, o}),
        first(plan.plans().front()) {}
  std::size_t length, batch;
  Fft plan;
  LaunchPlan first;  // the forward's first launch, returned by every run
};

Operation fft_operation(std::size_t length) {
  auto work = [length](Workload& w, Options o) -> FftWork& {
    auto& slot = w.derived["fft." + std::to_string(length) + "." + std::to_string(o.leaves_plan_to_device())];
    // A tuner's candidate plans anew; the rules' plan is kept.
    if (!slot || !o.leaves_plan_to_device()) slot = std::make_shared<FftWork>(w, length, o);
    return *std::static_pointer_cast<FftWork>(slot);
  };
  auto run = [work](Workload& w, Options o) {
    FftWork& f = work(w, o);
    f.plan.forward(w.x, w.z);
    return f.first;
  };
  auto check = [run, work](Workload& w, Options o) {
    w.poison_z();
    run(w, o);
    const std::vector<float> z = w.z.download();
    const std::size_t batch = work(w, o).batch, length = work(w, o).length, shown = std::min<std::size_t>(batch, 3);
    std::vector<reference::cplx> x(shown * length), got(shown * length);
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = {w.hx[2 * i], w.hx[2 * i + 1]};
      got[i] = {z[2 * i], z[2 * i + 1]};
    }
    const double error = reference::fft_relative_error(got, reference::fftn(x, {length}, shown, -1));
    const double bound = reference::fft_error_bound(length, std::ldexp(1.0, -24)) +
                         reference::fft_error_bound(length, std::ldexp(1.0, -53));
    return error <= bound ? std::string()
                          : "relative error " + std::to_string(error) + " above the bound " + std::to_string(bound);
  };
  const double flops = 5.0 * std::log2(double(length)) / 2;  // 5 n log2 n a transform, per real
  return Operation{"fft c2c " + std::to_string(length), 8, flops, &fft_tunables(), run, check};
}

std::vector<Operation> fft_operations() { return {fft_operation(1024)}; }

CaseForms fft_cases() {
  return {"--ffts",
          {{"c2c", {{"N"}, {"BATCH"}}, "BATCH complex transforms of N points, float"},
           {"r2c", {{"N"}, {"BATCH"}}, "BATCH real-to-complex transforms of N points, float"},
           {"c2c2d", {{"N0"}, {"N1"}}, "a complex 2D transform of N0 x N1, float"},
           {"c2c3d", {{"N0"}, {"N1"}, {"N2"}}, "a complex 3D transform of N0 x N1 x N2, float"},
           {"r2c2d", {{"N0"}, {"N1"}}, "a real-to-complex 2D transform of N0 x N1, float"}}};
}

std::vector<BenchCase> fft_bench_cases(Context& ctx, const CaseSpec& spec, unsigned long long seed) {
  std::vector<std::size_t> shape;
  std::size_t batch = 1;
  FftKind kind = spec.kind.compare(0, 3, "r2c") == 0 ? FftKind::r2c : FftKind::c2c;
  if (spec.kind == "c2c" || spec.kind == "r2c") {
    shape = {spec.values[0]};
    batch = spec.values[1];
  } else {
    shape = spec.values;
  }
  auto s = std::make_shared<FftBench>(ctx, shape, batch, kind, seed);
  const double points = double(s->points());
  // One read and one write of every complex value (R2C: of the reals and
  // the half spectrum), 5 n log2 n flops a complex transform (2.5 for R2C).
  const double in_bytes = kind == FftKind::r2c ? 4 * points : 8 * points;
  const double out_bytes = 8.0 * double(s->plan.elements().output / 2);
  const double flops = (kind == FftKind::r2c ? 2.5 : 5.0) * points * std::log2(points / double(batch));
  std::string label = std::string(kind == FftKind::r2c ? "r2c" : "c2c");
  for (std::size_t k = 0; k < shape.size(); ++k) label += (k ? "x" : " ") + std::to_string(shape[k]);
  if (batch > 1) label += " x" + std::to_string(batch);
  BenchCase c{label, "float", in_bytes + out_bytes, flops, points};
  c.state = s;
  c.size = shape.front();
  BenchVariant rules{"rules",
                     [s, seed] {
                       s->out.upload(std::vector<float>(s->out.size(), std::nanf("")));
                       s->plan.forward(s->in, s->out);
                       s->checked = s->out.download();
                       return s->check(s->checked, seed + 1);
                     },
                     [s] {
                       s->plan.forward(s->in, s->out);
                       return s->first;
                     }};
  rules.error = [s] { return s->relative_rms(s->checked); };
  rules.describe = [s](const LaunchPlan&) {
    return std::to_string(s->launches) + (s->launches == 1 ? " launch" : " launches");
  };
  c.variants.push_back(std::move(rules));
  return {std::move(c)};
}

const FamilyRegistration fft_family(
    {"fft",
     37,
     fft_operations,
     fft_cases,
     fft_bench_cases,
     {{"fft3d", {{"N"}}, "a 3D C2C transform of N^3 (float) in slabs, forward, per transform"}}});

}  // namespace
}  // namespace portacl
