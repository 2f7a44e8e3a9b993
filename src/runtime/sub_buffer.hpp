// SPDX-License-Identifier: Apache-2.0
// A view of part of a buffer as a buffer of its own (an OpenCL sub-buffer:
// launches on it read and write the parent's memory). OpenCL wants its
// start on the device's base-address alignment; sub_buffer_alignment says
// how many elements that is.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "portacl/error.hpp"
#include "portacl/buffer.hpp"
#include "portacl/context.hpp"

namespace portacl {

/// CL_DEVICE_MEM_BASE_ADDR_ALIGN of the context's device, in elements of
/// `element_bytes` (at least 1).
inline std::size_t sub_buffer_alignment(Context& ctx, std::size_t element_bytes) {
  const cl::Device device = ctx.queue().getInfo<CL_QUEUE_DEVICE>();
  return std::max<std::size_t>(device.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8 / element_bytes, 1);
}

/// Elements first .. first + count of `whole` (itself a buffer or a
/// sub-buffer); `first` must be a multiple of sub_buffer_alignment. `what`
/// names the view in errors.
template <class T>
Buffer<T> sub_buffer(Context& ctx, const Buffer<T>& whole, std::size_t first, std::size_t count,
                     const std::string& what) {
  if (first > whole.size() || count > whole.size() - first)
    throw Error("clCreateSubBuffer(" + what + "): elements " + std::to_string(first) + " to " +
                std::to_string(first + count) + " of a buffer of " + std::to_string(whole.size()));
  cl_buffer_region region{first * sizeof(T), count * sizeof(T)};
  cl_int err = CL_SUCCESS;
  cl::Buffer parent = whole.cl_buffer();  // a handle: createSubBuffer is not const
  // OpenCL makes no sub-buffer of a sub-buffer: a view of one (a caller's
  // wrapped sub-buffer) is cut from its parent, at its offset.
  const cl::Memory above = parent.getInfo<CL_MEM_ASSOCIATED_MEMOBJECT>();
  if (above()) {
    region.origin += parent.getInfo<CL_MEM_OFFSET>();
    parent = cl::Buffer(above(), true);
  }
  cl::Buffer sub = parent.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  check_cl(err, "clCreateSubBuffer(" + what + ")");
  return Buffer<T>(ctx, sub, count);
}

}  // namespace portacl
