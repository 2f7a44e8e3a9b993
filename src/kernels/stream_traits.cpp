// SPDX-License-Identifier: Apache-2.0
// The streaming family's descriptor: what the planner knows of its kernels
// (bytes and flops an item, the knobs it tunes). No launch code here: the
// rules and tools plan a stream kernel from this file alone.
#include "kernels/stream_tunables.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

KernelTraits stream_traits(const std::string& kernel, ElementType element, unsigned arrays, double flops) {
  return kernel_traits(kernel, element, 1, 0u, {arrays * static_cast<double>(size_of(element)), flops},
                       &stream_tunables());
}

const TuningSpace& stream_tunables() {
  static const TuningSpace space{{knobs::work_group_size(), knobs::vector_width(), knobs::groups_per_compute_unit()},
                                 nullptr};
  return space;
}

KernelTraits axpy_traits(ElementType element) { return stream_traits("axpy", element, 3, 2); }

}  // namespace portacl
