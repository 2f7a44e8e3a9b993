// SPDX-License-Identifier: Apache-2.0
// Device arrays of the sparse formats: made from host vectors, made empty
// for a kernel to fill, and read back. OpenCL has no zero-byte buffers, so
// an array of no elements gets one element that nothing reads.
#pragma once

#include <string>
#include <vector>

#include "portacl/error.hpp"
#include "portacl/context.hpp"
#include "util/checked.hpp"

namespace portacl {
namespace device_arrays {

// An array of n elements of V for kernels to write; refused with the
// array's name when it exceeds the device's largest allocation.
template <class V>
cl::Buffer make(Context& ctx, std::size_t n, const std::string& what, cl_mem_flags flags = CL_MEM_READ_WRITE) {
  const std::size_t bytes = bytes_of<V>(n ? n : 1, what.c_str());
  const std::uint64_t limit = ctx.info().max_mem_alloc_size;
  if (limit && bytes > limit)
    throw Error(what + " needs " + std::to_string(bytes) + " bytes, more than the " + std::to_string(limit) +
                " one buffer may hold on '" + ctx.info().name + "'");
  cl_int err = CL_SUCCESS;
  cl::Buffer b(ctx.cl_context(), flags, bytes, nullptr, &err);
  check_cl(err, "clCreateBuffer(" + what + ", " + std::to_string(bytes) + " bytes)");
  return b;
}

template <class V>
cl::Buffer copy_of(Context& ctx, const std::vector<V>& host, const std::string& what) {
  cl::Buffer b = make<V>(ctx, host.size(), what, CL_MEM_READ_ONLY);
  if (!host.empty())
    check_cl(ctx.queue().enqueueWriteBuffer(b, CL_TRUE, 0, host.size() * sizeof(V), host.data()),
             "clEnqueueWriteBuffer(" + what + ")");
  return b;
}

template <class V>
std::vector<V> read(Context& ctx, const cl::Buffer& b, std::size_t n, const std::string& what) {
  std::vector<V> out(n);
  if (n)
    check_cl(ctx.queue().enqueueReadBuffer(b, CL_TRUE, 0, n * sizeof(V), out.data()),
             "clEnqueueReadBuffer(" + what + ")");
  return out;
}

template <class V>
void zero(Context& ctx, const cl::Buffer& b, std::size_t n, const std::string& what) {
  if (n) check_cl(ctx.queue().enqueueFillBuffer(b, V(0), 0, n * sizeof(V)), "clEnqueueFillBuffer(" + what + ")");
}

}  // namespace device_arrays
}  // namespace portacl
