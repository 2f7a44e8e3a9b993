// SPDX-License-Identifier: Apache-2.0
// CG's vector passes over one row block of a matrix split by rows (a device
// group's member, an MPI rank), in the single-reduction form of
// Chronopoulos and Gear. The scalars come from the host, which needs the
// sums of every block before it can compute them; so each pass leaves one
// sum per work-group in `partials` (3 per group: r . u, r . r, w . u), and
// the host reads them all in one transfer and adds them in double.
//
// One pass does all of an iteration's vector work before the product, where
// the unfused form took two AXPBYs, two AXPYs and two dots, each reading
// and writing the block's vectors again: 9 vector passes of memory traffic
// instead of 16. JACOBI (1: u = r / diag(A), else u is r itself).
#include "portacl_common.cl"
#include "sparse_krylov_sums.cl"

#ifndef JACOBI
#define JACOBI 0
#endif

// The work-group's sums a, b into slots `first` and first + 1 of its three.
inline void store_sums(T a, T b, const uint first, __global T* partials, __local T* scratch) {
  T unused = (T)0;
  group_totals(&a, &b, &unused, scratch);
  if (get_local_id(0) == 0) {
    partials[3 * get_group_id(0) + first] = a;
    if (first == 0) partials[3 * get_group_id(0) + 1] = b;
  }
}

// With `start` 0: p = u + beta p, s = w + beta s (s = A p by recurrence),
// x += alpha p, r -= alpha s; with `start` 1 only what follows. Then u =
// M^-1 r, and the sums r . u and r . r of the new r.
__kernel void split_cg_update(const ulong n, const T alpha, const T beta, const uint start, __global T* x,
                              __global T* r, __global T* u, __global T* p, __global T* s, __global const T* w,
                              __global const T* inv_diag, __global T* partials) {
  __local T scratch[3 * WG_SIZE];
  T ru = (T)0, rr = (T)0;
  PORTACL_FOR_UNITS(i, n) {
    T ri = r[i];
    if (!start) {
      const T direction = fma(beta, p[i], JACOBI ? u[i] : ri), product = fma(beta, s[i], w[i]);
      p[i] = direction;
      s[i] = product;
      x[i] = fma(alpha, direction, x[i]);
      ri = fma(-alpha, product, ri);
      r[i] = ri;
    }
#if JACOBI
    const T ui = ri * inv_diag[i];
    u[i] = ui;
#else
    const T ui = ri;
#endif
    ru = fma(ri, ui, ru);
    rr = fma(ri, ri, rr);
  }
  store_sums(ru, rr, 0, partials, scratch);
}

// w . u, after the product w = A u, into the third slot.
__kernel void split_cg_close(const ulong n, __global const T* w, __global const T* u, __global T* partials) {
  __local T scratch[3 * WG_SIZE];
  T wu = (T)0;
  #pragma unroll 4
  PORTACL_FOR_UNITS(i, n) wu = fma(w[i], u[i], wu);
  store_sums(wu, (T)0, 2, partials, scratch);
}
