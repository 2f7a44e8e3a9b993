// SPDX-License-Identifier: Apache-2.0
// What the neighbour-list kernels share with the kernels that read the
// lists: where neighbour k of particle i is stored (rule
// particles.list-slots: k * n + i with SLOTS_BY_K 1, else i * capacity + k;
// the includer has `n` and `capacity` in scope) and the minimum image of a
// separation in the periodic box.
#ifndef PORTACL_NEIGHBOUR_SLOTS_CL
#define PORTACL_NEIGHBOUR_SLOTS_CL

#if SLOTS_BY_K
#define SLOT(i, k) ((size_t)(k) * n + (i))
#else
#define SLOT(i, k) ((size_t)(i) * capacity + (k))
#endif

// A macro as well, for float3 and double3 alike (OpenCL C has no overloads
// of user functions).
#define MINIMUM_IMAGE(d, box) ((d) - (box) * rint((d) / (box)))
inline float3 minimum_image(float3 d, float3 box) { return MINIMUM_IMAGE(d, box); }

#endif
