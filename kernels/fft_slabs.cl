// SPDX-License-Identifier: Apache-2.0
// The all-to-all of a slab-decomposed 3D FFT (src/kernels/fft_group.cpp,
// src/mpi/fft_distributed_3d.cpp), on the device: a slab's planes, p x n1
// x n2 complex values (i0, then i1, then i2 fastest), transposed to n1 x
// n2 x p (i0 fastest) and back. In that order every device's columns of
// axis 1 are one contiguous block, which the host moves whole; each block
// lands in the receiver's columns as rows of p values (a rectangle copy).
//   fft_slab_transpose  out (cols x rows) = in (rows x cols) transposed
// A work-item per output value: the writes run along memory.
#include "portacl_common.cl"

__kernel void fft_slab_transpose(__global const T* in, __global T* out, const ulong rows, const ulong cols) {
  const ulong id = get_global_id(0);
  if (id >= rows * cols) return;
  const ulong c = id / rows, r = id % rows;
  vstore2(vload2(r * cols + c, in), id, out);
}
