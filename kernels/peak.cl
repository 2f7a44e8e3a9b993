// SPDX-License-Identifier: Apache-2.0
// The device's arithmetic ceiling: eight independent chains of dependent
// FMAs per work-item (enough to hide the FMA latency), in VT vectors so CPUs
// use their whole SIMD width. The result is stored so nothing is optimised
// away. Flops per work-item: 2 * 8 * VW * iterations.
#include "portacl_common.cl"

__kernel void fma_peak(const uint iterations, const T seed, __global T* out) {
  const VT b = (VT)(seed * (T)0.999), c = (VT)((T)0.001);
  VT a0 = (VT)(seed + (T)get_global_id(0)), a1 = a0 + (VT)1, a2 = a0 + (VT)2, a3 = a0 + (VT)3;
  VT a4 = a0 + (VT)4, a5 = a0 + (VT)5, a6 = a0 + (VT)6, a7 = a0 + (VT)7;
  for (uint i = 0; i < iterations; ++i) {
    a0 = fma(a0, b, c); a1 = fma(a1, b, c); a2 = fma(a2, b, c); a3 = fma(a3, b, c);
    a4 = fma(a4, b, c); a5 = fma(a5, b, c); a6 = fma(a6, b, c); a7 = fma(a7, b, c);
  }
  const VT s = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
#if VW == 1
  out[get_global_id(0)] = s;
#else
  T lanes[VW];
  VSTORE(s, 0, lanes);
  T total = 0;
  for (uint k = 0; k < VW; ++k) total += lanes[k];
  out[get_global_id(0)] = total;
#endif
}
