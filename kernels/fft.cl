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
// The specialised (GPU) stage reads its passes' roots from a table a pass
// instead, in the order its work-items take them (`pt`), and computes a
// stage's own twiddles from their angles (FFT_STAGE_SINCOS).
//
// Macros: T (float or double), WG_SIZE, SIGN (-1 forward, +1 inverse),
// REAL_IN (input reals, imaginary parts 0), HERM_IN (input the n / 2 + 1
// first values of a Hermitian sequence), REAL_OUT (the real parts only),
// HALF_OUT (the first n / 2 + 1 outputs only), PAIR_IN / PAIR_OUT (a real
// array read or written as complex values, reals 2e and 2e + 1 as value e:
// the packed real transform, rule fft.real-packed).
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
#ifndef PAIR_IN
#define PAIR_IN 0
#endif
#ifndef PAIR_OUT
#define PAIR_OUT 0
#endif

inline C cmul(const C a, const C b) { return (C)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
inline C conj_c(const C a) { return (C)(a.x, -a.y); }
// a times -i (forward) or +i (inverse).
inline C times_minus_i_sign(const C a) { return SIGN < 0 ? (C)(a.y, -a.x) : (C)(-a.y, a.x); }

// A root's index: 32 bits where the specialised program's transform is
// shorter than 2^32, else 64.
#if defined(FFT_N) && FFT_N < 4294967296
typedef uint tw_t;
#else
typedef ulong tw_t;
#endif

// W_n^m in the transform's direction. The specialised program knows the
// tables' split (FFT_SHIFT): one table where n <= 2^FFT_SHIFT.
inline C root(__global const C* lo, __global const C* hi, uint shift, tw_t m) {
#if defined(FFT_SHIFT) && FFT_N <= (1 << FFT_SHIFT)
  C w = lo[m];
#else
#ifdef FFT_SHIFT
  shift = FFT_SHIFT;
#endif
  C w = lo[m & (((tw_t)1 << shift) - 1)];
  const tw_t h = m >> shift;
  if (h) w = cmul(w, hi[h]);
#endif
  return SIGN < 0 ? w : conj_c(w);
}

#if defined(FFT_STAGE_SINCOS) || defined(FFT_REAL_POST) || defined(FFT_REAL_PRE)
// W_n^m from its angle (rule fft.stage-twiddles), not from the tables: the
// angle 2 pi m / n is reduced in integers, exactly, to a quadrant q and
// the nearer half of it, so that sinpi and cospi see at most pi / 4.
inline C root_by_angle(const ulong m, const ulong n) {
  const ulong a = 4 * m;
  const uint q = (uint)(a / n);
  const ulong r = a - q * n;  // the angle within quadrant q: (pi / 2) r / n
  const int swap = 2 * r > n;
  const T x = (T)(swap ? n - r : r) / (T)n * (T)0.5;
  T c = cospi(x), s = sinpi(x);
  if (swap) {
    const T t = c;
    c = s;
    s = t;
  }
  // cos and sin of q pi / 2 + (pi / 2) r / n
  const T ct = q == 0 ? c : q == 1 ? -s : q == 2 ? -c : s;
  const T st = q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
  return SIGN < 0 ? (C)(ct, -st) : (C)(ct, st);
}
#endif

// Value e of slot s in a stage's local buffer, LX(s, e): the specialised
// program pads one value after every FFT_PAD of a slot and starts slot s
// at s FFT_RP values (odd for a bank row's worth of slots or more, else
// a bank row over the slots modulo a row), so that consecutive work-items
// on consecutive slots fall on different banks (rule fft.local-padding).
#if defined(FFT_PAD) && FFT_PAD > 0
#define LX(s, e) ((s) * (uint)FFT_RP + (e) + (e) / FFT_PAD)
#else
#define LX(s, e) ((s) * r + (e))
#endif

// A batch's first element: b = b0 + c0 (b1 + c1 b2).
inline ulong batch_offset(ulong b, ulong c0, ulong c1, ulong d0, ulong d1, ulong d2) {
  const ulong b0 = b % c0, t = b / c0;
  return b0 * d0 + (t % c1) * d1 + (t / c1) * d2;
}

// Element e of a sequence of n starting at `base`, stride `str` (in the
// array's own elements: reals for a real array, pairs for a complex one;
// PAIR_IN: str is twice the reals' stride, value e the reals e str and
// e str + str / 2).
inline C load_element(__global const T* in, ulong base, ulong str, ulong e, ulong n) {
#if PAIR_IN
  if (str == 2) return vload2(0, in + base + 2 * e);
  return (C)(in[base + e * str], in[base + e * str + str / 2]);
#elif REAL_IN
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
#if PAIR_OUT
  if (str == 2) {
    vstore2(v, 0, out + base + 2 * e);
  } else {
    out[base + e * str] = v.x;
    out[base + e * str + str / 2] = v.y;
  }
#elif REAL_OUT
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

// Outputs m and q - m of an odd radix q: a + b and a - b.
inline void pair_out(C* v, const uint m, const uint q, const C a, const C b) {
  v[m] = a + b;
  v[q - m] = a - b;
}

// Radix 7 by the conjugate pairs (v_k, v_(7-k)): three cosine sums and
// three sine sums, constants compiled in (no table reads).
inline void dft7(C* v) {
  const T c1 = (T)0.62348980185873353053, c2 = (T)-0.22252093395631440429, c3 = (T)-0.90096886790241912624;
  const T s1 = (T)0.78183148246802980871, s2 = (T)0.97492791218182360702, s3 = (T)0.43388373911755812048;
  const C t1 = v[1] + v[6], t2 = v[2] + v[5], t3 = v[3] + v[4];
  const C d1 = times_minus_i_sign(v[1] - v[6]), d2 = times_minus_i_sign(v[2] - v[5]),
          d3 = times_minus_i_sign(v[3] - v[4]);
  const C a1 = v[0] + c1 * t1 + c2 * t2 + c3 * t3, b1 = s1 * d1 + s2 * d2 + s3 * d3;
  const C a2 = v[0] + c2 * t1 + c3 * t2 + c1 * t3, b2 = s2 * d1 - s3 * d2 - s1 * d3;
  const C a3 = v[0] + c3 * t1 + c1 * t2 + c2 * t3, b3 = s3 * d1 - s1 * d2 + s2 * d3;
  v[0] = v[0] + t1 + t2 + t3;
  pair_out(v, 1, 7, a1, b1);
  pair_out(v, 2, 7, a2, b2);
  pair_out(v, 3, 7, a3, b3);
}

// Any other radix (11, 13) by its definition, its roots from the table.
inline void dft_any(C* v, uint q, __global const C* lo, __global const C* hi, uint shift, ulong n) {
  C w[16], out[16];
  for (uint k = 0; k < q; ++k) w[k] = root(lo, hi, shift, (tw_t)k * (tw_t)(n / q));
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
    case 7: dft7(v); break;
    case 8: dft8(v); break;
    default: dft_any(v, q, lo, hi, shift, n); break;
  }
}

// ---- the packed real transform (rule fft.real-packed) -----------------------
// n = 2N reals x as N complex values z_j = x_2j + i x_2j+1, Z = F_N z. With
// E_k = (Z_k + conj Z_(N-k)) / 2 and O_k = -i (Z_k - conj Z_(N-k)) / 2 (the
// transforms of the even and the odd reals), X_k = E_k + W_n^k O_k and
// X_(N-k) = conj(E_k - W_n^k O_k): a work-item a pair (k, N - k), k <= N / 2,
// each Z read once. The inverse: Z_k = (A + conj B) + i (A - conj B) W_n^-k
// and Z_(N-k) = conj(A + conj B) + i conj((A - conj B) W_n^-k), A = X_k,
// B = X_(N-k) (the imaginary parts of X_0 and X_N taken as 0), so that
// F_N^-1 Z gives x_2j + i x_2j+1 (unnormalised, as the inverse of n).
// Where n / 2 is one specialised stage, its kernel joins (splits) the
// halves in local memory (FFT_REAL_POST, FFT_REAL_PRE; roots from their
// angles); else a launch of its own does (fft_real_post, fft_real_pre;
// roots from a table of n's).

// X_k and X_(N-k) from p = Z_k, q = conj Z_(N-k) and w = W_n^k.
inline void real_join(const C p, const C q, const C w, C* xk, C* xnk) {
  const C e = (T)0.5 * (p + q), o = (T)0.5 * (C)(p.y - q.y, q.x - p.x);
  const C t = cmul(w, o);
  *xk = e + t;
  *xnk = (C)(e.x - t.x, t.y - e.y);  // conj(e - t), an imaginary 0 as +0 (X_0 and X_N)
}

// Z_k and Z_(N-k) from x = X_k, y = conj X_(N-k) and w = W_n^-k.
inline void real_split(const C x, const C y, const C w, C* zk, C* znk) {
  const C e = x + y, t = cmul(x - y, w);
  *zk = e + (C)(-t.y, t.x);
  *znk = conj_c(e) + (C)(t.y, t.x);
}

// ---- a stage ----------------------------------------------------------------

// One radix-q pass over a work-group's slots of r values each: Stockham's
// butterfly (slot s, index i < r / q) reads values i + k r / q,
// twiddles them by W_(nsl q)^((i mod nsl) k) (nsl: the product of the
// earlier passes' radices) and writes its outputs at (i / nsl) nsl q +
// i mod nsl + m nsl.
// The specialised stage reads the pass's roots from its own table `pt`
// (rule fft.pass-twiddles: W_(nsl q)^(im k) at toff + k nsl + im).
inline void butterfly_in(__local const C* src, const uint s, const uint i, const uint q, const uint nsl, const uint r,
                         __global const C* lo, __global const C* hi, const uint shift, const ulong n,
                         __global const C* pt, const uint toff, C* v) {
  const uint span = r / q, im = i % nsl;
  for (uint k = 0; k < q; ++k) v[k] = src[LX(s, i + k * span)];
  if (nsl > 1)
    for (uint k = 1; k < q; ++k) {
#ifdef FFT_INPLACE
      const C w = pt[toff + k * nsl + im];
      v[k] = cmul(v[k], SIGN < 0 ? w : conj_c(w));
#else
      v[k] = cmul(v[k], root(lo, hi, shift, (tw_t)(im * k) * (tw_t)(n / (nsl * q))));
#endif
    }
  dft(v, q, lo, hi, shift, n);
}

inline void butterfly_out(__local C* dst, const uint s, const uint i, const uint q, const uint nsl, const uint r,
                          const C* v) {
  const uint to = (i / nsl) * nsl * q + i % nsl;
  for (uint k = 0; k < q; ++k) dst[LX(s, to + k * nsl)] = v[k];
}

// A pass from one local buffer to the other.
inline void stage_pass(__local const C* src, __local C* dst, const uint q, const uint nsl, const uint r,
                       const uint slots, __global const C* lo, __global const C* hi, const uint shift, const ulong n) {
  for (uint x = get_local_id(0); x < slots * (r / q); x += WG_SIZE) {
    C v[16];
    const uint span = r / q;
    butterfly_in(src, x / span, x % span, q, nsl, r, lo, hi, shift, n, lo, 0, v);
    butterfly_out(dst, x / span, x % span, q, nsl, r, v);
  }
}

// The stage's shape: compiled in where the rules specialise the program
// (fft.specialise: FFT_R, FFT_NS, FFT_N, FFT_SLOTS, FFT_PASSES, each pass's
// FFT_Qk and FFT_Sk, the last's FFT_QL and FFT_SL), so the passes unroll
// and a work-item's values stay in registers; else the arguments.
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

// Where a slot's value lives: its index j in the batch (~0 past the last
// slot) and the first input and output elements of its batch, computed
// once a slot (the batch's offsets take 64-bit divisions).
typedef struct {
  __local const ulong *j, *in, *out;
} SlotInfo;

// Value k of slot s as the stage reads it: element j + k n / r of the
// slot's sequence, twiddled by W_(ns r)^((j mod ns) k); 0 past the last
// slot.
inline C stage_input(__global const T* in, const SlotInfo si, const ulong i_str, const uint s, const uint k,
                     const ulong n, const uint r, const ulong ns, __global const C* lo, __global const C* hi,
                     const uint shift) {
  const ulong j = si.j[s];
  if (j == ~0ul) return (C)((T)0, (T)0);
  const C v = load_element(in, si.in[s], i_str, j + k * (n / r), n);
#ifdef FFT_STAGE_SINCOS
  if (ns > 1 && k) return cmul(v, root_by_angle((j % ns) * k * (n / (ns * r)), n));
#else
  if (ns > 1 && k) return cmul(v, root(lo, hi, shift, (tw_t)(j % ns) * k * (tw_t)(n / (ns * r))));
#endif
  return v;
}

// Output m of slot s to element (j / ns) ns r + j mod ns + m ns.
inline void stage_output(__global T* out, const SlotInfo si, const ulong o_str, const uint s, const uint m,
                         const ulong n, const uint r, const ulong ns, const C v) {
  const ulong j = si.j[s];
  if (j != ~0ul) store_element(out, si.out[s], o_str, (j / ns) * ns * r + j % ns + m * ns, n, v);
}

// The cooperative load into (store from) local memory, in the order rule
// fft.coalescing chose: consecutive work-items on consecutive slots or on
// consecutive values of one slot.
inline void stage_load(__global const T* in, const SlotInfo si, const ulong i_str, const uint slot_first,
                       const ulong n, const uint r, const ulong ns, const uint slots, __global const C* lo,
                       __global const C* hi, const uint shift, __local C* buf) {
  for (uint x = get_local_id(0); x < slots * r; x += WG_SIZE) {
    const uint s = slot_first ? x % slots : x / r, k = slot_first ? x / slots : x % r;
    buf[LX(s, k)] = stage_input(in, si, i_str, s, k, n, r, ns, lo, hi, shift);
  }
}

inline void stage_store(__global T* out, const SlotInfo si, const ulong o_str, const uint slot_first, const ulong n,
                        const uint r, const ulong ns, const uint slots, __local const C* buf) {
  for (uint x = get_local_id(0); x < slots * r; x += WG_SIZE) {
    const uint s = slot_first ? x % slots : x / r, m = slot_first ? x / slots : x % r;
    stage_output(out, si, o_str, s, m, n, r, ns, buf[LX(s, m)]);
  }
}

#ifdef FFT_INPLACE
// In place (GPUs): each work-item holds its butterflies' values in
// registers (at most FFT_VMAX, butterfly b of a pass at v + b q); a pass
// reads them from the buffer and transforms them, and after a barrier
// writes them back where the next pass reads.
#define FFT_ROUNDS(q) ((STAGE_SLOTS * (STAGE_R / (q)) + WG_SIZE - 1) / WG_SIZE)

// Which butterfly work-item x takes in a pass of `span` butterflies a
// slot: along a slot (slot x / span, index x mod span), or across slots
// (slot x mod SLOTS, index x / SLOTS) where the stage's first pass reads
// (its last writes) memory across slots (FFT_DIRECT_IN / FFT_DIRECT_OUT
// 2, rule fft.coalescing): a pass's reads and writes take the same order.
#ifndef FFT_DIRECT_IN
#define FFT_DIRECT_IN 0
#endif
#ifndef FFT_DIRECT_OUT
#define FFT_DIRECT_OUT 0
#endif
#define FFT_ACROSS(k) (((k) == 0 && FFT_DIRECT_IN == 2) || ((k) == FFT_PASSES - 1 && FFT_DIRECT_OUT == 2))
#define BF_SLOT(x, span, across) ((across) ? (x) % STAGE_SLOTS : (x) / (span))
#define BF_INDEX(x, span, across) ((across) ? (x) / STAGE_SLOTS : (x) % (span))

inline void pass_read(__local const C* buf, const uint q, const uint nsl, const int across, __global const C* pt,
                      const uint toff, __global const C* lo, __global const C* hi, const uint shift, C* v) {
  const uint span = STAGE_R / q;
  for (uint b = 0; b < FFT_ROUNDS(q); ++b) {
    const uint x = get_local_id(0) + b * WG_SIZE;
    if (x < STAGE_SLOTS * span)
      butterfly_in(buf, BF_SLOT(x, span, across), BF_INDEX(x, span, across), q, nsl, STAGE_R, lo, hi, shift, STAGE_N,
                   pt, toff, v + b * q);
  }
}

inline void pass_write(__local C* buf, const uint q, const uint nsl, const int across, const C* v) {
  const uint span = STAGE_R / q;
  for (uint b = 0; b < FFT_ROUNDS(q); ++b) {
    const uint x = get_local_id(0) + b * WG_SIZE;
    if (x < STAGE_SLOTS * span)
      butterfly_out(buf, BF_SLOT(x, span, across), BF_INDEX(x, span, across), q, nsl, STAGE_R, v + b * q);
  }
}

#if FFT_PASSES > 0
// The first pass's butterflies read their values from memory (butterfly
// (s, i): values i + k span of slot s), consecutive work-items along a
// slot or across slots (fft.coalescing) ...
inline void direct_read(__global const T* in, const SlotInfo si, const ulong i_str, __global const C* lo,
                        __global const C* hi, const uint shift, C* v) {
  const uint q = FFT_Q0, span = STAGE_R / q;
  for (uint b = 0; b < FFT_ROUNDS(q); ++b) {
    const uint x = get_local_id(0) + b * WG_SIZE;
    if (x < STAGE_SLOTS * span) {
      const uint s = BF_SLOT(x, span, FFT_ACROSS(0)), i = BF_INDEX(x, span, FFT_ACROSS(0));
      for (uint k = 0; k < q; ++k)
        v[b * q + k] = stage_input(in, si, i_str, s, i + k * span, STAGE_N, STAGE_R, STAGE_NS, lo, hi, shift);
      dft(v + b * q, q, lo, hi, shift, STAGE_N);
    }
  }
}

// ... and the last pass's write theirs (outputs i + k span).
inline void direct_write(__global T* out, const SlotInfo si, const ulong o_str, const C* v) {
  const uint q = FFT_QL, span = STAGE_R / q;
  for (uint b = 0; b < FFT_ROUNDS(q); ++b) {
    const uint x = get_local_id(0) + b * WG_SIZE;
    if (x < STAGE_SLOTS * span) {
      const uint s = BF_SLOT(x, span, FFT_ACROSS(FFT_PASSES - 1)), i = BF_INDEX(x, span, FFT_ACROSS(FFT_PASSES - 1));
      for (uint k = 0; k < q; ++k)
        stage_output(out, si, o_str, s, i + k * span, STAGE_N, STAGE_R, STAGE_NS, v[b * q + k]);
    }
  }
}
#endif

#ifdef FFT_REAL_POST
// The packed real transform's halves joined in local memory after the
// stage's last pass, which left Z_m of slot s at LX(s, m) (one stage: the
// slot is the whole sequence of N = FFT_R values), and stored along a slot.
inline void real_post_store(__global T* out, const SlotInfo si, const ulong o_str, __local const C* buf) {
  const uint N = STAGE_R, pairs = N / 2 + 1;
  for (uint x = get_local_id(0); x < STAGE_SLOTS * pairs; x += WG_SIZE) {
    const uint s = x / pairs, k = x % pairs;
    if (si.j[s] == ~0ul) continue;
    C xk, xnk;
    real_join(buf[LX(s, k)], conj_c(buf[LX(s, (N - k) % N)]), root_by_angle(k, 2 * (ulong)N), &xk, &xnk);
    vstore2(xk, si.out[s] + k * o_str, out);
    if (N - k != k) vstore2(xnk, si.out[s] + (N - k) * o_str, out);
  }
}
#endif

#ifdef FFT_REAL_PRE
// The inverse's halves split into local memory before the first pass.
inline void real_pre_load(__global const T* in, const SlotInfo si, const ulong i_str, __local C* buf) {
  const uint N = STAGE_R, pairs = N / 2 + 1;
  for (uint x = get_local_id(0); x < STAGE_SLOTS * pairs; x += WG_SIZE) {
    const uint s = x / pairs, k = x % pairs;
    C zk = (C)((T)0, (T)0), znk = zk;
    if (si.j[s] != ~0ul) {
      C a = vload2(si.in[s] + k * i_str, in), b = conj_c(vload2(si.in[s] + (N - k) * i_str, in));
      if (k == 0) {
        a.y = (T)0;
        b.y = (T)0;
      }
      real_split(a, b, root_by_angle(k, 2 * (ulong)N), &zk, &znk);
    }
    buf[LX(s, k)] = zk;
    if (k && N - k != k) buf[LX(s, N - k)] = znk;
  }
}
#endif

#define FFT_NEXT(a, b)                                      \
  barrier(CLK_LOCAL_MEM_FENCE);                             \
  pass_write(buf_a, FFT_Q##a, FFT_S##a, FFT_ACROSS(a), v);  \
  barrier(CLK_LOCAL_MEM_FENCE);                             \
  pass_read(buf_a, FFT_Q##b, FFT_S##b, FFT_ACROSS(b), pt, FFT_T##b, lo, hi, shift, v);
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
// in_slot_first / out_slot_first: the cooperative load's (store's) order
// (rule fft.coalescing).
__kernel void fft_stage(__global const T* in, ulong i_off, ulong i_str, ulong i_d0, ulong i_d1, ulong i_d2,
                        __global T* out, ulong o_off, ulong o_str, ulong o_d0, ulong o_d1, ulong o_d2, ulong c0,
                        ulong c1, ulong slots_total, ulong n, uint r, ulong ns, ulong radices, uint passes,
                        uint slots, uint in_slot_first, uint out_slot_first, __global const C* lo,
                        __global const C* hi, uint shift, __global const C* pt, __local C* buf_a, __local C* buf_b,
                        __local ulong* slot_info) {
  const uint lid = get_local_id(0);
  const ulong first = (ulong)get_group_id(0) * STAGE_SLOTS;
  const ulong per_batch = STAGE_N / STAGE_R;

  const SlotInfo si = {slot_info, slot_info + STAGE_SLOTS, slot_info + 2 * STAGE_SLOTS};
  for (uint s = lid; s < STAGE_SLOTS; s += WG_SIZE) {
    const ulong g = first + s;
#ifdef FFT_BATCH_MAJOR
    // A column axis (rule fft.columns): neighbouring slots are neighbouring
    // transforms at one index.
    const ulong batches = slots_total / per_batch;
    const ulong b = g % batches;
    slot_info[s] = g < slots_total ? g / batches : ~0ul;
#else
    const ulong b = g / per_batch;
    slot_info[s] = g < slots_total ? g % per_batch : ~0ul;
#endif
    slot_info[STAGE_SLOTS + s] = i_off + batch_offset(b, c0, c1, i_d0, i_d1, i_d2);
    slot_info[2 * STAGE_SLOTS + s] = o_off + batch_offset(b, c0, c1, o_d0, o_d1, o_d2);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

#if defined(FFT_INPLACE) && FFT_PASSES > 0
  C v[FFT_VMAX];
#if FFT_DIRECT_IN
  direct_read(in, si, i_str, lo, hi, shift, v);
#else
#ifdef FFT_REAL_PRE
  real_pre_load(in, si, i_str, buf_a);
#else
  stage_load(in, si, i_str, in_slot_first, STAGE_N, STAGE_R, STAGE_NS, STAGE_SLOTS, lo, hi, shift, buf_a);
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  pass_read(buf_a, FFT_Q0, FFT_S0, FFT_ACROSS(0), pt, FFT_T0, lo, hi, shift, v);
#endif
#if FFT_PASSES > 1
  FFT_NEXT(0, 1)
#endif
#if FFT_PASSES > 2
  FFT_NEXT(1, 2)
#endif
#if FFT_PASSES > 3
  FFT_NEXT(2, 3)
#endif
#if FFT_PASSES > 4
  FFT_NEXT(3, 4)
#endif
#if FFT_PASSES > 5
  FFT_NEXT(4, 5)
#endif
#if FFT_PASSES > 6
  FFT_NEXT(5, 6)
#endif
#if FFT_PASSES > 7
  FFT_NEXT(6, 7)
#endif
#if FFT_PASSES > 8
  FFT_NEXT(7, 8)
#endif
#if FFT_PASSES > 9
  FFT_NEXT(8, 9)
#endif
#if FFT_PASSES > 10
  FFT_NEXT(9, 10)
#endif
#if FFT_PASSES > 11
  FFT_NEXT(10, 11)
#endif
#if FFT_PASSES > 12
#error "fft_stage: at most 12 passes compiled in"
#endif
#if FFT_DIRECT_OUT
  direct_write(out, si, o_str, v);
#else
  barrier(CLK_LOCAL_MEM_FENCE);
  pass_write(buf_a, FFT_QL, FFT_SL, FFT_ACROSS(FFT_PASSES - 1), v);
  barrier(CLK_LOCAL_MEM_FENCE);
#ifdef FFT_REAL_POST
  real_post_store(out, si, o_str, buf_a);
#else
  stage_store(out, si, o_str, out_slot_first, STAGE_N, STAGE_R, STAGE_NS, STAGE_SLOTS, buf_a);
#endif
#endif
#else
#if defined(FFT_REAL_POST) || defined(FFT_REAL_PRE)
#error "fft_stage: the halves of a packed real transform join within the in-place stage only"
#endif
  // Two buffers in turn (or a stage of length 1: no pass).
  stage_load(in, si, i_str, in_slot_first, STAGE_N, STAGE_R, STAGE_NS, STAGE_SLOTS, lo, hi, shift, buf_a);
  barrier(CLK_LOCAL_MEM_FENCE);
  __local C* src = buf_a;
  __local C* dst = buf_b;
  __local C* t;
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
  stage_store(out, si, o_str, out_slot_first, STAGE_N, STAGE_R, STAGE_NS, STAGE_SLOTS, src);
#endif
}

// ---- lanes (CPUs, rule fft.lanes) -------------------------------------------
#ifdef FFT_LANES
// A work-item transforms FFT_LANES sequences of a stage at once: value e of
// all of them is one vector of FFT_LANES lanes (real and imaginary parts
// apart), so each butterfly is the SIMD instruction of every lane. A
// sequence of FFT_LANE_L values stays in private memory (two arrays in
// turn, Stockham's passes as in the stage kernel); its roots come from the
// table. No local memory and no barrier.
#define VL PORTACL_CAT(T, FFT_LANES)

inline void lanes_times_minus_i(VL* re, VL* im) {  // (re + i im) times -i (forward) or +i (inverse)
  const VL r = *re;
  *re = SIGN < 0 ? *im : -*im;
  *im = SIGN < 0 ? -r : r;
}

// dft4_ on the vectors at a, b, c, d.
inline void lanes_dft4(VL* r, VL* i, const uint a, const uint b, const uint c, const uint d) {
  const VL t0r = r[a] + r[c], t0i = i[a] + i[c], t1r = r[a] - r[c], t1i = i[a] - i[c];
  const VL t2r = r[b] + r[d], t2i = i[b] + i[d];
  VL t3r = r[b] - r[d], t3i = i[b] - i[d];
  lanes_times_minus_i(&t3r, &t3i);
  r[a] = t0r + t2r;
  i[a] = t0i + t2i;
  r[c] = t0r - t2r;
  i[c] = t0i - t2i;
  r[b] = t1r + t3r;
  i[b] = t1i + t3i;
  r[d] = t1r - t3r;
  i[d] = t1i - t3i;
}

// The radix-q butterfly on vectors: q = 2, 3, 4, 5 or 8.
inline void lanes_dft(VL* r, VL* i, const uint q) {
  if (q == 2) {
    const VL ar = r[0], ai = i[0];
    r[0] = ar + r[1];
    i[0] = ai + i[1];
    r[1] = ar - r[1];
    i[1] = ai - i[1];
  } else if (q == 4) {
    lanes_dft4(r, i, 0, 1, 2, 3);
  } else if (q == 8) {
    // as dft8: radix 4 on the even and on the odd values, joined by W_8^k
    lanes_dft4(r, i, 0, 2, 4, 6);
    lanes_dft4(r, i, 1, 3, 5, 7);
    const T h = (T)0.70710678118654752440;
    VL wr[4], wi[4];
    wr[0] = r[1];
    wi[0] = i[1];
    wr[1] = h * (r[3] - SIGN * i[3]);
    wi[1] = h * (i[3] + SIGN * r[3]);
    wr[2] = r[5];
    wi[2] = i[5];
    lanes_times_minus_i(&wr[2], &wi[2]);
    wr[3] = -h * (r[7] + SIGN * i[7]);
    wi[3] = h * (SIGN * r[7] - i[7]);
    const VL er[4] = {r[0], r[2], r[4], r[6]}, ei[4] = {i[0], i[2], i[4], i[6]};
    for (uint k = 0; k < 4; ++k) {
      r[k] = er[k] + wr[k];
      i[k] = ei[k] + wi[k];
      r[k + 4] = er[k] - wr[k];
      i[k + 4] = ei[k] - wi[k];
    }
  } else if (q == 3) {
    const T s = (T)0.86602540378443864676;
    const VL tr = r[1] + r[2], ti = i[1] + i[2];
    VL dr = r[1] - r[2], di = i[1] - i[2];
    lanes_times_minus_i(&dr, &di);
    const VL mr = r[0] - (T)0.5 * tr, mi = i[0] - (T)0.5 * ti;
    r[0] += tr;
    i[0] += ti;
    r[1] = mr + s * dr;
    i[1] = mi + s * di;
    r[2] = mr - s * dr;
    i[2] = mi - s * di;
  } else {  // q == 5
    const T c1 = (T)0.30901699437494742410, c2 = (T)-0.80901699437494742410;
    const T s1 = (T)0.95105651629515357212, s2 = (T)0.58778525229247312917;
    const VL t1r = r[1] + r[4], t1i = i[1] + i[4], t2r = r[2] + r[3], t2i = i[2] + i[3];
    VL d1r = r[1] - r[4], d1i = i[1] - i[4], d2r = r[2] - r[3], d2i = i[2] - i[3];
    lanes_times_minus_i(&d1r, &d1i);
    lanes_times_minus_i(&d2r, &d2i);
    const VL ar = r[0] + c1 * t1r + c2 * t2r, ai = i[0] + c1 * t1i + c2 * t2i;
    const VL br = r[0] + c2 * t1r + c1 * t2r, bi = i[0] + c2 * t1i + c1 * t2i;
    const VL pr = s1 * d1r + s2 * d2r, pi = s1 * d1i + s2 * d2i;
    const VL qr = s2 * d1r - s1 * d2r, qi = s2 * d1i - s1 * d2i;
    r[0] += t1r + t2r;
    i[0] += t1i + t2i;
    r[1] = ar + pr;
    i[1] = ai + pi;
    r[4] = ar - pr;
    i[4] = ai - pi;
    r[2] = br + qr;
    i[2] = bi + qi;
    r[3] = br - qr;
    i[3] = bi - qi;
  }
}

// (r0, i0, r1, i1, ...): half a vector's values as complex pairs.
#if FFT_LANES == 16
#define VH PORTACL_CAT(T, 8)
#elif FFT_LANES == 8
#define VH PORTACL_CAT(T, 4)
#else
#define VH PORTACL_CAT(T, 2)
#endif
inline VL lanes_zip(const VH r, const VH i) {
#if FFT_LANES == 16
  return (VL)(r.s0, i.s0, r.s1, i.s1, r.s2, i.s2, r.s3, i.s3, r.s4, i.s4, r.s5, i.s5, r.s6, i.s6, r.s7, i.s7);
#elif FFT_LANES == 8
  return (VL)(r.s0, i.s0, r.s1, i.s1, r.s2, i.s2, r.s3, i.s3);
#else
  return (VL)(r.s0, i.s0, r.s1, i.s1);
#endif
}

// Whether every lane's address is the one before it plus `step` (value k
// of all lanes one run of memory), every lane a slot, as complex values
// stored whole (`whole`: not reals alone, not half a spectrum).
inline int lanes_side_by_side(const int whole, const ulong* at, const ulong step, const ulong first,
                              const ulong slots) {
  if (!whole || first + FFT_LANES > slots) return 0;
  for (uint l = 1; l < FFT_LANES; ++l)
    if (at[l] != at[0] + l * step) return 0;
  return 1;
}

// Whether a lane's values lie closer together (`step` apart) than the
// lanes do: then a lane's whole sequence at a time walks memory in order,
// where value k of every lane at a time would put the lanes' values, a
// sequence apart, in one cache set.
inline int lanes_along(const ulong* at, const ulong step, const ulong first, const ulong slots) {
  return FFT_LANES > 1 && first + 1 < slots && at[1] > at[0] && at[1] - at[0] > step;
}

// A Stockham stage of L = FFT_LANE_L values after stages whose lengths
// multiply to `ns` (NS; FFT_LANE_TWIDDLED: above 1), of a transform of `n`
// (N; L itself for one stage): slot j < N / L of a sequence reads its
// elements j + k N / L, twiddled by W_(NS L)^((j mod NS) k) (the table
// `tw` from `tw_at`: (k - 1) NS + j mod NS, in the forward direction), and
// writes output m at (j / NS) NS L + j mod NS + m NS. A work-item takes
// FFT_LANES slots, one a lane: the same slot of consecutive sequences
// (FFT_LANE_ACROSS: sequences side by side in memory), else consecutive
// slots of a sequence, then of the next. Lanes past the last slot read 0
// and write nothing. FFT_LANE_RADICES: the FFT_LANE_PASSES passes' radices,
// 4 bits each, first lowest. Value k of lane l is scalar k FFT_LANES + l of
// the private arrays.
__kernel void fft_lanes(__global const T* in, ulong i_off, ulong i_str, ulong i_d0, ulong i_d1, ulong i_d2,
                        __global T* out, ulong o_off, ulong o_str, ulong o_d0, ulong o_d1, ulong o_d2, ulong c0,
                        ulong c1, ulong transforms, __global const C* lo, __global const C* hi, uint shift,
                        __global const T* tw, ulong tw_at, ulong n, ulong ns) {
  const ulong per = n / FFT_LANE_L, slots = transforms * per;
  const ulong first = (ulong)get_global_id(0) * FFT_LANES;
  if (first >= slots) return;
  // Each lane's sequence's start, slot, output 0's index, and the
  // addresses of its value 0 and output 0.
  ulong ib[FFT_LANES], ob[FFT_LANES], jl[FFT_LANES], om[FFT_LANES], ia[FFT_LANES], oa[FFT_LANES];
  for (uint l = 0; l < FFT_LANES; ++l) {
    const ulong g = first + l < slots ? first + l : first;
#if FFT_LANE_ACROSS
    const ulong b = g % transforms, j = g / transforms;
#else
    const ulong b = g / per, j = g % per;
#endif
    jl[l] = j;
    ib[l] = i_off + batch_offset(b, c0, c1, i_d0, i_d1, i_d2);
    ob[l] = o_off + batch_offset(b, c0, c1, o_d0, o_d1, o_d2);
    ia[l] = ib[l] + j * i_str;
    om[l] = (j / ns) * ns * FFT_LANE_L + j % ns;
    oa[l] = ob[l] + om[l] * o_str;
  }
  VL ar[FFT_LANE_L], ai[FFT_LANE_L], br[FFT_LANE_L], bi[FFT_LANE_L];
  T tr[FFT_LANES], ti[FFT_LANES];
  // Addresses count complex values, or reals where the input's reals are
  // read as pairs (PAIR_IN: a pair of neighbours where i_str is 2).
  if (lanes_side_by_side(!(REAL_IN || HERM_IN) && (!PAIR_IN || i_str == 2), ia, PAIR_IN ? 2 : 1, first, slots)) {
    for (uint k = 0; k < FFT_LANE_L; ++k) {
      const __global T* p = in + (PAIR_IN ? 1 : 2) * (ia[0] + k * per * i_str);
      const VL a = PORTACL_CAT(vload, FFT_LANES)(0, p), b = PORTACL_CAT(vload, FFT_LANES)(0, p + FFT_LANES);
      ar[k] = (VL)(a.even, b.even);
      ai[k] = (VL)(a.odd, b.odd);
    }
  } else if (lanes_along(ia, per * i_str, first, slots)) {
    T* fr = (T*)ar;
    T* fi = (T*)ai;
    for (uint l = 0; l < FFT_LANES; ++l)
      for (uint k = 0; k < FFT_LANE_L; ++k) {
        const C v =
            first + l < slots ? load_element(in, ib[l], i_str, jl[l] + k * per, n) : (C)((T)0, (T)0);
        fr[k * FFT_LANES + l] = v.x;
        fi[k * FFT_LANES + l] = v.y;
      }
  } else {
    for (uint k = 0; k < FFT_LANE_L; ++k) {
      for (uint l = 0; l < FFT_LANES; ++l) {
        const C v =
            first + l < slots ? load_element(in, ib[l], i_str, jl[l] + k * per, n) : (C)((T)0, (T)0);
        tr[l] = v.x;
        ti[l] = v.y;
      }
      ar[k] = PORTACL_CAT(vload, FFT_LANES)(0, tr);
      ai[k] = PORTACL_CAT(vload, FFT_LANES)(0, ti);
    }
  }
#if FFT_LANE_TWIDDLED
  // The stage's twiddles: a vector load where the lanes' slots are
  // consecutive within NS, one root where they are the same slot.
  ulong jn[FFT_LANES];
  int same = 1;
  for (uint l = 0; l < FFT_LANES; ++l) {
    jn[l] = jl[l] % ns;
    same = same && jn[l] == jn[0];
  }
  const int runs = lanes_side_by_side(1, jn, 1, first, slots);
  for (uint k = 1; k < FFT_LANE_L; ++k) {
    const ulong row = tw_at + (k - 1) * ns;
    VL wr, wi;
    if (runs) {
      const __global T* p = tw + 2 * (row + jn[0]);
      const VL a = PORTACL_CAT(vload, FFT_LANES)(0, p), b = PORTACL_CAT(vload, FFT_LANES)(0, p + FFT_LANES);
      wr = (VL)(a.even, b.even);
      wi = (VL)(a.odd, b.odd);
    } else if (same) {
      wr = (VL)tw[2 * (row + jn[0])];
      wi = (VL)tw[2 * (row + jn[0]) + 1];
    } else {
      for (uint l = 0; l < FFT_LANES; ++l) {
        tr[l] = tw[2 * (row + jn[l])];
        ti[l] = tw[2 * (row + jn[l]) + 1];
      }
      wr = PORTACL_CAT(vload, FFT_LANES)(0, tr);
      wi = PORTACL_CAT(vload, FFT_LANES)(0, ti);
    }
    if (SIGN > 0) wi = -wi;
    const VL t = ar[k] * wr - ai[k] * wi;
    ai[k] = ar[k] * wi + ai[k] * wr;
    ar[k] = t;
  }
#endif
  VL *sr = ar, *si = ai, *dr = br, *di = bi;
  uint nsl = 1;
#pragma unroll
  for (uint p = 0; p < FFT_LANE_PASSES; ++p) {
    const uint q = (uint)((ulong)FFT_LANE_RADICES >> (4 * p)) & 15u, span = FFT_LANE_L / q;
    for (uint x = 0; x < span; ++x) {
      const uint im = x % nsl, to = (x / nsl) * nsl * q + im;
      VL vr[8], vi[8];
#pragma unroll
      for (uint k = 0; k < q; ++k) {
        vr[k] = sr[x + k * span];
        vi[k] = si[x + k * span];
        if (nsl > 1 && k) {
          const C w = root(lo, hi, shift, (tw_t)(im * k) * (tw_t)per * (tw_t)(FFT_LANE_L / (nsl * q)));
          const VL t = vr[k] * w.x - vi[k] * w.y;
          vi[k] = vr[k] * w.y + vi[k] * w.x;
          vr[k] = t;
        }
      }
      lanes_dft(vr, vi, q);
#pragma unroll
      for (uint k = 0; k < q; ++k) {
        dr[to + k * nsl] = vr[k];
        di[to + k * nsl] = vi[k];
      }
    }
    VL* t = sr;
    sr = dr;
    dr = t;
    t = si;
    si = di;
    di = t;
    nsl *= q;
  }
  const ulong o_step = ns * o_str;
  if (lanes_side_by_side(!(REAL_OUT || HALF_OUT) && (!PAIR_OUT || o_str == 2), oa, PAIR_OUT ? 2 : 1, first,
                         slots)) {
    for (uint m = 0; m < FFT_LANE_L; ++m) {
      __global T* p = out + (PAIR_OUT ? 1 : 2) * (oa[0] + m * o_step);
      PORTACL_CAT(vstore, FFT_LANES)(lanes_zip(sr[m].lo, si[m].lo), 0, p);
      PORTACL_CAT(vstore, FFT_LANES)(lanes_zip(sr[m].hi, si[m].hi), 0, p + FFT_LANES);
    }
  } else if (lanes_along(oa, o_step, first, slots)) {
    const T* fr = (const T*)sr;
    const T* fi = (const T*)si;
    for (uint l = 0; l < FFT_LANES; ++l)
      if (first + l < slots)
        for (uint m = 0; m < FFT_LANE_L; ++m)
          store_element(out, ob[l], o_str, om[l] + m * ns, n,
                        (C)(fr[m * FFT_LANES + l], fi[m * FFT_LANES + l]));
  } else {
    for (uint m = 0; m < FFT_LANE_L; ++m) {
      PORTACL_CAT(vstore, FFT_LANES)(sr[m], 0, tr);
      PORTACL_CAT(vstore, FFT_LANES)(si[m], 0, ti);
      for (uint l = 0; l < FFT_LANES; ++l)
        if (first + l < slots)
          store_element(out, ob[l], o_str, om[l] + m * ns, n,
                        (C)(tr[l], ti[l]));
    }
  }
}
#endif

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


// ---- the packed real transform's joining and splitting launches (rule fft.real-packed) ----
// Where the halves do not join within the stage (n / 2 takes several stages).

// X_k, k <= N, from a[b N + k] (the packed temporary).
__kernel void fft_real_post(__global const C* a, ulong batches, ulong n, __global const C* lo, __global const C* hi,
                            uint shift, __global T* out, ulong o_off, ulong o_str, ulong o_d0, ulong o_d1, ulong o_d2,
                            ulong c0, ulong c1) {
  const ulong N = n / 2, pairs = N / 2 + 1;
  PORTACL_FOR_UNITS(idx, batches * pairs) {
    const ulong b = idx / pairs, k = idx % pairs;
    C xk, xnk;
    real_join(a[b * N + k], conj_c(a[b * N + (N - k) % N]), root(lo, hi, shift, (tw_t)k), &xk, &xnk);
    const ulong base = o_off + batch_offset(b, c0, c1, o_d0, o_d1, o_d2);
    vstore2(xk, base + k * o_str, out);
    if (N - k != k) vstore2(xnk, base + (N - k) * o_str, out);
  }
}

// Z_k, k < N, into a[b N + k] from the half spectrum.
__kernel void fft_real_pre(__global const T* in, ulong i_off, ulong i_str, ulong i_d0, ulong i_d1, ulong i_d2,
                           ulong c0, ulong c1, ulong batches, ulong n, __global const C* lo, __global const C* hi,
                           uint shift, __global C* a) {
  const ulong N = n / 2, pairs = N / 2 + 1;
  PORTACL_FOR_UNITS(idx, batches * pairs) {
    const ulong b = idx / pairs, k = idx % pairs;
    const ulong base = i_off + batch_offset(b, c0, c1, i_d0, i_d1, i_d2);
    C x = vload2(base + k * i_str, in), y = conj_c(vload2(base + (N - k) * i_str, in));
    if (k == 0) {
      x.y = (T)0;
      y.y = (T)0;
    }
    C zk, znk;
    real_split(x, y, root(lo, hi, shift, (tw_t)k), &zk, &znk);
    a[b * N + k] = zk;
    if (k && N - k != k) a[b * N + N - k] = znk;
  }
}
