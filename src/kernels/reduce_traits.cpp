// SPDX-License-Identifier: Apache-2.0
// The reduction family's descriptor: what the planner knows of its kernels
// (local state, partial combining, the knobs it tunes). No launch code here.
#include "kernels/reduce_tunables.hpp"

namespace portacl {

KernelTraits reduce_traits(const std::string& kernel, ElementType element, unsigned inputs, std::size_t state_bytes,
                           bool vectorizable, double flops) {
  KernelTraits t;
  t.name = kernel;
  t.element = element;
  t.dimensions = 1;
  t.benefits_from_local_tiling = true;  // work-group combine in local memory
  t.needs_barriers = true;
  t.has_barrier_free_variant = true;  // per-work-item partials
  t.combines_partials = true;
  t.vectorizable = vectorizable;
  t.bytes_per_item = inputs * static_cast<double>(size_of(element));
  t.flops_per_item = flops;
  t.local_bytes_per_work_item = state_bytes;
  t.tunables = &reduce_tunables();
  return t;
}

const TuningSpace& reduce_tunables() {
  static const TuningSpace space{{knobs::work_group_size(), knobs::vector_width(), knobs::groups_per_compute_unit(),
                                  knobs::use_local_memory(), knobs::passes()},
                                 nullptr};
  return space;
}

}  // namespace portacl
