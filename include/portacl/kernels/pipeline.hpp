// SPDX-License-Identifier: Apache-2.0
/// \file
/// Streaming over host memory in chunks, overlapping upload, kernel and
/// download on several in-order queues joined by events (003 11.4-11.5).
/// The host arrays stay the caller's. Staging each chunk through pinned
/// memory is optional: on the H100 the extra host memcpy cost more than the
/// faster DMA gained (docs/benchmarks.md), so pageable transfers are the
/// default.
/// The result is bit for bit that of upload + kernel + download.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "portacl/kernels/element.hpp"
#include "portacl/runtime/context.hpp"
#include "portacl/runtime/host_buffer.hpp"

namespace portacl {

struct PipelineOptions {
  std::size_t chunk_elements = 0;  ///< 0: n / (4 * queues), at least 2^18
  unsigned queues = 2;             ///< 1 runs the same steps without overlap
  /// Stage through pinned host memory (unset: no).
  std::optional<bool> pinned_staging;
};

struct PipelineReport {
  std::size_t chunks = 0;
  std::size_t chunk_elements = 0;
  unsigned queues = 0;
  bool pinned_staging = false;  ///< chunks went through pinned host memory
  double wall_ms = 0;           ///< enqueue of the first chunk to the last result in y
};

/// y = a*x + y over n host elements.
template <class T, class = only_for<T, float, double>>
PipelineReport axpy_pipelined(Context& ctx, T a, const T* x, T* y, std::size_t n, const PipelineOptions& options = {});
/// The same over pinned host memory (HostBuffer): every chunk moves by DMA
/// straight from and into the caller's memory, with no staging copy (the
/// options' pinned_staging is not used). Throws portacl::Error when x and y
/// differ in size or belong to another Context.
template <class T, class = only_for<T, float, double>>
PipelineReport axpy_pipelined(Context& ctx, T a, const HostBuffer<T>& x, HostBuffer<T>& y,
                              const PipelineOptions& options = {});
/// y = expression(x) over n host elements (see map in stream.hpp).
template <class T, class = only_for<T, float, double>>
PipelineReport map_pipelined(Context& ctx, const std::string& expression, const T* x, T* y, std::size_t n,
                             const PipelineOptions& options = {});

}  // namespace portacl
