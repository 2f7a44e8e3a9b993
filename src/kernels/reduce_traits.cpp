// SPDX-License-Identifier: Apache-2.0
// The reduction family's descriptor: what the planner knows of its kernels
// (local state, partial combining, the knobs it tunes). No launch code here.
#include "kernels/reduce_tunables.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

KernelTraits reduce_traits(const std::string& kernel, ElementType element, unsigned inputs, std::size_t state_bytes,
                           bool vectorizable, double flops) {
  // Work-groups combine in local memory; per-work-item partials need no barrier.
  return kernel_traits(
      kernel, element, 1,
      traits::local_tiling | traits::barriers | traits::combines_partials | (vectorizable ? 0u : traits::scalar),
      {inputs * static_cast<double>(size_of(element)), flops, state_bytes}, &reduce_tunables());
}

const TuningSpace& reduce_tunables() {
  static const TuningSpace space{{knobs::work_group_size(), knobs::vector_width(), knobs::groups_per_compute_unit(),
                                  knobs::use_local_memory(), knobs::passes()},
                                 nullptr};
  return space;
}

}  // namespace portacl
