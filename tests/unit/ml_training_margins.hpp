// SPDX-License-Identifier: Apache-2.0
// How far the float training pieces may stand from their double
// references (tuning/ml_training_reference.hpp), counted from the arithmetic
// the kernels do: softmax cross-entropy and its gradient, and the small
// network's loss and gradients carried through its layers. Shared by the
// training tests and the device-group training tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "portacl/ml.hpp"
#include "test_support.hpp"
#include "tuning/ml_training_reference.hpp"

namespace test {

// "" when every got[i] lies within margins[i] of want[i].
template <class G>
std::string within_each(const char* what, const std::vector<G>& got, const std::vector<double>& want,
                        const std::vector<double>& margins) {
  if (got.size() < want.size()) return std::string(what) + ": too few values";
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(double(got[i]) - want[i]) <= margins[i])) {
      std::ostringstream s;
      s.precision(9);
      s << what << " " << i << ": " << double(got[i]) << ", want " << want[i] << " (margin " << margins[i] << ")";
      return s.str();
    }
  return "";
}

// A planted error that the margins must see: `got` with the value whose
// margin is tightest against it (margin / |want| smallest) set to want
// (1 + relative). Empty where no value's margin is below `relative` |want|:
// a draw whose values all come from sums that cancel (a saturated softmax,
// ReLUs that pass nothing) has nothing an error of that size could be
// seen against, and the caller says so.
template <class G>
std::vector<G> plant_where_tightest(const std::vector<G>& got, const std::vector<double>& want,
                                    const std::vector<double>& margins, double relative) {
  std::size_t best = want.size();
  for (std::size_t i = 0; i < want.size(); ++i)
    if (want[i] != 0 &&
        (best == want.size() || margins[i] * std::fabs(want[best]) < margins[best] * std::fabs(want[i])))
      best = i;
  if (best == want.size() || !(margins[best] < relative * std::fabs(want[best]))) return {};
  std::vector<G> planted = got;
  planted[best] = G(want[best] * (1 + relative));
  return planted;
}

// gamma_m = m u / (1 - m u): m roundings of a sum or product, in any order.
inline double gamma(double m) { return m * kFloatU / (1 - m * kFloatU); }
// An underflow's absolute loss (an exp of a very negative difference, a
// product of two small gradients): reference::kFloatTiny.
using portacl::reference::kFloatTiny;

struct SoftmaxMargins {
  double loss = 0;
  std::vector<double> grad;  // batch x classes
};
// The margins of softmax_cross_entropy (ml_softmax_loss.cl) on float logits z
// (a row's largest logit `top` is exact): each exp(z - top) rounds the
// difference (u of it, times the exp) and itself (exp, 3 ulp); the sum of
// the C exps rounds C - 1 times, so it stands within (C - 1 + 7) u of
// itself, and its log within that plus log's 3 ulp; the label's difference
// and the loss's subtraction round once each; the host adds the losses in
// double. A gradient entry exp * (1 / (sum B)) - 1/B carries the exp's and
// the sum's error, the reciprocal (a division and a product), its product
// and the subtraction; the label's entry the division 1 / B as well. An
// exp, the product and the subtraction may each underflow (kFloatTiny).
// `want_grad` is the reference's gradient, `want_loss` its mean loss.
template <class Z>
SoftmaxMargins softmax_margins(std::size_t batch, std::size_t classes, const std::vector<Z>& z,
                               const std::vector<int>& labels, const std::vector<double>& want_grad, double want_loss) {
  SoftmaxMargins m;
  m.grad.assign(batch * classes, 0.0);
  for (std::size_t n = 0; n < batch; ++n) {
    const Z* row = z.data() + n * classes;
    const double top = double(*std::max_element(row, row + classes));
    double sum = 0, exp_error = 0;
    for (std::size_t j = 0; j < classes; ++j) {
      const double e = std::exp(double(row[j]) - top);
      sum += e;
      exp_error += e * (std::fabs(double(row[j]) - top) + 6) * kFloatU + kFloatTiny;
    }
    const double sum_relative = (double(classes) - 1) * kFloatU + exp_error / sum;
    const double label_gap = double(row[labels[n]]) - top, sample = std::log(sum) - label_gap;
    m.loss +=
        (sum_relative + 6 * kFloatU * std::fabs(std::log(sum)) + kFloatU * (std::fabs(label_gap) + std::fabs(sample))) /
        double(batch);
    for (std::size_t j = 0; j < classes; ++j) {
      const double e = std::exp(double(row[j]) - top), share = e / (sum * double(batch));
      m.grad[n * classes + j] =
          share * ((std::fabs(double(row[j]) - top) + 6) * kFloatU + sum_relative + (2 + kDivisionU + 1) * kFloatU) +
          kFloatU * std::fabs(want_grad[n * classes + j]) +
          (int(j) == labels[n] ? kDivisionU * kFloatU / double(batch) : 0.0) + 3 * kFloatTiny;
    }
  }
  m.loss += 2 * double(batch) * kDoubleU * want_loss;
  return m;
}

// One SGD step's margins (sgd_momentum in ml_sgd.cl), carried to first order:
// decay w rounds, the fused step rounds, the fused velocity rounds, rate
// velocity and the subtraction round; the gradient comes in within
// `g_margin`, the parameters within `dw` and the velocity within `dv`
// (both updated here). `w`, `g` and `v` are the reference's values before
// the step.
inline void sgd_margins(const std::vector<double>& w, const std::vector<double>& g, const std::vector<double>& v,
                        const portacl::SgdOptions& o, const std::vector<double>& g_margin, std::vector<double>& dw,
                        std::vector<double>& dv) {
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double step_value = o.gradient_scale * g[i] + o.weight_decay * w[i];
    const double step_error = o.gradient_scale * g_margin[i] + o.weight_decay * (dw[i] + kFloatU * std::fabs(w[i])) +
                              kFloatU * std::fabs(step_value);
    const double velocity = o.momentum * v[i] + step_value;
    dv[i] = o.momentum * dv[i] + step_error + kFloatU * std::fabs(velocity);
    dw[i] += o.learning_rate * dv[i] +
             kFloatU * (o.learning_rate * std::fabs(velocity) + std::fabs(w[i] - o.learning_rate * velocity));
  }
}

struct NetworkMargins {
  double loss = 0;
  std::vector<double> gradients;  // placed as the parameters are
};

namespace detail {

inline std::vector<float> magnitudes(const std::vector<float>& v) {
  std::vector<float> a(v.size());
  std::transform(v.begin(), v.end(), a.begin(), [](float x) { return std::fabs(x); });
  return a;
}
inline std::vector<double> magnitudes(const std::vector<double>& v) {
  std::vector<double> a(v.size());
  std::transform(v.begin(), v.end(), a.begin(), [](double x) { return std::fabs(x); });
  return a;
}
// Margins handed to a reference that reads floats: rounded up, never down.
inline std::vector<float> floats_up(const std::vector<double>& v) {
  std::vector<float> f(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    f[i] = float(v[i]);
    if (double(f[i]) < v[i]) f[i] = std::nextafter(f[i], std::numeric_limits<float>::infinity());
  }
  return f;
}
inline std::vector<float> segment(const std::vector<float>& p, portacl::ParameterSegment s) {
  return std::vector<float>(p.begin() + std::ptrdiff_t(s.offset), p.begin() + std::ptrdiff_t(s.offset + s.count));
}
}  // namespace detail

// True when the convolution's sums are exact in float whatever the order:
// every term is a multiple of 2^-7 (images k/8, filters and bias k/16), and
// no sum of magnitudes reaches 2^24 of those units.
inline bool conv_exact(const portacl::SmallCnn& net, const std::vector<float>& p, const std::vector<float>& images,
                       std::size_t batch) {
  namespace r = portacl::reference;
  const std::vector<float> cb = detail::magnitudes(detail::segment(p, net.conv_bias()));
  const r::ConvReference size =
      r::conv_layer(portacl::reference::small_cnn_conv(net.shape(), batch), portacl::TensorLayout::nchw,
                    detail::magnitudes(images), detail::magnitudes(detail::segment(p, net.conv_filters())), &cb, false);
  const double largest = size.value.empty() ? 0.0 : *std::max_element(size.value.begin(), size.value.end());
  return largest * 128 < 16777216.0;
}

// The margins of SmallCnn::compute_gradients against
// reference::small_cnn_gradients (`want`), for dyadic parameters and
// images whose convolution sums are exact in float (the caller REQUIREs
// conv_exact). Forward: the convolution, ReLU and pooling are
// exact, so the device's masks and picks are the reference's; the dense
// layer's logits are exact when every term and partial sum is a multiple
// of 2^-11 below 2^13 (weights k/16 times features k/128), else within gamma_(F+1) of their terms' magnitudes.
// A logit error e moves a sample's loss by at most 2e and each softmax
// share p by p (exp(2e) - 1). Backward, to first order in u, each
// gradient's error is the error it is fed, carried through the layer's
// linear map in magnitudes, plus gamma_m of the magnitudes of its m
// products (and an underflow, kFloatTiny, a product and a sum each):
// the dense weights' and bias's sums over the batch, the pooled
// features' over the classes (and the reference's rounding of those to
// float), routed unchanged through pooling and the ReLU mask, then the
// filters' and the conv bias's sums over every image and position.
inline NetworkMargins small_cnn_margins(const portacl::SmallCnn& net, const std::vector<float>& p,
                                        const std::vector<float>& images, const std::vector<int>& labels,
                                        std::size_t batch, const portacl::reference::NetworkGradients& want) {
  namespace r = portacl::reference;
  using detail::magnitudes;
  const portacl::SmallCnnShape& sh = net.shape();
  const portacl::ConvLayerShape conv = portacl::reference::small_cnn_conv(sh, batch);
  const portacl::PoolShape pool = portacl::reference::small_cnn_pool(sh, batch);
  const std::size_t features = sh.filters * pool.out_height() * pool.out_width(), classes = sh.classes;
  const portacl::DenseShape dense{batch, features, classes};
  const std::vector<float> dw = magnitudes(detail::segment(p, net.dense_weights())),
                           db = magnitudes(detail::segment(p, net.dense_bias()));
  const std::vector<double> pooled = magnitudes(want.pooled.output);

  // The logits: exact, or within gamma_(F+1) of their terms' magnitudes.
  const std::vector<double> logit_size = r::dense_forward(dense, pooled, dw, &db, false);
  std::vector<double> logit_error(batch, 0.0);
  for (std::size_t n = 0; n < batch; ++n)
    for (std::size_t k = 0; k < classes; ++k) {
      const double s = logit_size[n * classes + k];
      if (!(s * 2048 < 16777216.0)) logit_error[n] = std::max(logit_error[n], gamma(double(features + 1)) * s);
    }
  NetworkMargins m;
  const SoftmaxMargins soft = softmax_margins(batch, classes, want.logits, labels, want.logit_grad, want.loss);
  m.loss = soft.loss;
  std::vector<double> logit_grad_error = soft.grad;
  for (std::size_t n = 0; n < batch; ++n) {
    m.loss += 2 * logit_error[n] / double(batch);
    for (std::size_t k = 0; k < classes; ++k) {
      const std::size_t at = n * classes + k;
      const double share = want.logit_grad[at] + (int(k) == labels[n] ? 1.0 / double(batch) : 0.0);
      logit_grad_error[at] += std::fabs(share) * std::expm1(2 * logit_error[n]);
    }
  }

  // The dense layer's backward pass.
  const std::vector<double> logit_grad = magnitudes(want.logit_grad);
  const r::DenseGradientsReference fed =
      r::dense_backward<double, double, double>(dense, pooled, dw, logit_grad_error, nullptr);
  const r::DenseGradientsReference size =
      r::dense_backward<double, double, double>(dense, pooled, dw, logit_grad, nullptr);
  std::vector<double> dense_w(fed.weights.size()), dense_b(classes), pooled_error(fed.input.size());
  const double dense_reference = 2 * double(std::max(batch, classes)) * kDoubleU;  // the reference's own sums
  for (std::size_t i = 0; i < dense_w.size(); ++i)
    dense_w[i] =
        fed.weights[i] + (gamma(double(batch)) + dense_reference) * size.weights[i] + 2 * double(batch) * kFloatTiny;
  for (std::size_t k = 0; k < classes; ++k)
    dense_b[k] = fed.bias[k] + (gamma(double(batch) - 1) + dense_reference) * size.bias[k];
  for (std::size_t i = 0; i < pooled_error.size(); ++i)
    pooled_error[i] = fed.input[i] + (gamma(double(classes)) + dense_reference) * size.input[i] +
                      2 * double(classes) * kFloatTiny +
                      kFloatU * std::fabs(double(want.pooled_grad[i]));  // the reference's own rounding

  // Routed through pooling and the ReLU mask, then the convolution's sums.
  const std::vector<double> routed_error =
      r::pool_backward(pool, {}, detail::floats_up(pooled_error), want.pooled.argmax);
  const std::vector<double> routed = r::pool_backward(pool, {}, magnitudes(want.pooled_grad), want.pooled.argmax);
  const std::vector<float> image_size = magnitudes(images),
                           filter_size = magnitudes(detail::segment(p, net.conv_filters()));
  const r::ConvGradients conv_fed = r::conv_layer_gradients(conv, portacl::TensorLayout::nchw, image_size, filter_size,
                                                            detail::floats_up(routed_error), &want.conv_out);
  const r::ConvGradients conv_size = r::conv_layer_gradients(conv, portacl::TensorLayout::nchw, image_size, filter_size,
                                                             detail::floats_up(routed), &want.conv_out);
  const double terms = double(batch * conv.out_height() * conv.out_width());
  // The double reference's own roundings, a term each.
  const double reference_rounding = 2 * terms * kDoubleU;
  std::vector<double> conv_w(conv_fed.filters.size()), conv_b(conv_fed.bias.size());
  for (std::size_t i = 0; i < conv_w.size(); ++i)
    conv_w[i] =
        conv_fed.filters[i] + (gamma(terms) + reference_rounding) * conv_size.filters[i] + 2 * terms * kFloatTiny;
  for (std::size_t f = 0; f < conv_b.size(); ++f)
    conv_b[f] = conv_fed.bias[f] + (gamma(terms - 1) + reference_rounding) * conv_size.bias[f];

  m.gradients.assign(p.size(), 0.0);
  const auto place = [&](portacl::ParameterSegment s, const std::vector<double>& g) {
    std::copy(g.begin(), g.end(), m.gradients.begin() + std::ptrdiff_t(s.offset));
  };
  place(net.conv_filters(), conv_w);
  place(net.conv_bias(), conv_b);
  place(net.dense_weights(), dense_w);
  place(net.dense_bias(), dense_b);
  return m;
}

// A network's flat values (parameters, gradients, margins) in packed
// order: its segments one after another, as packed_parameters() gives them.
template <class V>
std::vector<double> packed(const portacl::SmallCnn& net, const std::vector<V>& flat) {
  std::vector<double> p;
  for (portacl::ParameterSegment s : {net.conv_filters(), net.conv_bias(), net.dense_weights(), net.dense_bias()})
    p.insert(p.end(), flat.begin() + std::ptrdiff_t(s.offset), flat.begin() + std::ptrdiff_t(s.offset + s.count));
  return p;
}

// A step's reference (packed): the whole batch's loss and gradient in
// double, and how far a float result may stand from them.
struct StepReference {
  double loss = 0, loss_margin = 0;
  std::vector<double> gradient, gradient_margin;
};

inline StepReference one_device(portacl::SmallCnn& net, const std::vector<float>& images,
                                const std::vector<int>& labels, std::size_t batch) {
  const std::vector<float> p = net.parameters().download();
  const portacl::reference::NetworkGradients want =
      portacl::reference::small_cnn_gradients(net, p, images, labels, batch);
  const NetworkMargins margin = small_cnn_margins(net, p, images, labels, batch, want);
  return {want.loss, margin.loss, packed(net, want.gradients), packed(net, margin.gradients)};
}

// The group's margins: each member's, for its share of the batch, weighted
// by that share (the members' references average to the whole batch's up
// to the double roundings each reference counts, and the whole batch's own,
// which its float margin bounds 2 kDoubleU / kFloatU times over); the host
// averages in double and rounds the average to float once. `split` is
// the group's split of the batch (DeviceGroup::split).
// `replica(m)` is member m's network (a device group's, or the one every
// MPI rank holds).
template <class Replica>
StepReference replica_margins(Replica&& replica, const std::vector<std::size_t>& split, const StepReference& whole,
                              const std::vector<float>& images, const std::vector<int>& labels, std::size_t batch) {
  StepReference r = whole;
  r.loss_margin = 4 * kDoubleU * std::fabs(whole.loss) + 2 * kDoubleU / kFloatU * whole.loss_margin;
  for (std::size_t i = 0; i < r.gradient.size(); ++i)
    r.gradient_margin[i] =
        (kFloatU + 4 * kDoubleU) * std::fabs(whole.gradient[i]) + 2 * kDoubleU / kFloatU * whole.gradient_margin[i];
  const std::size_t per_image = images.size() / batch;
  for (std::size_t m = 0; m + 1 < split.size(); ++m) {
    const std::size_t first = split[m], count = split[m + 1] - first;
    if (!count) continue;
    const std::vector<float> share_images(images.begin() + std::ptrdiff_t(first * per_image),
                                          images.begin() + std::ptrdiff_t((first + count) * per_image));
    const std::vector<int> share_labels(labels.begin() + std::ptrdiff_t(first),
                                        labels.begin() + std::ptrdiff_t(first + count));
    const StepReference member = one_device(replica(m), share_images, share_labels, count);
    const double share = double(count) / double(batch);
    r.loss_margin += share * member.loss_margin;
    for (std::size_t i = 0; i < r.gradient.size(); ++i) r.gradient_margin[i] += share * member.gradient_margin[i];
  }
  return r;
}
inline StepReference group_margins(portacl::GroupSmallCnn& group, const std::vector<std::size_t>& split,
                                   const StepReference& whole, const std::vector<float>& images,
                                   const std::vector<int>& labels, std::size_t batch) {
  return replica_margins([&](std::size_t m) -> portacl::SmallCnn& { return group.replica(m); }, split, whole, images,
                         labels, batch);
}

}  // namespace test
