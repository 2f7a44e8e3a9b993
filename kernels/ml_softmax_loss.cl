// SPDX-License-Identifier: Apache-2.0
// Softmax cross-entropy and the predicted class (src/kernels/ml/
// softmax_loss.cpp): a work-item a sample, its row of `classes` logits.
//   softmax_cross_entropy  loss_i = log sum_j exp(z_j - max) - (z_label -
//                          max), the stable form; with WRITE_GRAD the
//                          gradient of the mean loss, (softmax_j -
//                          [j = label]) / batch. A label
//                          outside 0 .. classes - 1 writes loss -1 (no
//                          real loss is negative) for the host to name.
//   row_argmax             the first largest logit of each row.
#include "portacl_common.cl"

__kernel void softmax_cross_entropy(const uint batch, const uint classes, __global const float* logits,
                                    __global const int* labels, __global float* losses, __global float* grad) {
  const uint i = get_global_id(0);
  if (i >= batch) return;
  __global const float* z = logits + (size_t)i * classes;
  const int label = labels[i];
  if (label < 0 || label >= (int)classes) {
    losses[i] = -1.0f;
    return;
  }
  float top = z[0];
  for (uint j = 1; j < classes; ++j) top = fmax(top, z[j]);
  float sum = 0.0f;
  for (uint j = 0; j < classes; ++j) sum += exp(z[j] - top);
  losses[i] = log(sum) - (z[label] - top);
#if WRITE_GRAD
  const float scale = 1.0f / (sum * (float)batch), hit = 1.0f / (float)batch;
  __global float* g = grad + (size_t)i * classes;
  for (uint j = 0; j < classes; ++j) g[j] = exp(z[j] - top) * scale - ((int)j == label ? hit : 0.0f);
#endif
}

__kernel void row_argmax(const uint rows, const uint cols, __global const float* m, __global int* out) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  __global const float* row = m + (size_t)i * cols;
  uint best = 0;
  for (uint j = 1; j < cols; ++j)
    if (row[j] > row[best]) best = j;
  out[i] = (int)best;
}
