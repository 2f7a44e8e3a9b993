// SPDX-License-Identifier: Apache-2.0
// Shared definitions for every portacl kernel. The host passes the plan's
// choices as macros: T (element type), VW (vector width), WG_SIZE, WG_X/Y/Z,
// USE_LOCAL_MEMORY, BARRIER_FREE.
#ifndef PORTACL_COMMON_CL
#define PORTACL_COMMON_CL

#ifdef PORTACL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef T
#error "portacl kernels need -DT=<element type>"
#endif
// Knobs the planner always sets have no default here: one place decides them.
#ifndef VW
#error "portacl kernels need -DVW=<vector width> (set by the planner)"
#endif

#define PORTACL_CAT_(a, b) a##b
#define PORTACL_CAT(a, b) PORTACL_CAT_(a, b)

// VT is T widened to VW lanes; VLOAD/VSTORE move VW consecutive elements
// from element offset i*VW. vloadn/vstoren need only element alignment, so
// buffers with arbitrary offsets work.
#if VW == 1
#define VT T
#define VLOAD(i, p) ((p)[(i)])
#define VSTORE(v, i, p) ((p)[(i)] = (v))
#else
#define VT PORTACL_CAT(T, VW)
#define VLOAD(i, p) PORTACL_CAT(vload, VW)((i), (p))
#define VSTORE(v, i, p) PORTACL_CAT(vstore, VW)((v), (i), (p))
#endif

// The sum of a VT's lanes, in lane order.
inline T sum_lanes(const VT v) {
#if VW == 1
  return v;
#else
  T lanes[VW];
  VSTORE(v, 0, lanes);
  T sum = lanes[0];
  for (uint l = 1; l < VW; ++l) sum += lanes[l];
  return sum;
#endif
}

#ifndef NV_MEMBAR
#define NV_MEMBAR 0
#endif

// Orders this work-item's global accesses device-wide: before its ticket is
// taken or its status published (a writer), after it has seen another's
// ticket or status (a reader). OpenCL 1.2's mem_fence orders them within the
// work-group only, and NVIDIA's compiler makes it a work-group-scope
// membar: NV_MEMBAR (1 where NVIDIA's own compiler builds the kernel, set
// from the device that runs it, not from the plan's class) adds membar.gl.
inline void publish_partial(void) {
  mem_fence(CLK_GLOBAL_MEM_FENCE);
#if NV_MEMBAR
  __asm__ volatile("membar.gl;" ::: "memory");
#endif
}

// Visits units 0..count-1 spread over the whole grid. CPUs (CHUNKED) give
// each work-item one contiguous chunk, so a core streams consecutive cache
// lines: count / G units each and one more for the first count % G work-
// items (G the grid), so every work-group has work. (Chunks of
// ceil(count / G) left the last work-groups empty, and PoCL hands a
// thread its work-groups in runs: heat 4096^2 on 20 groups of 64 took
// 6.1-6.8 ms a step against 5.0-5.3 on 16 or 32.) GPUs stride by the grid
// so neighbouring work-items touch neighbouring addresses (coalescing).
#ifndef CHUNKED
#define CHUNKED 0
#endif
#if CHUNKED
#define PORTACL_FOR_UNITS(i, count)                                                                             \
  for (size_t i##_q = (size_t)(count) / get_global_size(0), i##_r = (size_t)(count) % get_global_size(0),       \
              i##_id = get_global_id(0), i = i##_id * i##_q + min(i##_id, i##_r), i##_end = i + i##_q + (i##_id < i##_r); \
       i < i##_end; ++i)
#else
#define PORTACL_FOR_UNITS(i, count) for (size_t i = get_global_id(0); i < (size_t)(count); i += get_global_size(0))
#endif

// x += v on a global float by a compare-and-swap loop: every OpenCL 1.2
// device has 32-bit atomic_cmpxchg, none a float atomic add. The order of
// the additions is not fixed, so neither are the roundings.
inline void atomic_add_float(volatile __global float* p, float v) {
  union {
    uint u;
    float f;
  } seen, next;
  do {
    seen.f = *p;
    next.f = seen.f + v;
  } while (atomic_cmpxchg((volatile __global uint*)p, seen.u, next.u) != seen.u);
}

#endif  // PORTACL_COMMON_CL
