// SPDX-License-Identifier: Apache-2.0
#include "portacl/buffer.hpp"

#include <cstdio>
#include <utility>

#include "portacl/error.hpp"
#include "portacl/context.hpp"

namespace portacl {

HostBufferStorage::HostBufferStorage(Context& ctx, std::size_t bytes, const char* what)
    : ctx_(&ctx), bytes_(bytes), what_(what) {
  if (bytes_ == 0) return;  // OpenCL has no zero-byte buffers: nothing to map
  if (ctx.info().max_mem_alloc_size && bytes_ > ctx.info().max_mem_alloc_size)
    throw Error(what_ + " of " + std::to_string(bytes_) + " bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                std::to_string(ctx.info().max_mem_alloc_size) + ") of '" + ctx.info().name + "'");
  cl_int err = CL_SUCCESS;
  pinned_ = cl::Buffer(ctx.cl_context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes_, nullptr, &err);
  check_cl(err, "clCreateBuffer(" + what_ + ", " + std::to_string(bytes_) + " bytes of pinned host memory)");
  data_ = ctx.queue().enqueueMapBuffer(pinned_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes_, nullptr, nullptr, &err);
  check_cl(err, "clEnqueueMapBuffer(" + what_ + ")");
}

void HostBufferStorage::release() noexcept {
  if (!data_) return;
  // Called from a destructor: report, never throw.
  cl_int err = ctx_->queue().enqueueUnmapMemObject(pinned_, data_);
  if (err == CL_SUCCESS) err = ctx_->queue().finish();
  if (err != CL_SUCCESS)
    std::fprintf(stderr, "portacl: unmapping %s failed: %s\n", what_.c_str(), cl_error_name(err).c_str());
  data_ = nullptr;
}

HostBufferStorage::~HostBufferStorage() { release(); }

HostBufferStorage::HostBufferStorage(HostBufferStorage&& other) noexcept
    : ctx_(other.ctx_),
      bytes_(other.bytes_),
      what_(std::move(other.what_)),
      pinned_(std::move(other.pinned_)),
      data_(std::exchange(other.data_, nullptr)) {
  other.bytes_ = 0;
}

HostBufferStorage& HostBufferStorage::operator=(HostBufferStorage&& other) noexcept {
  if (this != &other) {
    release();
    ctx_ = other.ctx_;
    bytes_ = std::exchange(other.bytes_, 0);
    what_ = std::move(other.what_);
    pinned_ = std::move(other.pinned_);
    data_ = std::exchange(other.data_, nullptr);
  }
  return *this;
}

}  // namespace portacl
