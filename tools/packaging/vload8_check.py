# SPDX-License-Identifier: Apache-2.0
"""A driver check without portacl: eight doubles by vload8, summed, against NumPy.

Run with pyopencl on the default platform (OCL_ICD_VENDORS picks the
driver). PyPI's pocl-binary-distribution 3.0 (PoCL 3.0-rc2) fails it on a
Zen 4 machine where Debian 12's PoCL 3.1 passes
(docs/bench/python_pip_pocl_2026-11-29.txt)."""
import numpy as np, pyopencl as cl
ctx = cl.Context(cl.get_platforms()[0].get_devices())
print(ctx.devices[0].name, ctx.devices[0].driver_version)
q = cl.CommandQueue(ctx)
src = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void s(__global const double* x, __global double* out) {
  const size_t i = get_global_id(0);
  double8 v = vload8(i, x);
  out[i] = v.s0 + v.s1 + v.s2 + v.s3 + v.s4 + v.s5 + v.s6 + v.s7;
}
__kernel void t(__global const double* x, __global double* out) {
  const size_t i = get_global_id(0);
  double8 acc = (double8)(0.0);
  for (int k = 0; k < 4; ++k) acc += vload8(i * 4 + k, x);
  double2 h = acc.s01 + acc.s23; double2 g = acc.s45 + acc.s67;
  out[i] = h.x + h.y + g.x + g.y;
}
"""
prg = cl.Program(ctx, src).build()
x = np.arange(8 * 64, dtype=np.float64)
xb = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=x)
out = np.zeros(64); ob = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, out.nbytes)
prg.s(q, (64,), (8,), xb, ob); cl.enqueue_copy(q, out, ob)
print("vload8 sums right:", np.array_equal(out, x.reshape(64, 8).sum(1)))
out2 = np.zeros(16); ob2 = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, out2.nbytes)
prg.t(q, (16,), (8,), xb, ob2); cl.enqueue_copy(q, out2, ob2)
print("vload8 accumulate right:", np.array_equal(out2, x.reshape(16, 32).sum(1)), out2[:3], x.reshape(16,32).sum(1)[:3])
