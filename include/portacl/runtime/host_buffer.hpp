// SPDX-License-Identifier: Apache-2.0
/// \file
/// Page-locked ("pinned") host memory: what a GPU reaches at full bus speed
/// by DMA. Pageable memory (a std::vector) is copied by the driver through
/// a pinned bounce buffer first, at a fraction of the bus's rate. OpenCL has
/// no call that allocates pinned memory; NVIDIA's documented way, which
/// other vendors honour too, is a buffer made with CL_MEM_ALLOC_HOST_PTR and
/// mapped: a HostBuffer is such a buffer, mapped once for its whole life.
/// Use it like an array, and as the source of Buffer<T>::upload and the
/// target of Buffer<T>::download (no staging copy) and of the pipelines.
#pragma once

#include <cstddef>
#include <string>
#include <typeinfo>
#include <utility>

#include "portacl/cl.hpp"
#include "portacl/util/checked.hpp"

namespace portacl {

class Context;

/// The untyped part, compiled once in the library.
class HostBufferStorage {
 public:
  HostBufferStorage(Context& ctx, std::size_t bytes, const char* what);
  ~HostBufferStorage();
  HostBufferStorage(HostBufferStorage&& other) noexcept;
  HostBufferStorage& operator=(HostBufferStorage&& other) noexcept;
  HostBufferStorage(const HostBufferStorage&) = delete;
  HostBufferStorage& operator=(const HostBufferStorage&) = delete;
  std::size_t bytes() const { return bytes_; }
  Context& context() const { return *ctx_; }

 protected:
  void* bytes_data() const { return data_; }

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
  HostBuffer(Context& ctx, std::size_t n) : HostBufferStorage(ctx, bytes_of<T>(n, type_label()), type_label()), n_(n) {}
  HostBuffer(HostBuffer&& other) noexcept : HostBufferStorage(std::move(other)), n_(other.n_) { other.n_ = 0; }
  HostBuffer& operator=(HostBuffer&& other) noexcept {
    HostBufferStorage::operator=(std::move(other));
    n_ = other.n_;
    other.n_ = 0;
    return *this;
  }
  std::size_t size() const { return n_; }
  T* data() { return static_cast<T*>(bytes_data()); }
  const T* data() const { return static_cast<const T*>(bytes_data()); }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }

 private:
  static const char* type_label() {
    if (typeid(T) == typeid(float)) return "HostBuffer<float>";
    if (typeid(T) == typeid(double)) return "HostBuffer<double>";
    return "HostBuffer";
  }
  std::size_t n_;
};

}  // namespace portacl
