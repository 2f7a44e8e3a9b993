// SPDX-License-Identifier: Apache-2.0
// The traits of the particle kernels that take one particle per work-item
// without local memory or vectors (neighbour searches, pair forces over a
// list): only the work-group size is theirs to tune. Tuner plumbing, not
// user API: never installed.
#pragma once

#include "portacl/rules/kernel_traits.hpp"
#include "rules/tuning_space.hpp"

namespace portacl {

/// `name` (the tuning key), `element` (float unless given),
/// `bytes_per_item` of memory traffic a particle; tunable: the work-group
/// size.
inline KernelTraits particle_pass_traits(const char* name, double bytes_per_item,
                                         ElementType element = ElementType::f32) {
  KernelTraits t;
  t.name = name;
  t.element = element;
  t.dimensions = 1;
  t.vectorizable = false;
  t.bytes_per_item = bytes_per_item;
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256, 512})}, nullptr};
  t.tunables = &space;
  return t;
}

}  // namespace portacl
