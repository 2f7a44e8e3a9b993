// SPDX-License-Identifier: Apache-2.0
// What every kernel of the stencil family declares alike: a 2D launch, a
// local-memory tile with barriers, and a barrier-free cache-reliant
// variant. Each kernel gives its name, traffic, work and tile size.
#pragma once

#include <string>

#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

inline KernelTraits stencil_family_traits(std::string name, ElementType element, double bytes_per_item,
                                          double flops_per_item, std::size_t local_bytes_per_work_item,
                                          const TuningSpace& tunables) {
  // has_barrier_free_variant: the cache-reliant variant
  // Their best shapes depend on how many work-groups the grid makes (the
  // star's 256^3 record ran 22% slower than the rules at 512^3 on the H100).
  KernelTraits t = kernel_traits(std::move(name), element, 2, traits::local_tiling | traits::barriers | traits::scalar,
                                 {bytes_per_item, flops_per_item, local_bytes_per_work_item}, &tunables);
  t.tuned_size_reach = 1;
  return t;
}

}  // namespace portacl
