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
#ifndef VW
#define VW 1
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

#endif  // PORTACL_COMMON_CL
