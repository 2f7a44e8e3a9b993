// SPDX-License-Identifier: Apache-2.0
// Stochastic gradient descent with momentum and weight decay (src/kernels/
// ml/sgd.cpp), as PyTorch's SGD applies them:
//   g' = scale g + decay w;  v = momentum v + g';  w = w - rate v.
// `scale` turns gradients summed over replicas into their mean.
#include "portacl_common.cl"

__kernel void sgd_momentum(const uint count, const float rate, const float momentum, const float decay,
                           const float scale, __global float* w, __global const float* g, __global float* v) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const float step = fma(scale, g[i], decay * w[i]);
  const float velocity = fma(momentum, v[i], step);
  v[i] = velocity;
  w[i] -= rate * velocity;
}
