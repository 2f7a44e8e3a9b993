// SPDX-License-Identifier: Apache-2.0
// The fast Fourier transform: Stockham stages, mixed radix, Bluestein's
// chirp-z for lengths with a large prime factor.
//
// A transform of length n is a sequence of stages; stage s transforms
// sub-sequences of length r (a stage length) spaced n / r apart, after a
// twiddle, and writes them where the next stage reads them (Stockham's
// self-sorting order, so no bit reversal). Within a stage a work-group
// holds SLOTS sub-sequences in local memory and runs its radix passes
// (2, 3, 4, 5, 7, 8, 11, 13) there, two local buffers in turn. One stage
// is the whole transform where it fits; the rules (fft.stage-length) split
// longer ones. Lengths, radices and layouts are arguments: one program a
// precision, direction and data kind serves every length.
//
// Twiddles come from one table of n roots W_n^m = exp(-2 pi i m / n),
// computed in double on the host and rounded once: lo[m mod 2^s] times
// hi[m >> s] (hi holds a single 1 when n <= 2^s). Every root a stage or a
// pass needs is one of them: W_(L)^k = W_n^(k n / L) for L dividing n.
//
// Macros: T (float or double), WG_SIZE, SIGN (-1 forward, +1 inverse),
// REAL_IN (input reals, imaginary parts 0), HERM_IN (input the n / 2 + 1
// first values of a Hermitian sequence), REAL_OUT (the real parts only),
// HALF_OUT (the first n / 2 + 1 outputs only).
#include "portacl_common.cl"

#define C PORTACL_CAT(T, 2)

#ifndef SIGN
#define SIGN -1
#endif
#ifndef REAL_IN
#define REAL_IN 0
#endif
#ifndef HERM_IN
#define HERM_IN 0
#endif
#ifndef REAL_OUT
#define REAL_OUT 0
#endif
#ifndef HALF_OUT
#define HALF_OUT 0
#endif

inline C cmul(const C a, const C b) { return (C)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
inline C conj_c(const C a) { return (C)(a.x, -a.y); }
// a times -i (forward) or +i (inverse).
inline C times_minus_i_sign(const C a) { return SIGN < 0 ? (C)(a.y, -a.x) : (C)(-a.y, a.x); }

// W_n^m in the transform's direction.
inline C root(__global const C* lo, __global const C* hi, uint shift, ulong m) {
  C w = lo[m & ((1ul << shift) - 1)];
  const ulong h = m >> shift;
  if (h) w = cmul(w, hi[h]);
  return SIGN < 0 ? w : conj_c(w);
}

// A batch's first element: b = b0 + c0 (b1 + c1 b2).
inline ulong batch_offset(ulong b, ulong c0, ulong c1, ulong d0, ulong d1, ulong d2) {
  const ulong b0 = b % c0, t = b / c0;
  return b0 * d0 + (t % c1) * d1 + (t / c1) * d2;
}

// Element e of a sequence of n starting at `base`, stride `str` (in the
// array's own elements: reals for a real array, pairs for a complex one).
inline C load_element(__global const T* in, ulong base, ulong str, ulong e, ulong n) {
#if REAL_IN
  return (C)(in[base + e * str], (T)0);
#elif HERM_IN
  const ulong k = e <= n / 2 ? e : n - e;
  const C v = vload2(base + k * str, in);
  return e <= n / 2 ? v : conj_c(v);
#else
  return vload2(base + e * str, in);
#endif
}

inline void store_element(__global T* out, ulong base, ulong str, ulong e, ulong n, const C v) {
#if REAL_OUT
  out[base + e * str] = v.x;
#elif HALF_OUT
  if (e <= n / 2) vstore2(v, base + e * str, out);
#else
  vstore2(v, base + e * str, out);
#endif
}

// ---- the radix-q transforms, in place on v[0..q) --------------------------

inline void dft2(C* v) {
  const C a = v[0], b = v[1];
  v[0] = a + b;
  v[1] = a - b;
}

inline void dft4_(C* a0, C* a1, C* a2, C* a3) {
  const C t0 = *a0 + *a2, t1 = *a0 - *a2, t2 = *a1 + *a3, t3 = times_minus_i_sign(*a1 - *a3);
  *a0 = t0 + t2;
  *a2 = t0 - t2;
  *a1 = t1 + t3;
  *a3 = t1 - t3;
}

inline void dft4(C* v) { dft4_(&v[0], &v[1], &v[2], &v[3]); }

inline void dft8(C* v) {
  C e0 = v[0], e1 = v[2], e2 = v[4], e3 = v[6];
  C o0 = v[1], o1 = v[3], o2 = v[5], o3 = v[7];
  dft4_(&e0, &e1, &e2, &e3);
  dft4_(&o0, &o1, &o2, &o3);
  const T h = (T)0.70710678118654752440;  // cos(pi / 4)
  // W_8^1 = h (1 - i) forward, h (1 + i) inverse; W_8^2 = -i / +i; W_8^3 = -h (1 + i) / h (-1 + i).
  const C w1o = (C)(h * (o1.x - SIGN * o1.y), h * (o1.y + SIGN * o1.x));
  const C w2o = times_minus_i_sign(o2);
  const C w3o = (C)(-h * (o3.x + SIGN * o3.y), h * (SIGN * o3.x - o3.y));
  v[0] = e0 + o0;
  v[4] = e0 - o0;
  v[1] = e1 + w1o;
  v[5] = e1 - w1o;
  v[2] = e2 + w2o;
  v[6] = e2 - w2o;
  v[3] = e3 + w3o;
  v[7] = e3 - w3o;
}

inline void dft3(C* v) {
  const T s = (T)0.86602540378443864676;  // sin(2 pi / 3)
  const C t = v[1] + v[2], d = times_minus_i_sign(v[1] - v[2]);
  const C m = v[0] - (T)0.5 * t;
  v[0] = v[0] + t;
  v[1] = m + s * d;
  v[2] = m - s * d;
}

inline void dft5(C* v) {
  const T c1 = (T)0.30901699437494742410, c2 = (T)-0.80901699437494742410;  // cos(2 pi / 5), cos(4 pi / 5)
  const T s1 = (T)0.95105651629515357212, s2 = (T)0.58778525229247312917;   // sin(2 pi / 5), sin(4 pi / 5)
  const C t1 = v[1] + v[4], t2 = v[2] + v[3];
  const C d1 = times_minus_i_sign(v[1] - v[4]), d2 = times_minus_i_sign(v[2] - v[3]);
  const C a = v[0] + c1 * t1 + c2 * t2, b = v[0] + c2 * t1 + c1 * t2;
  const C p = s1 * d1 + s2 * d2, q = s2 * d1 - s1 * d2;
  v[0] = v[0] + t1 + t2;
  v[1] = a + p;
  v[4] = a - p;
  v[2] = b + q;
  v[3] = b - q;
}

// Any other radix (7, 11, 13) by its definition, its roots from the table.
inline void dft_any(C* v, uint q, __global const C* lo, __global const C* hi, uint shift, ulong n) {
  C w[16], out[16];
  for (uint k = 0; k < q; ++k) w[k] = root(lo, hi, shift, (ulong)k * (n / q));
  for (uint m = 0; m < q; ++m) {
    C acc = v[0];
    for (uint k = 1; k < q; ++k) acc += cmul(v[k], w[(k * m) % q]);
    out[m] = acc;
  }
  for (uint m = 0; m < q; ++m) v[m] = out[m];
}

inline void dft(C* v, uint q, __global const C* lo, __global const C* hi, uint shift, ulong n) {
  switch (q) {
    case 2: dft2(v); break;
    case 3: dft3(v); break;
    case 4: dft4(v); break;
    case 5: dft5(v); break;
    case 8: dft8(v); break;
    default: dft_any(v, q, lo, hi, shift, n); break;
  }
}

// ---- a stage ----------------------------------------------------------------

// One radix-q pass over a work-group's slots of r values each: Stockham's
// butterfly x (slot s = x / (r / q), index i) reads values i + k r / q,
// twiddles them by W_(nsl q)^((i mod nsl) k) (nsl: the product of the
// earlier passes' radices) and writes its outputs at (i / nsl) nsl q +
// i mod nsl + m nsl.
inline void butterfly_in(__local const C* src, const uint x, const uint q, const uint nsl, const uint r,
                         __global const C* lo, __global const C* hi, const uint shift, const ulong n, C* v) {
  const uint span = r / q, s = x / span, i = x % span, im = i % nsl;
  for (uint k = 0; k < q; ++k) v[k] = src[s * r + i + k * span];
  if (nsl > 1)
    for (uint k = 1; k < q; ++k) v[k] = cmul(v[k], root(lo, hi, shift, (ulong)im * k * (n / (nsl * q))));
  dft(v, q, lo, hi, shift, n);
}

inline void butterfly_out(__local C* dst, const uint x, const uint q, const uint nsl, const uint r, const C* v) {
  const uint span = r / q, s = x / span, i = x % span;
  const uint to = s * r + (i / nsl) * nsl * q + i % nsl;
  for (uint k = 0; k < q; ++k) dst[to + k * nsl] = v[k];
}

// A pass from one local buffer to the other.
inline void stage_pass(__local const C* src, __local C* dst, const uint q, const uint nsl, const uint r,
                       const uint slots, __global const C* lo, __global const C* hi, const uint shift, const ulong n) {
  for (uint x = get_local_id(0); x < slots * (r / q); x += WG_SIZE) {
    C v[16];
    butterfly_in(src, x, q, nsl, r, lo, hi, shift, n, v);
    butterfly_out(dst, x, q, nsl, r, v);
  }
}

#ifdef FFT_INPLACE
// The same pass in place in one buffer: each work-item takes its
// butterflies' values into registers (at most FFT_VMAX, known when the
// specialised program is compiled), and writes them after a barrier.
inline void stage_pass_in_place(__local C* buf, const uint q, const uint nsl, const uint r, const uint slots,
                                __global const C* lo, __global const C* hi, const uint shift, const ulong n) {
  const uint total = slots * (r / q), rounds = (total + WG_SIZE - 1) / WG_SIZE;
  C v[FFT_VMAX];
  for (uint b = 0; b < rounds; ++b) {
    const uint x = get_local_id(0) + b * WG_SIZE;
    if (x < total) butterfly_in(buf, x, q, nsl, r, lo, hi, shift, n, v + b * q);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = 0; b < rounds; ++b) {
    const uint x = get_local_id(0) + b * WG_SIZE;
    if (x < total) butterfly_out(buf, x, q, nsl, r, v + b * q);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}
#endif

// The stage's shape: compiled in where the rules specialise the program
// (fft.specialise: FFT_R, FFT_NS, FFT_N, FFT_SLOTS, FFT_PASSES and each
// pass's FFT_Qk and FFT_Sk), so the passes unroll and a butterfly's values
// stay in registers; else the arguments.
#ifdef FFT_R
#define STAGE_R ((uint)FFT_R)
#define STAGE_NS ((ulong)FFT_NS)
#define STAGE_N ((ulong)FFT_N)
#define STAGE_SLOTS ((uint)FFT_SLOTS)
#else
#define STAGE_R r
#define STAGE_NS ns
#define STAGE_N n
#define STAGE_SLOTS slots
#endif

#ifdef FFT_INPLACE
#define FFT_PASS(k) stage_pass_in_place(src, FFT_Q##k, FFT_S##k, STAGE_R, STAGE_SLOTS, lo, hi, shift, STAGE_N);
#else
#define FFT_PASS(k)                                                                          \
  stage_pass(src, dst, FFT_Q##k, FFT_S##k, STAGE_R, STAGE_SLOTS, lo, hi, shift, STAGE_N); \
  barrier(CLK_LOCAL_MEM_FENCE);                                                              \
  t = src;                                                                                   \
  src = dst;                                                                                 \
  dst = t;
#endif

// Stage of length r after `ns` (the product of the earlier stages' lengths)
// of a transform of length n: slot g = (batch b, index j < n / r) reads
// elements j + k n / r, k < r, twiddled by W_(ns r)^((j mod ns) k), and
// writes its transform's output m at (j / ns) ns r + j mod ns + m ns.
// `radices` holds the passes' radices, 4 bits each, first pass lowest.
// in_slot_first / out_slot_first: the cooperative load's (store's) order,
// consecutive work-items on consecutive slots or on consecutive elements
// of one slot (rule fft.coalescing).
__kernel void fft_stage(__global const T* in, ulong i_off, ulong i_str, ulong i_d0, ulong i_d1, ulong i_d2,
                        __global T* out, ulong o_off, ulong o_str, ulong o_d0, ulong o_d1, ulong o_d2, ulong c0,
                        ulong c1, ulong slots_total, ulong n, uint r, ulong ns, ulong radices, uint passes,
                        uint slots, uint in_slot_first, uint out_slot_first, __global const C* lo,
                        __global const C* hi, uint shift, __local C* buf_a, __local C* buf_b,
                        __local ulong* slot_info) {
  const uint lid = get_local_id(0);
  const ulong first = (ulong)get_group_id(0) * STAGE_SLOTS;
  const ulong per_batch = STAGE_N / STAGE_R;
  const uint items = STAGE_SLOTS * STAGE_R;

  // Each slot's index j and its first input and output element, once a
  // slot (the batch's offsets take 64-bit divisions); ~0 past the last.
  __local ulong* slot_j = slot_info;
  __local ulong* slot_in = slot_info + STAGE_SLOTS;
  __local ulong* slot_out = slot_info + 2 * STAGE_SLOTS;
  for (uint s = lid; s < STAGE_SLOTS; s += WG_SIZE) {
    const ulong g = first + s;
    const ulong b = g / per_batch;
    slot_j[s] = g < slots_total ? g % per_batch : ~0ul;
    slot_in[s] = i_off + batch_offset(b, c0, c1, i_d0, i_d1, i_d2);
    slot_out[s] = o_off + batch_offset(b, c0, c1, o_d0, o_d1, o_d2);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint x = lid; x < items; x += WG_SIZE) {
    const uint s = in_slot_first ? x % STAGE_SLOTS : x / STAGE_R, k = in_slot_first ? x / STAGE_SLOTS : x % STAGE_R;
    const ulong j = slot_j[s];
    C v = (C)((T)0, (T)0);
    if (j != ~0ul) {
      v = load_element(in, slot_in[s], i_str, j + k * per_batch, STAGE_N);
      if (STAGE_NS > 1 && k) v = cmul(v, root(lo, hi, shift, (j % STAGE_NS) * k * (STAGE_N / (STAGE_NS * STAGE_R))));
    }
    buf_a[s * STAGE_R + k] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  __local C* src = buf_a;
#ifndef FFT_INPLACE
  __local C* dst = buf_b;
  __local C* t;
#endif
#ifdef FFT_PASSES
#if FFT_PASSES > 0
  FFT_PASS(0)
#endif
#if FFT_PASSES > 1
  FFT_PASS(1)
#endif
#if FFT_PASSES > 2
  FFT_PASS(2)
#endif
#if FFT_PASSES > 3
  FFT_PASS(3)
#endif
#if FFT_PASSES > 4
  FFT_PASS(4)
#endif
#if FFT_PASSES > 5
  FFT_PASS(5)
#endif
#if FFT_PASSES > 6
  FFT_PASS(6)
#endif
#if FFT_PASSES > 7
  FFT_PASS(7)
#endif
#if FFT_PASSES > 8
  FFT_PASS(8)
#endif
#if FFT_PASSES > 9
  FFT_PASS(9)
#endif
#if FFT_PASSES > 10
  FFT_PASS(10)
#endif
#if FFT_PASSES > 11
  FFT_PASS(11)
#endif
#if FFT_PASSES > 12
#error "fft_stage: at most 12 passes compiled in"
#endif
#else
  uint nsl = 1;
  for (uint p = 0; p < passes; ++p) {
    const uint q = (uint)(radices >> (4 * p)) & 15u;
    stage_pass(src, dst, q, nsl, r, slots, lo, hi, shift, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    t = src;
    src = dst;
    dst = t;
    nsl *= q;
  }
#endif

  for (uint x = lid; x < items; x += WG_SIZE) {
    const uint s = out_slot_first ? x % STAGE_SLOTS : x / STAGE_R, m = out_slot_first ? x / STAGE_SLOTS : x % STAGE_R;
    const ulong j = slot_j[s];
    if (j != ~0ul)
      store_element(out, slot_out[s], o_str, (j / STAGE_NS) * STAGE_NS * STAGE_R + j % STAGE_NS + m * STAGE_NS,
                    STAGE_N, src[s * STAGE_R + m]);
  }
}

// ---- Bluestein's chirp-z ----------------------------------------------------
// X_k = w_k sum_j (x_j w_j) conj(w_(k-j)), w_j = exp(-pi i j^2 / n) (forward;
// conjugated inverse): the sum is a cyclic convolution of length m >= 2n - 1,
// done by transforms of length m. chirp[j] = w_j (forward), rounded from
// double on the host.

inline C chirp_at(__global const C* chirp, ulong j) { return SIGN < 0 ? chirp[j] : conj_c(chirp[j]); }

// a[b m + j] = x_j w_j for j < n, 0 up to m.
__kernel void fft_chirp_in(__global const T* in, ulong i_off, ulong i_str, ulong i_d0, ulong i_d1, ulong i_d2,
                           ulong c0, ulong c1, ulong batches, ulong n, ulong m, __global const C* chirp,
                           __global C* a) {
  PORTACL_FOR_UNITS(idx, batches * m) {
    const ulong b = idx / m, j = idx % m;
    C v = (C)((T)0, (T)0);
    if (j < n) {
      const ulong base = i_off + batch_offset(b, c0, c1, i_d0, i_d1, i_d2);
      v = cmul(load_element(in, base, i_str, j, n), chirp_at(chirp, j));
    }
    a[idx] = v;
  }
}

// a[b m + k] *= spectrum[k]: the convolution's product, the chirp's
// spectrum scaled by 1 / m on the host.
__kernel void fft_chirp_product(__global C* a, ulong batches, ulong m, __global const C* spectrum) {
  PORTACL_FOR_UNITS(idx, batches * m) a[idx] = cmul(a[idx], spectrum[idx % m]);
}

// X_k = w_k a[b m + k], k < n (HALF_OUT: k <= n / 2).
__kernel void fft_chirp_out(__global const C* a, ulong batches, ulong n, ulong m, __global const C* chirp,
                            __global T* out, ulong o_off, ulong o_str, ulong o_d0, ulong o_d1, ulong o_d2, ulong c0,
                            ulong c1) {
#if HALF_OUT
  const ulong kept = n / 2 + 1;
#else
  const ulong kept = n;
#endif
  PORTACL_FOR_UNITS(idx, batches * kept) {
    const ulong b = idx / kept, k = idx % kept;
    const ulong base = o_off + batch_offset(b, c0, c1, o_d0, o_d1, o_d2);
    store_element(out, base, o_str, k, n, cmul(a[b * m + k], chirp_at(chirp, k)));
  }
}
