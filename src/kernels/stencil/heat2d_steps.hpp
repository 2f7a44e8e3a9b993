// SPDX-License-Identifier: Apache-2.0
// heat2d's steps with the caller's second grid. The steps swap the two
// grids, so the result ends in either; heat2d copies it back into `u`, but
// a caller that keeps both grids (a heat slab stepped k steps at a time)
// swaps its names instead: no allocation of a whole second grid and no
// copy of it every k steps.
#pragma once

#include <cstddef>

#include "portacl/stencil.hpp"

namespace portacl {

template <class T>
struct HeatStepsDone {
  Buffer<T>* result;  ///< `u` or `scratch`: where the last step wrote
  LaunchPlan plan;
};

/// heat2d's checks and steps on `u`, with `scratch` (rows x cols elements,
/// same context) as the other grid; its contents are overwritten.
template <class T>
HeatStepsDone<T> heat2d_steps(Context& ctx, Buffer<T>& u, Buffer<T>& scratch, std::size_t rows, std::size_t cols,
                              const HeatOptions<T>& options);

}  // namespace portacl
