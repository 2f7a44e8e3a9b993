// SPDX-License-Identifier: Apache-2.0
// The host references of the training pieces, shared by the tests, the
// tuner and portacl-bench, in double: the dense layer forward and
// backward, softmax cross-entropy and its gradient, an SGD step, and the
// small network's loss and gradients composed from them and the
// convolution and pooling references.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "ml_conv_layer_reference.hpp"
#include "ml_pooling_reference.hpp"
#include "portacl/ml.hpp"

namespace portacl::reference {

// y = act(x W^T + b); `bias` may be null.
template <class X, class B>
std::vector<double> dense_forward(const DenseShape& s, const std::vector<X>& x, const std::vector<float>& w,
                                  const std::vector<B>* bias, bool relu) {
  std::vector<double> y(s.batch * s.outputs);
  for (std::size_t n = 0; n < s.batch; ++n)
    for (std::size_t k = 0; k < s.outputs; ++k) {
      double sum = bias ? double((*bias)[k]) : 0.0;
      for (std::size_t i = 0; i < s.inputs; ++i) sum += double(x[n * s.inputs + i]) * double(w[k * s.inputs + i]);
      y[n * s.outputs + k] = relu ? std::max(sum, 0.0) : sum;
    }
  return y;
}

struct DenseGradientsReference {
  std::vector<double> input, weights, bias;
};
// The gradients for dy, masked where the forward output `y` (if given) was
// cut by a ReLU.
template <class X, class G, class Y>
DenseGradientsReference dense_backward(const DenseShape& s, const std::vector<X>& x, const std::vector<float>& w,
                                       const std::vector<G>& dy, const std::vector<Y>* y) {
  DenseGradientsReference g;
  g.input.assign(s.batch * s.inputs, 0.0);
  g.weights.assign(s.outputs * s.inputs, 0.0);
  g.bias.assign(s.outputs, 0.0);
  for (std::size_t n = 0; n < s.batch; ++n)
    for (std::size_t k = 0; k < s.outputs; ++k) {
      const std::size_t at = n * s.outputs + k;
      const double d = y && !(double((*y)[at]) > 0.0) ? 0.0 : double(dy[at]);
      g.bias[k] += d;
      for (std::size_t i = 0; i < s.inputs; ++i) {
        g.weights[k * s.inputs + i] += d * double(x[n * s.inputs + i]);
        g.input[n * s.inputs + i] += d * double(w[k * s.inputs + i]);
      }
    }
  return g;
}

struct SoftmaxLossReference {
  double loss = 0;           // the batch's mean
  std::vector<double> grad;  // of the mean loss, batch x classes
};
template <class Z>
SoftmaxLossReference softmax_cross_entropy(std::size_t batch, std::size_t classes, const std::vector<Z>& logits,
                                           const std::vector<int>& labels) {
  SoftmaxLossReference r;
  r.grad.assign(batch * classes, 0.0);
  for (std::size_t n = 0; n < batch; ++n) {
    const auto row = logits.begin() + std::ptrdiff_t(n * classes);
    double top = double(*std::max_element(row, row + std::ptrdiff_t(classes))), sum = 0;
    for (std::size_t j = 0; j < classes; ++j) sum += std::exp(double(row[std::ptrdiff_t(j)]) - top);
    r.loss += std::log(sum) - (double(row[labels[n]]) - top);
    for (std::size_t j = 0; j < classes; ++j)
      r.grad[n * classes + j] =
          (std::exp(double(row[std::ptrdiff_t(j)]) - top) / sum - (int(j) == labels[n] ? 1.0 : 0.0)) / double(batch);
  }
  r.loss /= double(batch);
  return r;
}

// One SGD step in place, in double, as sgd.hpp states it.
inline void sgd_step(std::vector<double>& w, const std::vector<double>& g, std::vector<double>& v,
                     const SgdOptions& o) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    v[i] = o.momentum * v[i] + (o.gradient_scale * g[i] + o.weight_decay * w[i]);
    w[i] -= o.learning_rate * v[i];
  }
}

// The small network's convolution (3 x 3, padding 1, ReLU) and pooling
// (max 2 x 2) for `batch` images.
inline ConvLayerShape small_cnn_conv(const SmallCnnShape& sh, std::size_t batch) {
  ConvLayerShape conv;
  conv.images = batch;
  conv.channels = sh.channels;
  conv.height = sh.height;
  conv.width = sh.width;
  conv.filters = sh.filters;
  conv.filter_height = conv.filter_width = 3;
  conv.pad_h = conv.pad_w = 1;
  return conv;
}
inline PoolShape small_cnn_pool(const SmallCnnShape& sh, std::size_t batch) {
  PoolShape pool;
  pool.images = batch;
  pool.channels = sh.filters;
  pool.height = sh.height;
  pool.width = sh.width;
  return pool;
}

// The small network's mean loss and the gradient of every parameter
// (placed as in its flat buffer, gaps 0), from its parameters `p` (flat,
// as parameters() holds them), `batch` NCHW images and their labels.
struct NetworkGradients {
  double loss = 0;
  std::vector<double> gradients;
  // The steps between, for the tests' rounding margins: the convolution's
  // output (float: its inputs' bits are what the tests make exact), the
  // pooled features and the picks, the logits, their gradient and the
  // pooled features' gradient (rounded to float, as the pooling reference
  // reads it).
  std::vector<float> conv_out, pooled_grad;
  PoolReference pooled;
  std::vector<double> logits, logit_grad;
};
inline NetworkGradients small_cnn_gradients(const SmallCnn& net, const std::vector<float>& p,
                                            const std::vector<float>& images, const std::vector<int>& labels,
                                            std::size_t batch) {
  const SmallCnnShape& sh = net.shape();
  const auto slice = [&](ParameterSegment s) {
    return std::vector<float>(p.begin() + std::ptrdiff_t(s.offset), p.begin() + std::ptrdiff_t(s.offset + s.count));
  };
  const std::vector<float> cw = slice(net.conv_filters()), cb = slice(net.conv_bias()), dw = slice(net.dense_weights()),
                           db = slice(net.dense_bias());
  const ConvLayerShape conv = small_cnn_conv(sh, batch);
  const ConvReference a1 = conv_layer(conv, TensorLayout::nchw, images, cw, &cb, true);
  const PoolShape pool = small_cnn_pool(sh, batch);
  const std::vector<float> a1f(a1.value.begin(), a1.value.end());  // the pooling reference reads floats
  const PoolReference a2 = pool_forward(pool, PoolOptions{}, a1f);
  const DenseShape dense{batch, sh.filters * pool.out_height() * pool.out_width(), sh.classes};
  const std::vector<double> logits = dense_forward(dense, a2.output, dw, &db, false);
  const SoftmaxLossReference loss = softmax_cross_entropy(batch, sh.classes, logits, labels);
  const DenseGradientsReference dg = dense_backward<double, double, double>(dense, a2.output, dw, loss.grad, nullptr);
  const std::vector<float> grad_pooled(dg.input.begin(), dg.input.end());
  const std::vector<double> grad_a1 = pool_backward(pool, PoolOptions{}, grad_pooled, a2.argmax);
  const std::vector<float> grad_a1f(grad_a1.begin(), grad_a1.end());
  const ConvGradients cg = conv_layer_gradients(conv, TensorLayout::nchw, images, cw, grad_a1f, &a1f);
  NetworkGradients r;
  r.loss = loss.loss;
  r.conv_out = a1f;
  r.pooled_grad = grad_pooled;
  r.pooled = a2;
  r.logits = logits;
  r.logit_grad = loss.grad;
  r.gradients.assign(p.size(), 0.0);
  const auto place = [&](ParameterSegment s, const std::vector<double>& g) {
    std::copy(g.begin(), g.end(), r.gradients.begin() + std::ptrdiff_t(s.offset));
  };
  place(net.conv_filters(), cg.filters);
  place(net.conv_bias(), cg.bias);
  place(net.dense_weights(), dg.weights);
  place(net.dense_bias(), dg.bias);
  return r;
}

}  // namespace portacl::reference
