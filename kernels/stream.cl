// SPDX-License-Identifier: Apache-2.0
// Streaming kernels: work-items visit whole vectors of VW elements
// (PORTACL_FOR_UNITS: contiguous chunks on CPUs, a grid stride on GPUs),
// then the n % VW tail is done element by element, so any n works under
// any plan.
#include "portacl_common.cl"

#define PORTACL_VECTORS(i) PORTACL_FOR_UNITS(i, n / VW)
#define PORTACL_TAIL(j) for (size_t j = (n / VW) * VW + get_global_id(0); j < n; j += get_global_size(0))

__kernel void copy(const ulong n, __global const T* restrict x, __global T* restrict y) {
  PORTACL_VECTORS(i) VSTORE(VLOAD(i, x), i, y);
  PORTACL_TAIL(j) y[j] = x[j];
}

__kernel void fill(const ulong n, const T value, __global T* restrict y) {
  const VT v = (VT)(value);
  PORTACL_VECTORS(i) VSTORE(v, i, y);
  PORTACL_TAIL(j) y[j] = value;
}

__kernel void scale(const ulong n, const T a, __global T* restrict y) {
  PORTACL_VECTORS(i) VSTORE(a * VLOAD(i, y), i, y);
  PORTACL_TAIL(j) y[j] = a * y[j];
}

__kernel void axpy(const ulong n, const T a, __global const T* restrict x, __global T* restrict y) {
  PORTACL_VECTORS(i) VSTORE(a * VLOAD(i, x) + VLOAD(i, y), i, y);
  PORTACL_TAIL(j) y[j] = a * x[j] + y[j];
}

__kernel void axpby(const ulong n, const T a, __global const T* restrict x, const T b, __global T* restrict y) {
  PORTACL_VECTORS(i) VSTORE(a * VLOAD(i, x) + b * VLOAD(i, y), i, y);
  PORTACL_TAIL(j) y[j] = a * x[j] + b * y[j];
}

// y[i] = x[index[i]]: entries of x scattered through it, packed for one
// transfer (the halo a device group's member sends). Element by element:
// the indices follow no vector pattern. The library builds them in range.
__kernel void gather(const ulong n, __global const uint* restrict index, __global const T* restrict x,
                     __global T* restrict y) {
  PORTACL_FOR_UNITS(i, n) y[i] = x[index[i]];
}

// y = MAP_EXPR(x): the user's OpenCL C expression, defined by the host in
// front of this file. It sees x as a VT (vector) in the loop and a T in the
// tail, so it must be written for both (arithmetic and built-ins are).
#ifdef MAP_EXPR
__kernel void map(const ulong n, __global const T* restrict x_in, __global T* restrict y) {
  PORTACL_VECTORS(i) {
    const VT x = VLOAD(i, x_in);
    VSTORE(MAP_EXPR(x), i, y);
  }
  PORTACL_TAIL(j) {
    const T x = x_in[j];
    y[j] = MAP_EXPR(x);
  }
}
#endif

// z = MAP2_EXPR(x, y) over two arrays, or (MAP2_SCALAR 1) with y one value
// for every element, a kernel argument. As in map, the expression sees x
// and y as VT in the loop and as T in the tail.
#ifdef MAP2_EXPR
#if MAP2_SCALAR
__kernel void map2(const ulong n, __global const T* restrict x_in, const T y_value, __global T* restrict z) {
  const VT y_vector = (VT)(y_value);
  PORTACL_VECTORS(i) {
    const VT x = VLOAD(i, x_in), y = y_vector;
    VSTORE(MAP2_EXPR(x, y), i, z);
  }
  PORTACL_TAIL(j) {
    const T x = x_in[j], y = y_value;
    z[j] = MAP2_EXPR(x, y);
  }
}
#else
__kernel void map2(const ulong n, __global const T* restrict x_in, __global const T* restrict y_in,
                   __global T* restrict z) {
  PORTACL_VECTORS(i) {
    const VT x = VLOAD(i, x_in), y = VLOAD(i, y_in);
    VSTORE(MAP2_EXPR(x, y), i, z);
  }
  PORTACL_TAIL(j) {
    const T x = x_in[j], y = y_in[j];
    z[j] = MAP2_EXPR(x, y);
  }
}
#endif
#endif
