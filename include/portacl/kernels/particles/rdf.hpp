// SPDX-License-Identifier: Apache-2.0
/// \file
/// The radial distribution function of particles in a periodic box: every
/// pair's minimum-image distance counted into `shells` shells of equal
/// width up to r_max (pairs at r_max or beyond are dropped), and
/// g(r) = count / (N (N - 1) / 2 x shell volume / box volume): 1 for an
/// ideal gas. g is only meaningful up to half the shortest box length;
/// beyond it a shell is not whole inside the minimum image. The counting
/// follows the histogram's rules (local-memory bins on GPUs, per-work-item
/// rows on CPUs).
///
/// Errors, before any launch: r_max not above 0 or not finite, no shells
/// or more than 2^20, more than 92681 particles (pair counts are 32-bit),
/// positions that are not 4 floats a particle, a box length not above 0;
/// on the device, before the count: a position that is not finite or lies
/// outside [-2L, 3L) (neighbours.hpp says why).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "portacl/kernels/particles/neighbours.hpp"

namespace portacl {

/// The most particles radial_distribution takes: N (N - 1) / 2 pairs must
/// count in 32 bits.
constexpr std::size_t kRdfMostParticles = 92681;

struct RdfOptions {
  float r_max = 0;
  std::size_t shells = 100;
  PlanOptions plan;
};

struct RadialDistribution {
  std::vector<std::uint32_t> counts;  ///< pairs a shell
  std::vector<double> r;              ///< shell centres
  std::vector<double> g;              ///< g(r) a shell
  LaunchPlan plan;                    ///< the counting launch's plan
};

RadialDistribution radial_distribution(Context& ctx, const Buffer<float>& positions, const PeriodicBox& box,
                                       const RdfOptions& options);

}  // namespace portacl
