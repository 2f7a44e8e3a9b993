// SPDX-License-Identifier: Apache-2.0
// The all-to-all of a slab-decomposed 3D FFT (fft_group.cpp, and the MPI
// layer's distributed one), moved by the devices: a slab of p planes of
// axis 0 (p x n1 x n2 complex values, i2 fastest) transposed on its device
// (kernels/fft_slabs.cl) into n1 x n2 x p values, i0 fastest. In that order
// the values bound for the device (rank) holding columns [c0, c1) of axis 1
// are one contiguous block, c0 n2 p complex values in, (c1 - c0) n2 rows of
// p values. In the receiver's columns ((i1 - c0) n2 + i2) n0 + i0, each row
// lands at i0 = the sender's first plane, n0 values apart: a rectangle
// copy. The way back reads the same rectangles and transposes again.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "kernel_call.hpp"
#include "kernels/fft_tunables.hpp"
#include "portacl/buffer.hpp"
#include "portacl/context.hpp"

namespace portacl {

/// Where one sender's block lies: its first plane and plane count, the
/// receiver's columns' count, n0 and n2.
struct FftSlabRows {
  std::size_t p0, planes, columns, n0, n2;
  std::size_t rows() const { return columns * n2; }
};

/// out (cols x rows complex values) = in (rows x cols) transposed, on
/// in's context's queue under `plan` (plan_fft_slab_transpose).
template <class T>
void transpose_slab(const LaunchPlan& plan, const Buffer<T>& in, Buffer<T>& out, std::size_t rows, std::size_t cols) {
  if (rows == 0 || cols == 0) return;
  Context& ctx = in.context();
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"fft_slabs.cl", "fft_slab_transpose", ""}, plan), in, out,
                      cl_ulong(rows), cl_ulong(cols));
}

/// A sender's block between host memory (its rows of `planes` values one
/// after another) and the receiver's columns buffer, on that buffer's
/// queue: written into (to_device) or read from the columns. Blocking or
/// not, as asked.
template <class T>
void move_slab_rows(Buffer<T>& columns, T* host, const FftSlabRows& b, bool to_device, bool blocking) {
  if (b.planes == 0 || b.rows() == 0) return;
  const std::size_t value = 2 * sizeof(T);
  const std::array<std::size_t, 3> at{{b.p0 * value, 0, 0}}, host_at{{0, 0, 0}},
      region{{b.planes * value, b.rows(), 1}};
  cl::CommandQueue& q = columns.context().queue();
  const cl_int status = to_device ? clEnqueueWriteBufferRect(q(), columns.cl_buffer()(), blocking ? CL_TRUE : CL_FALSE,
                                                             at.data(), host_at.data(), region.data(), b.n0 * value, 0,
                                                             b.planes * value, 0, host, 0, nullptr, nullptr)
                                  : clEnqueueReadBufferRect(q(), columns.cl_buffer()(), blocking ? CL_TRUE : CL_FALSE,
                                                            at.data(), host_at.data(), region.data(), b.n0 * value, 0,
                                                            b.planes * value, 0, host, 0, nullptr, nullptr);
  if (status != CL_SUCCESS)
    throw Error(std::string("fft all-to-all: ") + (to_device ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect") +
                " failed (" + std::to_string(status) + ")");
}

/// A device's own block between its transposed slab (from T `start`) and
/// its columns, on the device: into the columns (to_columns) or back.
template <class T>
void copy_slab_rows(Buffer<T>& packed, std::size_t start, Buffer<T>& columns, const FftSlabRows& b, bool to_columns) {
  if (b.planes == 0 || b.rows() == 0) return;
  const std::size_t value = 2 * sizeof(T);
  const std::array<std::size_t, 3> in_packed{{start * sizeof(T), 0, 0}}, in_columns{{b.p0 * value, 0, 0}},
      region{{b.planes * value, b.rows(), 1}};
  const cl_mem p = packed.cl_buffer()(), c = columns.cl_buffer()();
  const cl_int status =
      to_columns ? clEnqueueCopyBufferRect(columns.context().queue()(), p, c, in_packed.data(), in_columns.data(),
                                           region.data(), b.planes * value, 0, b.n0 * value, 0, 0, nullptr, nullptr)
                 : clEnqueueCopyBufferRect(columns.context().queue()(), c, p, in_columns.data(), in_packed.data(),
                                           region.data(), b.n0 * value, 0, b.planes * value, 0, 0, nullptr, nullptr);
  if (status != CL_SUCCESS)
    throw Error("fft all-to-all: clEnqueueCopyBufferRect failed (" + std::to_string(status) + ")");
}

}  // namespace portacl
