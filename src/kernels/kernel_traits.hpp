// SPDX-License-Identifier: Apache-2.0
// A kernel's traits (what the rules plan it from) in one call: its name,
// element, dimensions, what it is (flags), its cost per item and its
// tuning declaration. The families' *_traits functions are written with it.
#pragma once

#include <string>
#include <utility>

#include "portacl/plan.hpp"

namespace portacl {
namespace traits {

/// What a kernel is, or-ed together (KernelTraits' fields, whose defaults
/// are: no local tiling, no barriers, a barrier-free variant, vectorizable).
enum Flag : unsigned {
  local_tiling = 1u << 0,       ///< benefits_from_local_tiling
  barriers = 1u << 1,           ///< needs_barriers
  barriers_only = 1u << 2,      ///< no barrier-free variant
  scalar = 1u << 3,             ///< not vectorizable (no VW macro)
  scalar_on_simt = 1u << 4,     ///< vectors only serve SIMD CPUs
  combines_partials = 1u << 5,  ///< work-groups' partials are combined
};

/// Global-memory bytes and flops per item, and local memory a work-item
/// of the tiled variant takes.
struct Cost {
  double bytes = 0, flops = 0;
  std::size_t local_bytes = 0;
};

}  // namespace traits

inline KernelTraits kernel_traits(std::string name, ElementType element, unsigned dimensions, unsigned flags,
                                  traits::Cost cost, const TuningSpace* tunables = nullptr) {
  KernelTraits t;
  t.name = std::move(name);
  t.element = element;
  t.dimensions = dimensions;
  t.benefits_from_local_tiling = flags & traits::local_tiling;
  t.needs_barriers = flags & traits::barriers;
  t.has_barrier_free_variant = !(flags & traits::barriers_only);
  t.vectorizable = !(flags & traits::scalar);
  t.scalar_on_simt = flags & traits::scalar_on_simt;
  t.combines_partials = flags & traits::combines_partials;
  t.bytes_per_item = cost.bytes;
  t.flops_per_item = cost.flops;
  t.local_bytes_per_work_item = cost.local_bytes;
  t.tunables = tunables;
  return t;
}

}  // namespace portacl
