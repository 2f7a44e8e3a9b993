// SPDX-License-Identifier: Apache-2.0
#include "portacl/buffer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "portacl/error.hpp"
#include "portacl/context.hpp"

namespace portacl {

BufferStorage::BufferStorage(Context& ctx, std::size_t bytes, const char* what)
    : BufferStorage(ctx, bytes, preferred_memory_strategy(ctx.info()), what) {}

BufferStorage::BufferStorage(Context& ctx, std::size_t bytes, MemoryStrategy strategy, const char* what)
    : ctx_(&ctx), bytes_(bytes), strategy_(strategy), what_(what) {
  // OpenCL has no zero-byte buffers; an empty Buffer holds none and every
  // transfer on it is a no-op.
  if (bytes_ == 0) return;
  if (ctx.info().max_mem_alloc_size && bytes_ > ctx.info().max_mem_alloc_size)
    throw Error(what_ + " of " + std::to_string(bytes_) + " bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                std::to_string(ctx.info().max_mem_alloc_size) + ") of '" + ctx.info().name + "'");
  cl_mem_flags flags = CL_MEM_READ_WRITE;
  if (strategy_ == MemoryStrategy::map_host_memory) flags |= CL_MEM_ALLOC_HOST_PTR;
  cl_int err = CL_SUCCESS;
  buffer_ = cl::Buffer(ctx.cl_context(), flags, bytes_, nullptr, &err);
  check_cl(err, "clCreateBuffer(" + what_ + ", " + std::to_string(bytes_) + " bytes)");
}

std::size_t BufferStorage::size_of(const cl::Buffer& existing) {
  if (!existing()) throw Error("wrapping an OpenCL buffer: the cl_mem is null");
  std::size_t bytes = 0;
  check_cl(clGetMemObjectInfo(existing(), CL_MEM_SIZE, sizeof bytes, &bytes, nullptr),
           "clGetMemObjectInfo(CL_MEM_SIZE)");
  return bytes;
}

namespace {

// How a wrapped buffer's data moves: the device's preferred way, except that
// mapping pays only for memory the host can reach (allocated with
// CL_MEM_ALLOC_HOST_PTR or CL_MEM_USE_HOST_PTR); other memory is copied.
MemoryStrategy wrapped_strategy(const Context& ctx, cl_mem_flags flags) {
  const MemoryStrategy preferred = preferred_memory_strategy(ctx.info());
  if (preferred != MemoryStrategy::map_host_memory) return preferred;
  return flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_USE_HOST_PTR) ? preferred : MemoryStrategy::direct_copy;
}

cl_mem_flags flags_of(const cl::Buffer& existing) {
  cl_mem_flags flags = 0;
  if (existing())
    check_cl(clGetMemObjectInfo(existing(), CL_MEM_FLAGS, sizeof flags, &flags, nullptr),
             "clGetMemObjectInfo(CL_MEM_FLAGS)");
  return flags;
}

}  // namespace

BufferStorage::BufferStorage(Context& ctx, const cl::Buffer& existing, std::size_t bytes, const char* what)
    : ctx_(&ctx), bytes_(bytes), strategy_(wrapped_strategy(ctx, flags_of(existing))), what_(what) {
  const std::size_t holds = size_of(existing);
  cl_context owner = nullptr;
  check_cl(clGetMemObjectInfo(existing(), CL_MEM_CONTEXT, sizeof owner, &owner, nullptr),
           "clGetMemObjectInfo(CL_MEM_CONTEXT)");
  if (owner != ctx.cl_context()())
    throw Error("wrapping an OpenCL buffer as " + what_ + ": it belongs to another OpenCL context than the Context's");
  if (bytes > holds)
    throw Error("wrapping an OpenCL buffer as " + what_ + ": it holds " + std::to_string(holds) + " bytes, " +
                std::to_string(bytes) + " are needed");
  if (bytes_ > 0) buffer_ = existing;
}

void BufferStorage::check_count(std::size_t given, std::size_t have, const char* op) const {
  if (given != have)
    throw Error(what_ + "::" + op + ": " + std::to_string(given) + " elements given for a buffer of " +
                std::to_string(have));
}

// Pinned-staging transfers in chunks through two pinned halves, mapped once:
// the host copy of one chunk overlaps the DMA of the other, so a transfer
// runs at about the host copy's rate instead of the copy's and the DMA's
// added up, and the pinned memory a buffer holds is two chunks, not its
// size.
struct PinnedStaging {
  static constexpr std::size_t kChunk = std::size_t{4} << 20;
  PinnedStaging(Context& ctx, std::size_t bytes) : chunk(std::min(bytes, kChunk)), pinned(ctx, 2 * chunk) {}
  // Half h, once the transfer that last used it is done.
  unsigned char* half(int h) {
    if (busy[h]()) {
      check_cl(busy[h].wait(), "clWaitForEvents(pinned staging)");
      busy[h] = cl::Event();
    }
    return pinned.data() + h * chunk;
  }
  std::size_t chunk;
  HostBuffer<unsigned char> pinned;  // mapped once; unmapped after earlier transfers when it goes
  cl::Event busy[2];
};

PinnedStaging& BufferStorage::staging() const {
  if (!staging_) staging_ = std::make_shared<PinnedStaging>(*ctx_, bytes_);
  return *staging_;
}

namespace {

// Maps the first `bytes` of `buffer` (blocking), lets `copy` use the host
// pointer, and unmaps.
template <class Copy>
void through_map(cl::CommandQueue& q, const cl::Buffer& buffer, cl_map_flags flags, std::size_t bytes,
                 const std::string& what, Copy copy) {
  cl_int err = CL_SUCCESS;
  void* p = q.enqueueMapBuffer(buffer, CL_TRUE, flags, 0, bytes, nullptr, nullptr, &err);
  check_cl(err, "clEnqueueMapBuffer(" + what + ")");
  copy(p);
  check_cl(q.enqueueUnmapMemObject(buffer, p), "clEnqueueUnmapMemObject(" + what + ")");
}

}  // namespace

void BufferStorage::write_bytes(const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  auto& q = ctx_->queue();
  switch (strategy_) {
    case MemoryStrategy::direct_copy:
      check_cl(q.enqueueWriteBuffer(buffer_, CL_TRUE, 0, bytes, src), "clEnqueueWriteBuffer(" + what_ + ")");
      return;
    case MemoryStrategy::map_host_memory:
      through_map(q, buffer_, CL_MAP_WRITE_INVALIDATE_REGION, bytes, what_,
                  [&](void* p) { std::memcpy(p, src, bytes); });
      return;
    case MemoryStrategy::pinned_staging: {
      // Each chunk copied into a free half, then sent by DMA while the next
      // is copied. Waits for the last DMAs: an upload is complete when it
      // returns, as the other strategies' are (work on another queue may
      // read the buffer next).
      PinnedStaging& s = staging();
      const auto* from = static_cast<const unsigned char*>(src);
      for (std::size_t at = 0, k = 0; at < bytes; at += s.chunk, ++k) {
        const std::size_t len = std::min(s.chunk, bytes - at);
        unsigned char* half = s.half(int(k % 2));
        std::memcpy(half, from + at, len);
        check_cl(q.enqueueWriteBuffer(buffer_, CL_FALSE, at, len, half, nullptr, &s.busy[k % 2]),
                 "clEnqueueWriteBuffer(" + what_ + " from pinned staging)");
      }
      s.half(0);
      s.half(1);
      return;
    }
  }
}

void BufferStorage::read_bytes(void* dst, std::size_t bytes) const {
  if (bytes == 0) return;
  auto& q = ctx_->queue();
  switch (strategy_) {
    case MemoryStrategy::direct_copy:
      check_cl(q.enqueueReadBuffer(buffer_, CL_TRUE, 0, bytes, dst), "clEnqueueReadBuffer(" + what_ + ")");
      return;
    case MemoryStrategy::map_host_memory:
      through_map(q, buffer_, CL_MAP_READ, bytes, what_, [&](void* p) { std::memcpy(dst, p, bytes); });
      check_cl(q.finish(), "clFinish");
      return;
    case MemoryStrategy::pinned_staging: {
      // The DMA of the next chunk into one half runs while the host copies
      // the last one out of the other.
      PinnedStaging& s = staging();
      auto* to = static_cast<unsigned char*>(dst);
      const std::size_t chunks = (bytes + s.chunk - 1) / s.chunk;
      auto fetch = [&](std::size_t k) {
        const std::size_t at = k * s.chunk;
        check_cl(q.enqueueReadBuffer(buffer_, CL_FALSE, at, std::min(s.chunk, bytes - at), s.half(int(k % 2)), nullptr,
                                     &s.busy[k % 2]),
                 "clEnqueueReadBuffer(" + what_ + " into pinned staging)");
      };
      fetch(0);
      for (std::size_t k = 0; k < chunks; ++k) {
        if (k + 1 < chunks) fetch(k + 1);
        const std::size_t at = k * s.chunk;
        std::memcpy(to + at, s.half(int(k % 2)), std::min(s.chunk, bytes - at));
      }
      return;
    }
  }
}

namespace {

void same_context(const Context& mine, const HostBufferStorage& host, const std::string& what, const char* op) {
  if (&host.context() != &mine)
    throw Error(what + "::" + op +
                ": the HostBuffer belongs to another Context (its memory is pinned for that "
                "context's device, and another context's transfers would treat it as pageable)");
}

}  // namespace

void BufferStorage::write_pinned(const HostBufferStorage& src, const void* data, std::size_t bytes) {
  same_context(*ctx_, src, what_, "upload");
  if (bytes == 0) return;
  if (strategy_ == MemoryStrategy::map_host_memory) return write_bytes(data, bytes);  // zero copy stays zero copy
  check_cl(ctx_->queue().enqueueWriteBuffer(buffer_, CL_TRUE, 0, bytes, data),
           "clEnqueueWriteBuffer(" + what_ + " from pinned host memory)");
}

void BufferStorage::read_pinned(HostBufferStorage& dst, void* data, std::size_t bytes) const {
  same_context(*ctx_, dst, what_, "download");
  if (bytes == 0) return;
  if (strategy_ == MemoryStrategy::map_host_memory) return read_bytes(data, bytes);
  check_cl(ctx_->queue().enqueueReadBuffer(buffer_, CL_TRUE, 0, bytes, data),
           "clEnqueueReadBuffer(" + what_ + " into pinned host memory)");
}

void* BufferStorage::map_bytes(cl_map_flags flags) const {
  if (bytes_ == 0) return nullptr;
  cl_int err = CL_SUCCESS;
  void* p = ctx_->queue().enqueueMapBuffer(buffer_, CL_TRUE, flags, 0, bytes_, nullptr, nullptr, &err);
  check_cl(err, "clEnqueueMapBuffer(" + what_ + ")");
  return p;
}

void BufferStorage::unmap_bytes(void* ptr) const {
  if (!ptr) return;
  // Called from a destructor: report, never throw.
  cl_int err = ctx_->queue().enqueueUnmapMemObject(buffer_, ptr);
  if (err == CL_SUCCESS) err = ctx_->queue().finish();
  if (err != CL_SUCCESS)
    std::fprintf(stderr, "portacl: unmapping %s failed: %s\n", what_.c_str(), cl_error_name(err).c_str());
}

}  // namespace portacl
