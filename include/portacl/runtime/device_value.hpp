// SPDX-License-Identifier: Apache-2.0
/// \file
/// A result an asynchronous call leaves in device memory (sum_async,
/// dot_async, compact_async's count, ...). A pipeline passes buffer() on to
/// its next kernels, or waits on ready(), without a round trip through the
/// host per step; get() is the blocking read.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "portacl/error.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

template <class T>
class DeviceValue {
 public:
  /// `stored_bytes`: the width the device wrote. Equal to sizeof(T), except
  /// a count kept in 32 bits (compaction of int/float), widened by get().
  DeviceValue(Context& ctx, cl::Buffer buffer, cl::Event ready, std::size_t stored_bytes = sizeof(T))
      : ctx_(&ctx), buffer_(std::move(buffer)), ready_(std::move(ready)), stored_(stored_bytes) {}

  const cl::Buffer& buffer() const { return buffer_; }  ///< one value, stored_bytes() wide
  const cl::Event& ready() const { return ready_; }     ///< complete once the value is in buffer()
  std::size_t stored_bytes() const { return stored_; }

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
