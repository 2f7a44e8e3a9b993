// SPDX-License-Identifier: Apache-2.0
// The vector steps of the Krylov solvers (CG, BiCGStab) with their scalars
// kept on the device: no scalar goes through the host between iterations.
// scalars[] holds rho, alpha, beta, omega, the latest residual measure and
// the threshold it is compared with; status[] the state (0 running, 1
// converged, 2 broken down), the iteration it stopped at, on a breakdown
// which step, and the iterations closed so far. The device counts the
// iterations itself, so no launch takes an argument that changes from one
// iteration to the next: the host may record an iteration once and replay
// it (cl_khr_command_buffer). Once the state is not 0 every kernel here does
// nothing, so iterations queued after convergence cost only their launches
// (the state is the same for every work-item of a launch; the reductions'
// barriers are still reached by all).
//
// The element loops are unrolled by 4: a work-item's loads of several
// elements are then in flight together (a vector of 1M elements gives each
// work-item only a few, and one at a time each waited for memory).
//
// A kernel that reduces (krylov_start, krylov_dots, the updates) leaves one
// partial result per work-group, and the last work-group to finish (an
// atomic ticket) adds them up and does the scalar step that needs them:
// no separate launch for the scalars. The host defines JACOBI (1: z = r /
// diag(A)), MAX_NORM (1: the criterion is max|r|, else ||r||), BICGSTAB,
// and NV_MEMBAR (1 on NVIDIA's own compiler: a membar.gl makes a work-group's
// partial visible device-wide before its ticket is taken).
#include "portacl_common.cl"
#include "sparse_ell_layout.cl"
#include "sparse_krylov_sums.cl"
#define KRYLOV_REAL T
#include "sparse_krylov_step.cl"

#define RHO 0
#define ALPHA 1
#define BETA 2
#define OMEGA 3
#define MEASURE 4
#define THRESHOLD 5
#define STATE 0
#define STOPPED_AT 1
#define BROKEN_AT 2
#define CLOSED 3

#ifndef JACOBI
#define JACOBI 0
#endif
#ifndef MAX_NORM
#define MAX_NORM 0
#endif
#ifndef BICGSTAB
#define BICGSTAB 0
#endif

// `window` is the length of history: iteration `it` (from 1) leaves its
// measure in history[(it - 1) % window], read by the host every window.
#define STEP_ARGS                                                                                             \
  const uint step, const uint window, __global T *scalars, __global uint *status, __global T *history, \
      __global uint *ticket
#define STEP_PASS step, window, scalars, status, history, ticket

// One scalar step (sparse_krylov_step.cl) from the totals s0, s1 (sums) and
// m (a maximum), on private copies of the solver's scalars and state; run
// by one work-item.
inline void scalar_step(const uint step, const uint window, const T s0, const T s1, const T m, __global T* scalars,
                        __global uint* status, __global T* history) {
  krylov_scalars sc = {scalars[RHO], scalars[ALPHA], scalars[BETA], scalars[OMEGA], scalars[MEASURE],
                       scalars[THRESHOLD]};
  krylov_status st = {status[STATE], status[STOPPED_AT], status[BROKEN_AT], status[CLOSED]};
  const int closed = krylov_scalar_step(step, MAX_NORM, BICGSTAB, s0, s1, m, &sc, &st);
  scalars[RHO] = sc.rho;
  scalars[ALPHA] = sc.alpha;
  scalars[BETA] = sc.beta;
  scalars[OMEGA] = sc.omega;
  scalars[MEASURE] = sc.measure;
  status[STATE] = st.state;
  status[STOPPED_AT] = st.stopped_at;
  status[BROKEN_AT] = st.broken_at;
  status[CLOSED] = st.closed;
  if (closed) history[(st.closed - 1u) % window] = sc.measure;
}

// Every work-item of every group calls it with its own two sums and
// maximum: the group's totals go to partials[3 g ..], and the last group
// to finish adds up all groups' and does the scalar step (when the solver
// is still running).
inline void finish_reduction(T s0, T s1, T m, __global T* partials, __local T* scratch, __local uint* last,
                             const uint live, STEP_ARGS) {
  const uint lid = get_local_id(0), groups = get_num_groups(0);
  group_totals(&s0, &s1, &m, scratch);
  if (lid == 0) {
    partials[3 * get_group_id(0)] = s0;
    partials[3 * get_group_id(0) + 1] = s1;
    partials[3 * get_group_id(0) + 2] = m;
    publish_partial();
    *last = atomic_inc(ticket) == groups - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (*last) {                                                  // the same in every work-item of the group
    volatile __global T* all = (volatile __global T*)partials;  // around the first-level caches
    T t0 = (T)0, t1 = (T)0, tm = (T)0;
    for (uint g = lid; g < groups; g += WG_SIZE) {
      t0 += all[3 * g];
      t1 += all[3 * g + 1];
      tm = fmax(tm, all[3 * g + 2]);
    }
    group_totals(&t0, &t1, &tm, scratch);
    if (lid == 0) {
      if (live) scalar_step(step, window, t0, t1, tm, scalars, status, history);
      *ticket = 0u;  // ready for the next reduction
    }
  }
}

// What every kernel that ends in finish_reduction begins with: the
// work-group's scratch, the last-group flag, whether the solver still runs,
// and its two sums and maximum.
#define REDUCING_LOCALS                 \
  __local T scratch[3 * WG_SIZE];       \
  __local uint last;                    \
  const uint live = status[STATE] == 0; \
  T s0 = (T)0, s1 = (T)0, m = (T)0
#define FINISH_REDUCTION(live) finish_reduction(s0, s1, m, partials, scratch, &last, live, STEP_PASS)

// The sums that close an iteration, over the new residual r: r . z (CG,
// z = M^-1 r) or r0 . r (BiCGStab, r0 given as rz_with), r . r and max |r|.
#define CLOSE_SUMS(i, rz_with)   \
  do {                           \
    s0 = fma(r[i], rz_with, s0); \
    s1 = fma(r[i], r[i], s1);    \
    m = fmax(m, fabs(r[i]));     \
  } while (0)

// CG's z = M^-1 r (Jacobi; without it z is r itself), then the closing sums
// over r . z.
#if JACOBI
#define PRECONDITION_AND_CLOSE(i) \
  do {                            \
    z[i] = r[i] * inv_diag[i];    \
    CLOSE_SUMS(i, z[i]);          \
  } while (0)
#else
#define PRECONDITION_AND_CLOSE(i) CLOSE_SUMS(i, r[i])
#endif

// a0 . b0 and a1 . b1 (a1 may be null: 0), then a scalar step.
__kernel void krylov_dots(const ulong n, __global const T* a0, __global const T* b0, __global const T* a1,
                          __global const T* b1, __global T* partials, STEP_ARGS) {
  REDUCING_LOCALS;
  #pragma unroll 4
  PORTACL_FOR_UNITS(i, live ? n : 0) {
    s0 = fma(a0[i], b0[i], s0);
    if (a1) s1 = fma(a1[i], b1[i], s1);
  }
  FINISH_REDUCTION(live);
}

// CG's product fused with its first dot: q = A p and p . q, then alpha (step
// 1), in one launch instead of a product and krylov_dots. One work-item per
// row of A in DIA (FUSED_DIA 1: `index` holds the diagonals' offsets,
// `count` their number) or ELL/ELLPACK-R (FUSED_DIA 0: `index` the column
// of each slot, `count` the width; the layout of sparse_ell_layout.cl).
#ifndef FUSED_DIA
#define FUSED_DIA 0
#endif
#if FUSED_DIA
#define FUSED_INDEX long
#else
#define FUSED_INDEX uint
#endif

__kernel void krylov_product_dot(const ulong n, const uint count, const ulong pitch, __global const FUSED_INDEX* index,
                                 __global const uint* row_length, __global const T* values, __global const T* p,
                                 __global T* q, __global T* partials, STEP_ARGS) {
  REDUCING_LOCALS;
  PORTACL_FOR_UNITS(i, live ? n : 0) {
    T sum = (T)0;
#if FUSED_DIA
    for (uint d = 0; d < count; ++d) {
      const long j = (long)i + index[d];
      if (j >= 0 && j < (long)n) sum = fma(values[d * pitch + i], p[j], sum);
    }
#else
    const uint width = count;
    const uint len = ELL_R ? row_length[i] : width;
    for (uint k = 0; k < len; ++k) {
      const uint c = index[ELL_SLOT(i, k)];
      if (c == ELL_PADDING) break;
      sum = fma(values[ELL_SLOT(i, k)], p[c], sum);
    }
#endif
    q[i] = sum;
    s0 = fma(p[i], sum, s0);
  }
  FINISH_REDUCTION(live);
}

// The start: z = M^-1 r (Jacobi), and r . z, r . r and max |r| for step 0.
__kernel void krylov_start(const ulong n, __global const T* r, __global T* z, __global const T* inv_diag,
                           __global T* partials, STEP_ARGS) {
  REDUCING_LOCALS;
  #pragma unroll 4
  PORTACL_FOR_UNITS(i, n) { PRECONDITION_AND_CLOSE(i); }
  FINISH_REDUCTION(1);
}

// CG: x += alpha p, r -= alpha q, z = M^-1 r; then the end of the iteration.
__kernel void cg_update(const ulong n, __global T* x, __global T* r, __global T* z, __global const T* p,
                        __global const T* q, __global const T* inv_diag, __global T* partials, STEP_ARGS) {
  REDUCING_LOCALS;
  const T alpha = scalars[ALPHA];
  #pragma unroll 4
  PORTACL_FOR_UNITS(i, live ? n : 0) {
    x[i] = fma(alpha, p[i], x[i]);
    r[i] = fma(-alpha, q[i], r[i]);
    PRECONDITION_AND_CLOSE(i);
  }
  FINISH_REDUCTION(live);
}

// CG in the single-reduction form, one pass over the vectors: p = z + beta
// p, s = w + beta s (s = A p, kept by recurrence), x += alpha p, r -= alpha
// s, z = M^-1 r; then the end of the iteration (step 2) over the new r.
// Replaces cg_update and cg_direction where the product is fused with
// z . w (krylov_product_dot on z): two launches an iteration, not three.
__kernel void cg_gear_update(const ulong n, __global T* x, __global T* r, __global T* z, __global T* p, __global T* s,
                             __global const T* w, __global const T* inv_diag, __global T* partials, STEP_ARGS) {
  REDUCING_LOCALS;
  const T alpha = scalars[ALPHA], beta = scalars[BETA];
  #pragma unroll 4
  PORTACL_FOR_UNITS(i, live ? n : 0) {
    const T direction = fma(beta, p[i], JACOBI ? z[i] : r[i]), product = fma(beta, s[i], w[i]);
    p[i] = direction;
    s[i] = product;
    x[i] = fma(alpha, direction, x[i]);
    r[i] = fma(-alpha, product, r[i]);
    PRECONDITION_AND_CLOSE(i);
  }
  FINISH_REDUCTION(live);
}

// CG: p = z + beta p.
__kernel void cg_direction(const ulong n, __global T* p, __global const T* z, __global const T* scalars,
                           __global const uint* status) {
  if (status[STATE]) return;
  const T beta = scalars[BETA];
  #pragma unroll 4
  PORTACL_FOR_UNITS(i, n) p[i] = fma(beta, p[i], z[i]);
}

// BiCGStab: s = r - alpha v, s_hat = M^-1 s.
__kernel void bicgstab_s(const ulong n, __global T* s, __global T* s_hat, __global const T* r, __global const T* v,
                         __global const T* inv_diag, __global const T* scalars, __global const uint* status) {
  if (status[STATE]) return;
  const T alpha = scalars[ALPHA];
  #pragma unroll 4
  PORTACL_FOR_UNITS(i, n) {
    s[i] = fma(-alpha, v[i], r[i]);
#if JACOBI
    s_hat[i] = s[i] * inv_diag[i];
#endif
  }
}

// BiCGStab: x += alpha p_hat + omega s_hat, r = s - omega t; then the end
// of the iteration over r0 . r, r . r and max |r|.
__kernel void bicgstab_update(const ulong n, __global T* x, __global T* r, __global const T* r0,
                              __global const T* p_hat, __global const T* s, __global const T* s_hat,
                              __global const T* t, __global T* partials, STEP_ARGS) {
  REDUCING_LOCALS;
  const T alpha = scalars[ALPHA], omega = scalars[OMEGA];
  #pragma unroll 4
  PORTACL_FOR_UNITS(i, live ? n : 0) {
    x[i] = fma(omega, s_hat[i], fma(alpha, p_hat[i], x[i]));
    r[i] = fma(-omega, t[i], s[i]);
    CLOSE_SUMS(i, r0[i]);
  }
  FINISH_REDUCTION(live);
}

// BiCGStab: p = r + beta (p - omega v), p_hat = M^-1 p.
__kernel void bicgstab_direction(const ulong n, __global T* p, __global T* p_hat, __global const T* r,
                                 __global const T* v, __global const T* inv_diag, __global const T* scalars,
                                 __global const uint* status) {
  if (status[STATE]) return;
  const T beta = scalars[BETA], omega = scalars[OMEGA];
  #pragma unroll 4
  PORTACL_FOR_UNITS(i, n) {
    p[i] = fma(beta, fma(-omega, v[i], p[i]), r[i]);
#if JACOBI
    p_hat[i] = p[i] * inv_diag[i];
#endif
  }
}
