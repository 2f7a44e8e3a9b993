// SPDX-License-Identifier: Apache-2.0
// The cases of the scaling sections (portacl-bench --group, portacl-bench-mpi):
// their names, their inputs, the work a timed run does, and one device's
// time on a case by the single-device call, which every split run is
// measured against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "portacl/portacl.hpp"

namespace bench {

struct ScalingCase {
  std::string kind;  // cg, spmv, heat, nbody, train, fft3d
  std::size_t n = 0;
  std::string spec() const { return kind + ":" + std::to_string(n); }
  // The case with its work grown p times (every case's work is N^2, but
  // training's is linear in its batch).
  ScalingCase grown(std::size_t p) const;
};

// The case forms, for usage texts: a line each.
const std::string& scaling_forms_text();
// Parsed by the benches' one case parser (tuning/case_specs.hpp): throws
// std::invalid_argument naming `option` and a malformed case.
ScalingCase parse_scaling_case(const std::string& spec, const std::string& option);
// Work units a timed run does: CG iterations, heat steps, N-body or training steps, 3D FFTs.
std::size_t scaling_units(const ScalingCase& c);
// N bodies in the unit cube, mass 1/N each, from `seed`.
std::vector<float> scaling_bodies(std::size_t n, std::uint64_t seed);
// An fft3d:N case's N^3 complex values (2 N^3 floats) from `seed`.
std::vector<float> scaling_fft3d_values(std::size_t n, std::uint64_t seed);
// The network a train:B case trains: 3 x 32 x 32 images, 16 filters, 10 classes.
portacl::SmallCnnShape scaling_network();
// Each case's options, the same for every form timed: CG runs exactly k
// iterations (tolerance 0), heat k steps at r = 0.2, N-body softening 0.01.
portacl::SolverOptions scaling_cg_options(std::size_t k);
portacl::HeatOptions<float> scaling_heat_options(std::size_t k);
portacl::NbodyOptions scaling_nbody_options();
portacl::SgdOptions scaling_sgd_options();
// B images and labels from `seed`.
void scaling_batch(std::size_t batch, std::uint64_t seed, std::vector<float>& images, std::vector<int>& labels);
// Milliseconds per unit on one device by the single-device call (CG: cg(),
// its fused form; heat: heat2d; N-body: nbody_step; training:
// SmallCnn::train_step), wall clock around the calls and clFinish, median.
double alone_ms(portacl::Context& ctx, const ScalingCase& c, int reps, std::uint64_t seed);

// A split run of a case (a device group's, or the MPI ranks'): the work one
// timed run does, and the seconds its exchanges have taken so far.
struct ScalingRun {
  std::function<void()> run;
  std::function<double()> exchanging;
};
// `work` on `object`, whose exchanges its exchange_seconds() counts.
template <class Object, class Work>
ScalingRun scaling_run(std::shared_ptr<Object> object, Work work) {
  return {[object, work] { work(*object); }, [object] { return object->exchange_seconds(); }};
}
// k heat steps (scaling_heat_options), k leapfrog steps of 1e-4, k products
// of a split matrix (`multiply(a, x, y)` is the setting's y = A x).
template <class Heat>
ScalingRun heat_run(std::shared_ptr<Heat> heat, std::size_t k) {
  return scaling_run(heat, [k](Heat& h) { h.advance(scaling_heat_options(k)); });
}
template <class Nbody>
ScalingRun nbody_run(std::shared_ptr<Nbody> nbody, std::size_t k) {
  return scaling_run(nbody, [k](Nbody& n) {
    for (std::size_t s = 0; s < k; ++s) n.step(1e-4f);
  });
}
std::string fixed(double v, int digits);

}  // namespace bench
