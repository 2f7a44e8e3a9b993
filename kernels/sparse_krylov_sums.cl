// SPDX-License-Identifier: Apache-2.0
// The work-group reduction of the Krylov solvers' vector passes, shared by
// the single-device solvers (sparse_krylov.cl) and the split ones whose
// scalars the host holds (sparse_split_cg.cl).
#ifndef SPARSE_KRYLOV_SUMS_CL
#define SPARSE_KRYLOV_SUMS_CL

// The work-group's two sums and maximum of one value each per work-item,
// in every work-item, by one tree (one barrier a level for all three);
// scratch holds 3 WG_SIZE values. Halving that also works for sizes that
// are not powers of two.
inline void group_totals(T* s0, T* s1, T* m, __local T* scratch) {
  const uint lid = get_local_id(0);
  __local T* a = scratch;
  __local T* b = scratch + WG_SIZE;
  __local T* c = scratch + 2 * WG_SIZE;
  a[lid] = *s0;
  b[lid] = *s1;
  c[lid] = *m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint active = WG_SIZE; active > 1;) {
    const uint upper = (active + 1) / 2;
    if (lid < active - upper) {
      a[lid] += a[lid + upper];
      b[lid] += b[lid + upper];
      c[lid] = fmax(c[lid], c[lid + upper]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    active = upper;
  }
  *s0 = a[0];
  *s1 = b[0];
  *m = c[0];
  barrier(CLK_LOCAL_MEM_FENCE);
}

#endif
