// SPDX-License-Identifier: Apache-2.0
// The Krylov solvers' scalar recurrence, written once for every setting:
// sparse_krylov.cl includes it (KRYLOV_REAL = T, run by the last
// work-group of a reducing launch: the scalars never leave the device) and
// so does the host loop of a device group and of an MPI rank
// (src/kernels/sparse/krylov_loop.hpp: KRYLOV_REAL = double, run on the
// host after the exchange of the sums). It is the common part of OpenCL C
// and C++: plain structs, no address-space qualifiers (the device copies
// its global scalars into private ones around the call), and sqrt,
// isfinite and fma from the including language.
//
// The steps, each from the sums s0, s1 and the maximum m of one reduction:
//   0 the start: the first measure (sqrt(s1) = ||r||, or m = max |r|) and
//     rho (CG: s0 = r . z; BiCGStab: s1 = r . r, as r0 = r)
//   1 CG: alpha = rho / (p . q), s0 = p . q
//   2 the end of an iteration: the measure of the new r, convergence, beta
//     and rho (CG: s0 = r . z; BiCGStab: s0 = r0 . r), s1 = r . r
//   3 BiCGStab: alpha = rho / (r0 . v), s0 = r0 . v
//   4 BiCGStab: omega = (t . s) / (t . t), s0 = t . s, s1 = t . t
//   5 CG in the single-reduction form (Chronopoulos and Gear): alpha =
//     rho / (z . w - beta rho / alpha), s0 = z . w with w = A z; that
//     denominator is p . A p without a reduction over p
// The state: 0 running, 1 converged (the measure is below the threshold,
// or exactly 0), 2 broken down (broken_at names the step).
#ifndef PORTACL_SPARSE_KRYLOV_STEP
#define PORTACL_SPARSE_KRYLOV_STEP

typedef struct {
  KRYLOV_REAL rho, alpha, beta, omega, measure, threshold;
} krylov_scalars;

typedef struct {
  uint state, stopped_at, broken_at, closed;
} krylov_status;

#define KRYLOV_FAIL(which)       \
  do {                           \
    st->state = 2u;              \
    st->stopped_at = it - 1u;    \
    st->broken_at = (which);     \
  } while (0)
#define KRYLOV_MET(measure) ((measure) < sc->threshold || (measure) == (KRYLOV_REAL)0)

// A quotient as near as the arithmetic gives it: OpenCL C's single
// precision division may be 2.5 ulp off (OpenCL C 1.2, 7.4) where the
// program is not built with -cl-fp32-correctly-rounded-divide-sqrt; one
// correction by the remainder a - q b, exact through fma, brings it within
// about half an ulp, and an exact quotient out exact (so a system solved
// exactly in one iteration converges in one everywhere).
inline KRYLOV_REAL krylov_divide(const KRYLOV_REAL a, const KRYLOV_REAL b) {
  const KRYLOV_REAL q = a / b;
  return isfinite(q) ? q + fma(-q, b, a) / b : q;
}

// One step (above) in the iteration after the `closed` ones; nothing once
// the state is not 0. Returns 1 where it closed an iteration: its measure
// is then the history's entry for iteration st->closed.
inline int krylov_scalar_step(const uint step, const int max_norm, const int bicgstab, const KRYLOV_REAL s0,
                              const KRYLOV_REAL s1, const KRYLOV_REAL m, krylov_scalars* sc, krylov_status* st) {
  const uint it = st->closed + 1u;
  const KRYLOV_REAL zero = (KRYLOV_REAL)0;
  if (st->state != 0u) return 0;
  if (step == 0u) {
    const KRYLOV_REAL measure = max_norm ? m : sqrt(s1);
    sc->measure = measure;
    if (KRYLOV_MET(measure)) {
      st->state = 1u;
      st->stopped_at = 0u;
      return 0;
    }
    sc->rho = bicgstab ? s1 : s0;
    if (!isfinite(measure) || !(sc->rho != zero)) KRYLOV_FAIL(step);
    return 0;
  }
  if (step == 1u || step == 3u) {
    if (!(s0 != zero) || !isfinite(s0)) {
      KRYLOV_FAIL(step);
      return 0;
    }
    sc->alpha = krylov_divide(sc->rho, s0);
    return 0;
  }
  if (step == 5u) {
    // beta is 0 in the first iteration (p = z), when alpha is not yet set.
    const KRYLOV_REAL denominator = sc->beta != zero ? s0 - krylov_divide(sc->beta * sc->rho, sc->alpha) : s0;
    if (!(denominator != zero) || !isfinite(denominator)) {
      KRYLOV_FAIL(1u);
      return 0;
    }
    sc->alpha = krylov_divide(sc->rho, denominator);
    return 0;
  }
  if (step == 4u) {
    // t . t = 0: t = A s is 0, so s is (numerically) the final residual.
    sc->omega = s1 > zero ? krylov_divide(s0, s1) : zero;
    if (!isfinite(sc->omega)) KRYLOV_FAIL(step);
    return 0;
  }
  // Step 2. s0: the new rho (r . z, or r0 . r), s1: r . r, m: max |r|.
  const KRYLOV_REAL measure = max_norm ? m : sqrt(s1);
  st->closed = it;
  sc->measure = measure;
  if (KRYLOV_MET(measure)) {
    st->state = 1u;
    st->stopped_at = it;
    return 1;
  }
  if (!isfinite(measure) || !(s0 != zero) || (bicgstab && !(sc->omega != zero))) {
    KRYLOV_FAIL(step);
    return 1;
  }
  sc->beta = bicgstab ? krylov_divide(s0, sc->rho) * krylov_divide(sc->alpha, sc->omega) : krylov_divide(s0, sc->rho);
  sc->rho = s0;
  return 1;
}

#undef KRYLOV_MET
#undef KRYLOV_FAIL
#endif
