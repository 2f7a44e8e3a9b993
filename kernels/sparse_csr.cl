// SPDX-License-Identifier: Apache-2.0
// y = alpha * A x + beta * y for A in compressed sparse rows, in the
// variants the SpMV choice picks from (see sparse_spmv.cpp). The host
// defines ROW_T, the row pointers' type: uint, or ulong when the matrix
// holds 2^31 or more entries, and ROW_LIST 1 when the kernel works through
// a list of row numbers (one length bin of the adaptive variant) instead
// of every row. beta == 0 never reads y (BLAS: NaN in y must not
// propagate); the host handles alpha == 0 without reading A or x. An empty
// row gives beta * y. No work-item returns before a barrier, and no code
// relies on lanes running in lock step.
#include "portacl_common.cl"

#ifndef ROW_LIST
#define ROW_LIST 0
#endif
#if ROW_LIST
#define ROW_OF(r) ((size_t)row_list[r])
#else
#define ROW_OF(r) (r)
#endif

#define CSR_STORE(i, sum) y[i] = beta == (T)0 ? alpha * (sum) : alpha * (sum) + beta * y[i]

// scalar: one work-item per row, rows shared out by the plan (contiguous
// chunks on CPUs, a grid stride elsewhere).
__kernel void csr_scalar(const ulong rows, __global const uint* row_list, __global const ROW_T* row_ptr,
                         __global const uint* col, __global const T* val, __global const T* x, const T alpha,
                         const T beta, __global T* y) {
  PORTACL_FOR_UNITS(r, rows) {
    const size_t i = ROW_OF(r);
    T sum = (T)0;
    const ROW_T end = row_ptr[i + 1];
    for (ROW_T k = row_ptr[i]; k < end; ++k) sum = fma(val[k], x[col[k]], sum);
    CSR_STORE(i, sum);
  }
}

#ifndef TEAM
#define TEAM 32
#endif
#ifndef TEAM_SHUFFLE
#define TEAM_SHUFFLE 0
#endif

#if TEAM_SHUFFLE
// NVIDIA's warp shuffle (inline PTX, NVIDIA's own compiler only): a
// butterfly within the team in registers. Teams are aligned slices of a
// warp, so every xor partner is in the same team.
inline T team_shuffle_xor(T v, uint mask) {
  union {
    T t;
    uint w[(sizeof(T) + 3) / 4];
  } in, out;
  in.t = v;
  for (uint k = 0; k < (sizeof(T) + 3) / 4; ++k)
    __asm__ volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(out.w[k]) : "r"(in.w[k]), "r"(mask));
  return out.t;
}
#endif

// vector: a team of TEAM work-items per row (a warp, a wavefront, or a
// slice sized to the mean row length), reading the row's consecutive
// entries together; the team adds its partial sums by a butterfly, so every
// lane ends with the row's sum. Every work-item of a group runs the same
// number of row blocks, so all reach every barrier.
__kernel void csr_team(const ulong rows, __global const uint* row_list, __global const ROW_T* row_ptr,
                       __global const uint* col, __global const T* val, __global const T* x, const T alpha,
                       const T beta, __global T* y) {
#if !TEAM_SHUFFLE
  __local T part[WG_SIZE];
#endif
  const uint lid = get_local_id(0), lane = lid % TEAM, team = lid / TEAM;
  const size_t teams = WG_SIZE / TEAM;
  for (size_t base = get_group_id(0) * teams; base < rows; base += get_num_groups(0) * teams) {
    const size_t r = base + team;
    const bool live = r < rows;
    const size_t i = live ? ROW_OF(r) : 0;
    const ROW_T end = live ? row_ptr[i + 1] : 0;
    T sum = (T)0;
    for (ROW_T k = (live ? row_ptr[i] : 0) + lane; k < end; k += TEAM) sum = fma(val[k], x[col[k]], sum);
    for (uint s = TEAM / 2; s > 0; s >>= 1) {
#if TEAM_SHUFFLE
      sum += team_shuffle_xor(sum, s);
#else
      part[lid] = sum;
      barrier(CLK_LOCAL_MEM_FENCE);
      sum += part[lid ^ s];
      barrier(CLK_LOCAL_MEM_FENCE);
#endif
    }
    if (live && lane == 0) CSR_STORE(i, sum);
  }
}

#ifndef BLOCK_ENTRIES
#define BLOCK_ENTRIES (4 * WG_SIZE)
#endif
#ifndef SEGMENT_ENTRIES
#define SEGMENT_ENTRIES (8 * BLOCK_ENTRIES)
#endif

// block: the work is cut into units of about equal entries, so every
// work-group's share is about equal whatever the row lengths. Units
// [0, segments) are pieces of SEGMENT_ENTRIES of rows longer than
// BLOCK_ENTRIES (a long row is cut into several, each summed by a whole
// group into partial[s]; nothing is staged, so a piece can be longer than
// a block and its reduction is paid less often; in a single pass
// (LONG_ROWS_SINGLE_PASS, the plan's passes) the group finishing a row's
// last piece adds them up, else csr_long_rows does in a second launch; either adds
// a row's pieces up in order, so the sum does not depend on timing). Unit
// segments + b is the block of short rows [block_rows[b], block_rows[b +
// 1]) (the host cuts them so; a long row makes a block of its own, left to
// its segments). The group reads a block's entries once, neighbouring
// work-items reading neighbouring entries, and keeps the products val * x
// in local memory; then each work-item adds up whole rows from there.
// (Short rows read one per work-item touch as many cache lines as entries;
// staged, they cost one coalesced pass.)
#ifndef LONG_ROWS_SINGLE_PASS
#define LONG_ROWS_SINGLE_PASS 0
#endif
// UNIFORM_BARRIERS 1 (quirk pocl.barrier-loop-in-branch): every work-group
// enters both the piece's and the block's part of a unit, doing the work of
// its own kind only, so that no loop of barriers sits in a branch some
// groups skip (PoCL 5's work-group compiler aborts on this kernel's
// branches otherwise). 0: each group enters its own part only. The default
// is the safe form: PoCL compiles every kernel of a program it builds, so
// csr_block is compiled, with another kernel's macros, wherever csr_scalar
// or csr_team runs; csr_block's own plan says 0 where it may.
#ifndef UNIFORM_BARRIERS
#define UNIFORM_BARRIERS 1
#endif
__kernel void csr_block(const ulong blocks, __global const ulong* block_rows, const ulong segments,
                        __global const ulong* segment_first, __global const uint* segment_long,
                        __global const uint* long_row, __global const uint* first_segment, __global T* partial,
                        __global uint* pieces_done, __global const ROW_T* restrict row_ptr,
                        __global const uint* restrict col, __global const T* restrict val, __global const T* restrict x,
                        const T alpha, const T beta, __global T* y) {
  __local T products[BLOCK_ENTRIES];
  __local T part[WG_SIZE];
  __local uint last_piece;
  const uint lid = get_local_id(0);
  for (size_t g = get_group_id(0); g < segments + blocks; g += get_num_groups(0)) {
    const bool piece = g < segments;
    if (UNIFORM_BARRIERS || piece) {
      const uint l = piece ? segment_long[g] : 0;  // the long row this piece is of
      T sum = (T)0;
      if (piece) {
        const ROW_T start = segment_first[g];
        const ROW_T stop = min((ROW_T)(start + SEGMENT_ENTRIES), row_ptr[long_row[l] + 1]);
        // Unrolled, so that a work-item has several gathers in flight.
#pragma unroll 8
        for (ROW_T k = start + lid; k < stop; k += WG_SIZE) sum = fma(val[k], x[col[k]], sum);
      }
      part[lid] = sum;
      barrier(CLK_LOCAL_MEM_FENCE);
      // Halving, which also works for sizes that are not powers of two.
      for (uint active = WG_SIZE; active > 1;) {
        const uint upper = (active + 1) / 2;
        if (lid < active - upper) part[lid] += part[lid + upper];
        barrier(CLK_LOCAL_MEM_FENCE);
        active = upper;
      }
#if LONG_ROWS_SINGLE_PASS
      // The group that finishes a row's last piece (an atomic count per
      // row) adds the row's pieces up in order: no second launch.
      if (piece && lid == 0) {
        partial[g] = part[0];
        publish_partial();
        last_piece = atomic_inc(&pieces_done[l]) == first_segment[l + 1] - first_segment[l] - 1;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (piece && last_piece && lid == 0) {
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        volatile __global T* pieces = (volatile __global T*)partial;  // around the first-level caches
        T row = (T)0;
        for (uint p = first_segment[l]; p < first_segment[l + 1]; ++p) row += pieces[p];
        CSR_STORE(long_row[l], row);
        pieces_done[l] = 0u;  // ready for the next product
      }
#else
      if (piece && lid == 0) partial[g] = part[0];
#endif
#if UNIFORM_BARRIERS
      barrier(CLK_LOCAL_MEM_FENCE);  // part[] is written again below
#endif
    }
    if (UNIFORM_BARRIERS || !piece) {
      const size_t b = piece ? 0 : g - segments, first = piece ? 0 : block_rows[b], last = piece ? 0 : block_rows[b + 1];
      const ROW_T start = row_ptr[first], stop = row_ptr[last];
      // One long row makes a block of its own: its segments take it.
      const bool staged = !piece && stop - start <= BLOCK_ENTRIES;
      if (UNIFORM_BARRIERS || staged) {
        // A fixed count per work-item (BLOCK_ENTRIES is a multiple of the
        // work-group), unrolled: every gather of the unit is in flight at once.
#pragma unroll
        for (uint j = 0; j < BLOCK_ENTRIES / WG_SIZE; ++j) {
          const ROW_T k = start + lid + j * WG_SIZE;
          if (staged && k < stop) products[k - start] = val[k] * x[col[k]];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // A team of work-items per row, as many as the block's rows leave
        // (a power of two): a block of a few long rows is not summed by a
        // few work-items walking hundreds of products each.
        const size_t rows_here = staged ? last - first : WG_SIZE;
        uint team = 1;
        while (team * 2 * rows_here <= WG_SIZE) team *= 2;
        const uint lane = lid % team;
        for (size_t i = first + lid / team; staged && i < last; i += WG_SIZE / team) {
          T row = (T)0;
          const ROW_T end = row_ptr[i + 1] - start;
          for (ROW_T k = row_ptr[i] - start + lane; k < end; k += team) row += products[k];
          if (team == 1)
            CSR_STORE(i, row);
          else
            part[lid] = row;
        }
        // The teams' sums: a loop of barriers every group runs the same
        // number of times under UNIFORM_BARRIERS (s from WG_SIZE / 2 down,
        // adding only below the team's size), else log2(team) times.
        if (UNIFORM_BARRIERS || team > 1) {
          barrier(CLK_LOCAL_MEM_FENCE);
          for (uint s = (UNIFORM_BARRIERS ? WG_SIZE : team) / 2; s > 0; s >>= 1) {
            if (s < team && lane < s && lid + s < WG_SIZE) part[lid] += part[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
          }
          const size_t i = first + lid / team;
          if (team > 1 && lane == 0 && i < last) CSR_STORE(i, part[lid]);
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // products[] and part[] are reused by the next unit
  }
}

// The long rows' second pass: work-item l adds the partial sums of long row
// long_row[l] (its segments [first_segment[l], first_segment[l + 1])) in
// order and stores the row.
__kernel void csr_long_rows(const ulong long_rows, __global const uint* long_row, __global const uint* first_segment,
                            __global const T* partial, const T alpha, const T beta, __global T* y) {
  for (size_t l = get_global_id(0); l < long_rows; l += get_global_size(0)) {
    T row = (T)0;
    for (uint s = first_segment[l]; s < first_segment[l + 1]; ++s) row += partial[s];
    CSR_STORE(long_row[l], row);
  }
}

// cpu: work-item u takes the rows [chunk_rows[u], chunk_rows[u + 1]), whose
// entries are about equal in number across work-items (no local memory, no
// barriers), and walks each row in vectors of VW entries.
__kernel void csr_chunks(const ulong chunks, __global const ulong* chunk_rows, __global const ROW_T* row_ptr,
                         __global const uint* col, __global const T* val, __global const T* x, const T alpha,
                         const T beta, __global T* y) {
  for (size_t u = get_global_id(0); u < chunks; u += get_global_size(0)) {
    const size_t last = chunk_rows[u + 1];
    for (size_t i = chunk_rows[u]; i < last; ++i) {
      ROW_T k = row_ptr[i];
      const ROW_T end = row_ptr[i + 1];
      T sum = (T)0;
#if VW > 1
      VT vsum = (VT)0;
      // Vectors from the row's first multiple of VW; the head and the tail
      // go one by one.
      const ROW_T head = min(end, (k + VW - 1) / VW * VW);
      for (; k < head; ++k) sum = fma(val[k], x[col[k]], sum);
      for (; k + VW <= end; k += VW) {
        const PORTACL_CAT(uint, VW) c = PORTACL_CAT(vload, VW)(0, col + k);
        VT xs;
#if VW == 2
        xs = (VT)(x[c.s0], x[c.s1]);
#elif VW == 4
        xs = (VT)(x[c.s0], x[c.s1], x[c.s2], x[c.s3]);
#elif VW == 8
        xs = (VT)(x[c.s0], x[c.s1], x[c.s2], x[c.s3], x[c.s4], x[c.s5], x[c.s6], x[c.s7]);
#else
#error "csr_chunks: vector width must be 1, 2, 4 or 8"
#endif
        vsum = fma(VLOAD(0, val + k), xs, vsum);
      }
      T lanes[VW];
      VSTORE(vsum, 0, lanes);
      for (uint l = 0; l < VW; ++l) sum += lanes[l];
#endif
      for (; k < end; ++k) sum = fma(val[k], x[col[k]], sum);
      CSR_STORE(i, sum);
    }
  }
}
