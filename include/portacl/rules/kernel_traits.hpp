// SPDX-License-Identifier: Apache-2.0
/// \file
/// What a kernel is, as far as the mapping rules care: the rules decide from
/// these traits and the device, never from the kernel's name.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "portacl/device/device_info.hpp"

namespace portacl {

struct TuningSpace;

struct KernelTraits {
  std::string name;  ///< for explanations and tuning keys
  /// What the tuner may change (the family's declaration): tuned records
  /// are validated against it before they reach a plan.
  const TuningSpace* tunables = nullptr;
  ElementType element = ElementType::f32;
  unsigned dimensions = 1;                  ///< 1, 2 or 3
  bool benefits_from_local_tiling = false;  ///< has a local-memory variant worth using on GPUs
  bool needs_barriers = false;              ///< the local/tiled variant synchronises work-groups
  bool has_barrier_free_variant = true;     ///< a variant without barriers exists (CPU rule)
  bool vectorizable = true;                 ///< the .cl source takes a VW macro
  /// Its vectors only help SIMD CPUs: on SIMT GPUs neighbouring work-items
  /// already read neighbouring elements, and vectors would only leave fewer
  /// work-items (GEMV over contiguous columns: 73% of copy with float4 on
  /// the H100, 88% with floats).
  bool scalar_on_simt = false;
  double bytes_per_item = 0;  ///< global-memory traffic per element
  double flops_per_item = 0;
  /// Local memory the tiled variant needs per work-item, in bytes; the rules
  /// check it against the device's local memory.
  std::size_t local_bytes_per_work_item = 0;
  /// A reduction or scan: the work-groups' partial results must be combined,
  /// so the planner also picks single- or two-pass and sub-group operations.
  bool combines_partials = false;
  /// How far, in powers of two of the problem size, a tuned record stands
  /// in for sizes it was not measured at (rule tuning.nearby-bucket); the
  /// stencil family keeps its records to sizes within 2x.
  int tuned_size_reach = 6;

  /// Memory-bound below one flop per byte (every device here does tens of
  /// flops per byte of bandwidth): such kernels want wide loads even on SIMT
  /// GPUs (16-byte transactions). A sum (1 flop per 4 bytes) is one.
  bool memory_bound() const { return bytes_per_item >= flops_per_item && bytes_per_item > 0; }
};

/// Extent of the problem in elements per dimension (unused dimensions are 1).
struct ProblemSize {
  std::array<std::size_t, 3> extent{{0, 1, 1}};

  ProblemSize() = default;
  explicit ProblemSize(std::size_t n) : extent{{n, 1, 1}} {}
  ProblemSize(std::size_t x, std::size_t y, std::size_t z = 1) : extent{{x, y, z}} {}

  std::size_t elements() const { return extent[0] * extent[1] * extent[2]; }
};

}  // namespace portacl
