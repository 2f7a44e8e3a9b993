// SPDX-License-Identifier: Apache-2.0
/// \file
/// Device memory: typed buffers, pinned host buffers, and values that stay
/// on the device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "portacl/cl.hpp"
#include "portacl/context.hpp"
#include "portacl/error.hpp"
#include "portacl/plan.hpp"

// ---- host buffer -------------------------------------------------------------
/// Page-locked ("pinned") host memory: what a GPU reaches at full bus speed
/// by DMA. Pageable memory (a std::vector) is copied by the driver through
/// a pinned bounce buffer first, at a fraction of the bus's rate. OpenCL has
/// no call that allocates pinned memory; NVIDIA's documented way, which
/// other vendors honour too, is a buffer made with CL_MEM_ALLOC_HOST_PTR and
/// mapped: a HostBuffer is such a buffer, mapped once for its whole life.
/// Use it like an array, and as the source of Buffer<T>::upload and the
/// target of Buffer<T>::download (no staging copy) and of the pipelines.
namespace portacl {

class Context;

/// The untyped part, compiled once in the library.
class HostBufferStorage {
 public:
  /// `bytes` of pinned memory in ctx's context; `what` names it in errors.
  HostBufferStorage(Context& ctx, std::size_t bytes, const char* what);
  ~HostBufferStorage();
  /// Takes other's memory; other is left empty.
  HostBufferStorage(HostBufferStorage&& other) noexcept;
  /// Frees this memory and takes other's; other is left empty.
  HostBufferStorage& operator=(HostBufferStorage&& other) noexcept;
  HostBufferStorage(const HostBufferStorage&) = delete;
  HostBufferStorage& operator=(const HostBufferStorage&) = delete;
  std::size_t bytes() const { return bytes_; }  ///< its size
  Context& context() const { return *ctx_; }    ///< whose context's memory it is

 protected:
  void* bytes_data() const { return data_; }  ///< the mapping's first byte

 private:
  void release() noexcept;
  Context* ctx_;
  std::size_t bytes_;
  std::string what_;
  cl::Buffer pinned_;     ///< CL_MEM_ALLOC_HOST_PTR; null when bytes_ == 0
  void* data_ = nullptr;  ///< its mapping, for the HostBuffer's life
};

/// n elements of T in pinned host memory of ctx's OpenCL context; the
/// contents start undefined, as a new std::vector's capacity would.
template <class T>
class HostBuffer : public HostBufferStorage {
 public:
  /// n elements, contents undefined; throws where n elements overflow the address space.
  HostBuffer(Context& ctx, std::size_t n) : HostBufferStorage(ctx, bytes_of<T>(n, type_label()), type_label()), n_(n) {}
  /// Takes other's memory; other is left empty.
  HostBuffer(HostBuffer&& other) noexcept : HostBufferStorage(std::move(other)), n_(other.n_) { other.n_ = 0; }
  /// Frees this memory and takes other's; other is left empty.
  HostBuffer& operator=(HostBuffer&& other) noexcept {
    HostBufferStorage::operator=(std::move(other));
    n_ = other.n_;
    other.n_ = 0;
    return *this;
  }
  std::size_t size() const { return n_; }                                ///< elements
  T* data() { return static_cast<T*>(bytes_data()); }                    ///< the first element
  const T* data() const { return static_cast<const T*>(bytes_data()); }  ///< the first element
  T& operator[](std::size_t i) { return data()[i]; }                     ///< element i, unchecked
  const T& operator[](std::size_t i) const { return data()[i]; }         ///< element i, unchecked
  T* begin() { return data(); }                                          ///< as std::vector's
  T* end() { return data() + n_; }                                       ///< as std::vector's
  const T* begin() const { return data(); }                              ///< as std::vector's
  const T* end() const { return data() + n_; }                           ///< as std::vector's

 private:
  static const char* type_label() {
    if (typeid(T) == typeid(float)) return "HostBuffer<float>";
    if (typeid(T) == typeid(double)) return "HostBuffer<double>";
    return "HostBuffer";
  }
  std::size_t n_;
};

}  // namespace portacl

// ---- buffer ------------------------------------------------------------------
/// Typed device buffers. How data moves (map, pinned staging, plain copy) is
/// the plan's memory rule for the device unless the caller says otherwise.
namespace portacl {

class Context;

/// The untyped part, compiled once in the library.
class BufferStorage {
 public:
  /// `bytes` of device memory in ctx's context, moved by `strategy`; `what` names it in errors.
  BufferStorage(Context& ctx, std::size_t bytes, MemoryStrategy strategy, const char* what);
  BufferStorage(Context& ctx, std::size_t bytes, const char* what);  ///< the device's preferred strategy
  /// Memory the program made itself: `bytes` of `existing` (retained, not
  /// copied), which must belong to ctx's OpenCL context and be that large.
  BufferStorage(Context& ctx, const cl::Buffer& existing, std::size_t bytes, const char* what);
  /// The bytes `existing` holds (CL_MEM_SIZE).
  static std::size_t size_of(const cl::Buffer& existing);

  std::size_t bytes() const { return bytes_; }             ///< its size
  MemoryStrategy strategy() const { return strategy_; }    ///< how data moves to and from it
  Context& context() const { return *ctx_; }               ///< whose context's memory it is
  const cl::Buffer& cl_buffer() const { return buffer_; }  ///< the OpenCL buffer (null when empty)

 protected:
  /// The first `bytes` from host memory `src`, by the strategy; returns once done.
  void write_bytes(const void* src, std::size_t bytes);
  /// The first `bytes` into host memory `dst`, by the strategy; returns once done.
  void read_bytes(void* dst, std::size_t bytes) const;
  /// From or into pinned host memory of this context: straight to the
  /// device by DMA (no staging copy); where the buffer itself lives in host
  /// memory (mapping), by a copy through the map as before.
  void write_pinned(const HostBufferStorage& src, const void* data, std::size_t bytes);
  /// As write_pinned, the other way.
  void read_pinned(HostBufferStorage& dst, void* data, std::size_t bytes) const;
  void* map_bytes(cl_map_flags flags) const;  ///< the whole buffer mapped (blocking)
  void unmap_bytes(void* ptr) const;          ///< undoes map_bytes
  /// Throws portacl::Error "Buffer<float>::upload: 3 elements given for a buffer of 4" unless equal.
  void check_count(std::size_t given, std::size_t have, const char* op) const;

 private:
  struct PinnedStaging& staging() const;

  Context* ctx_;
  std::size_t bytes_;
  MemoryStrategy strategy_;
  std::string what_;   ///< "Buffer<float>" for messages
  cl::Buffer buffer_;  ///< null when bytes_ == 0
  /// Two pinned chunks that pinned-staging transfers alternate between,
  /// made on the first transfer.
  mutable std::shared_ptr<struct PinnedStaging> staging_;
};

/// A mapped view of a buffer; unmapped when it goes out of scope.
template <class T>
class Mapped {
 public:
  /// `n` elements at `data`, mapped from `owner`; `unmap` undoes it.
  Mapped(const BufferStorage* owner, T* data, std::size_t n, void (*unmap)(const BufferStorage*, void*))
      : owner_(owner), data_(data), n_(n), unmap_(unmap) {}
  /// Takes o's mapping; o unmaps nothing.
  Mapped(Mapped&& o) noexcept : owner_(o.owner_), data_(o.data_), n_(o.n_), unmap_(o.unmap_) { o.data_ = nullptr; }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  ~Mapped() {
    if (data_) unmap_(owner_, data_);
  }
  T* data() const { return data_; }                        ///< the first element
  std::size_t size() const { return n_; }                  ///< elements
  T& operator[](std::size_t i) const { return data_[i]; }  ///< element i, unchecked
  T* begin() const { return data_; }                       ///< as std::vector's
  T* end() const { return data_ + n_; }                    ///< as std::vector's

 private:
  const BufferStorage* owner_;
  T* data_;
  std::size_t n_;
  void (*unmap_)(const BufferStorage*, void*);
};

/// n elements of T in a device's memory (above).
template <class T>
class Buffer : public BufferStorage {
 public:
  /// n elements, contents undefined, moved by the device's preferred strategy.
  Buffer(Context& ctx, std::size_t n) : BufferStorage(ctx, bytes_of<T>(n, type_label()), type_label()), n_(n) {}
  /// n elements moved by strategy `s`.
  Buffer(Context& ctx, std::size_t n, MemoryStrategy s)
      : BufferStorage(ctx, bytes_of<T>(n, type_label()), s, type_label()), n_(n) {}
  /// A copy of `host`.
  Buffer(Context& ctx, const std::vector<T>& host) : Buffer(ctx, host.size()) { upload(host); }
  /// A copy of `host`, moved by strategy `s`.
  Buffer(Context& ctx, const std::vector<T>& host, MemoryStrategy s) : Buffer(ctx, host.size(), s) { upload(host); }
  /// Wraps a buffer the program made itself (plain OpenCL, CLBlast, another
  /// library) without copying: its first n elements, n = all it holds when
  /// not given. Every typed call then works on it. Throws portacl::Error when
  /// it belongs to another OpenCL context than ctx's or is smaller than n
  /// elements.
  Buffer(Context& ctx, const cl::Buffer& existing, std::size_t n)
      : BufferStorage(ctx, existing, bytes_of<T>(n, type_label()), type_label()), n_(n) {}
  /// As above, all of `existing`.
  Buffer(Context& ctx, const cl::Buffer& existing) : Buffer(ctx, existing, size_of(existing) / sizeof(T)) {}
  /// The same for a raw handle (retained; the caller keeps its reference). A
  /// named function, so Buffer(ctx, 0) stays a buffer of no elements.
  static Buffer wrap(Context& ctx, cl_mem existing, std::size_t n) {
    return Buffer(ctx, cl::Buffer(existing, true), n);
  }
  /// As above, all of `existing`.
  static Buffer wrap(Context& ctx, cl_mem existing) { return Buffer(ctx, cl::Buffer(existing, true)); }

  std::size_t size() const { return n_; }  ///< elements

  /// All n elements from `src` (n must be size()); returns once written.
  void upload(const T* src, std::size_t n) {
    check_count(n, n_, "upload");
    write_bytes(src, n * sizeof(T));
  }
  /// All elements from `src` (of size() elements).
  void upload(const std::vector<T>& src) { upload(src.data(), src.size()); }
  /// From pinned host memory: at the bus's full rate on GPUs. Throws
  /// portacl::Error for a HostBuffer of another Context or another size.
  void upload(const HostBuffer<T>& src) {
    check_count(src.size(), n_, "upload");
    write_pinned(src, src.data(), n_ * sizeof(T));
  }
  /// Into pinned host memory: at the bus's full rate on GPUs.
  void download(HostBuffer<T>& dst) const {
    check_count(dst.size(), n_, "download");
    read_pinned(dst, dst.data(), n_ * sizeof(T));
  }
  /// All n elements into `dst` (n must be size()); returns once read.
  void download(T* dst, std::size_t n) const {
    check_count(n, n_, "download");
    read_bytes(dst, n * sizeof(T));
  }
  /// All elements, read back into a new vector.
  std::vector<T> download() const {
    std::vector<T> out(n_);
    read_bytes(out.data(), n_ * sizeof(T));
    return out;
  }
  /// Direct access (zero copy where the buffer lives in host memory).
  Mapped<T> map(cl_map_flags flags = CL_MAP_READ | CL_MAP_WRITE) {
    return Mapped<T>(this, static_cast<T*>(map_bytes(flags)), n_, &unmap_thunk);
  }

 private:
  static const char* type_label() {
    if (typeid(T) == typeid(float)) return "Buffer<float>";
    if (typeid(T) == typeid(double)) return "Buffer<double>";
    if (typeid(T) == typeid(int)) return "Buffer<int>";
    return "Buffer";
  }
  static void unmap_thunk(const BufferStorage* b, void* p) { static_cast<const Buffer*>(b)->unmap_bytes(p); }
  std::size_t n_;
};

}  // namespace portacl

// ---- device value ------------------------------------------------------------
/// A result an asynchronous call leaves in device memory (sum_async,
/// dot_async, compact_async's count, ...). A pipeline passes buffer() on to
/// its next kernels, or waits on ready(), without a round trip through the
/// host per step; get() is the blocking read.
namespace portacl {

/// One value of T in device memory, and the event that makes it ready (above).
template <class T>
class DeviceValue {
 public:
  /// `stored_bytes`: the width the device wrote. Equal to sizeof(T), except
  /// a count kept in 32 bits (compaction of int/float), widened by get().
  DeviceValue(Context& ctx, cl::Buffer buffer, cl::Event ready, std::size_t stored_bytes = sizeof(T))
      : ctx_(&ctx), buffer_(std::move(buffer)), ready_(std::move(ready)), stored_(stored_bytes) {}

  const cl::Buffer& buffer() const { return buffer_; }  ///< one value, stored_bytes() wide
  const cl::Event& ready() const { return ready_; }     ///< complete once the value is in buffer()
  std::size_t stored_bytes() const { return stored_; }  ///< the width the device wrote

  /// Waits for the value and reads it (blocks).
  T get() const {
    std::uint64_t raw = 0;
    T value{};
    void* into = stored_ == sizeof(T) ? static_cast<void*>(&value) : static_cast<void*>(&raw);
    const std::vector<cl::Event> wait{ready_};
    check_cl(ctx_->queue().enqueueReadBuffer(buffer_, CL_TRUE, 0, stored_, into, ready_() ? &wait : nullptr),
             "clEnqueueReadBuffer(DeviceValue)");
    if (stored_ != sizeof(T)) {
      static_assert(std::is_trivially_copyable<T>::value, "DeviceValue holds plain values");
      if constexpr (std::is_integral<T>::value) value = static_cast<T>(raw);
    }
    return value;
  }

 private:
  Context* ctx_;
  cl::Buffer buffer_;
  cl::Event ready_;
  std::size_t stored_;
};

}  // namespace portacl
