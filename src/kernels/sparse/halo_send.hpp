// SPDX-License-Identifier: Apache-2.0
// What a row block sends of its part of x on every product: the entries
// its send index names, read into pinned host memory on the context's
// second queue while the first goes on with the interior product. A banded
// matrix cut by rows sends its block's first and last rows: where the index
// is a few contiguous runs, each run is read straight from x; otherwise a
// gather launch packs the entries first and one read takes them. Used by
// the device groups' exchange and the MPI ranks' product alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"

namespace portacl {

/// More runs than this are packed by a gather: each run is a read command.
constexpr std::size_t kMaxDirectSendRuns = 8;

template <class T>
class HaloSend {
 public:
  /// `index`: local indices into x, in the order they are sent.
  HaloSend(Context& ctx, const std::vector<std::uint32_t>& index, std::string what);
  /// Starts reading x's entries into host(), after everything enqueued on
  /// the context's queue so far; returns at once.
  void post(const Buffer<T>& x);
  /// Waits for post's reads.
  void wait();
  const T* host() const { return host_.data(); }
  std::size_t size() const { return host_.size(); }
  /// Whether the entries are read run by run (no gather launch).
  bool direct() const { return !runs_.empty() || host_.size() == 0; }

 private:
  struct Run {
    std::size_t at = 0, from = 0, count = 0;  // host offset, x offset, entries
  };
  Context* ctx_;
  std::string what_;
  std::vector<Run> runs_;  // empty: gathered
  Buffer<std::uint32_t> index_;
  Buffer<T> packed_;
  HostBuffer<T> host_;
  cl::Event read_;
};

}  // namespace portacl
