// y = a*x + y over n elements. The plan picks VW, the work-group size and how
// many work-groups run; each work-item strides over whole vectors, then the
// n % VW tail elements are done one by one, so any n works.
#include "portacl_common.cl"

__kernel void axpy(const ulong n, const T a, __global const T* restrict x, __global T* restrict y) {
  const size_t gid = get_global_id(0);
  const size_t stride = get_global_size(0);
  const size_t nvec = n / VW;
  for (size_t i = gid; i < nvec; i += stride) {
    const VT xv = VLOAD(i, x);
    const VT yv = VLOAD(i, y);
    VSTORE(a * xv + yv, i, y);
  }
  for (size_t j = nvec * VW + gid; j < n; j += stride) y[j] = a * x[j] + y[j];
}
