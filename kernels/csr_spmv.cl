// SPDX-License-Identifier: Apache-2.0
// y = alpha * A x + beta * y for A in compressed sparse rows. The host
// defines ROW_T, the row pointers' type: uint, or ulong when the matrix
// holds 2^31 or more entries. beta == 0 never reads y (BLAS: NaN in y must
// not propagate); the host handles alpha == 0 without reading A or x.
#include "portacl_common.cl"

// One work-item per row, rows shared out by the plan (contiguous chunks on
// CPUs, a grid stride elsewhere). An empty row gives beta * y.
__kernel void csr_scalar(const ulong rows, __global const ROW_T* row_ptr, __global const uint* col,
                         __global const T* val, __global const T* x, const T alpha, const T beta, __global T* y) {
  PORTACL_FOR_UNITS(i, rows) {
    T sum = (T)0;
    const ROW_T end = row_ptr[i + 1];
    for (ROW_T k = row_ptr[i]; k < end; ++k) sum = fma(val[k], x[col[k]], sum);
    y[i] = beta == (T)0 ? alpha * sum : alpha * sum + beta * y[i];
  }
}
