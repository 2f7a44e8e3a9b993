// SPDX-License-Identifier: Apache-2.0
// The small convolutional network (include/portacl/kernels/ml/small_cnn.hpp)
// composed from the layer calls: conv_layer (bias, ReLU), pool (max 2 x 2),
// dense, softmax_cross_entropy and sgd_step. Its parameters and their
// gradients are two flat buffers; each layer sees its segment through a
// sub-buffer, so the layers need no offsets and a replica's gradients are
// one buffer to sum.
#include "portacl/ml.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "portacl/error.hpp"
#include "runtime/sub_buffer.hpp"

namespace portacl {

namespace {

// A view of `segment` of a flat buffer as a buffer of its own.
Buffer<float> segment_view(Context& ctx, const Buffer<float>& flat, ParameterSegment segment) {
  return sub_buffer(ctx, flat, segment.offset, segment.count, "a network parameter");
}

// Uniform in [-bound, bound) from a splitmix64 stream: the same on every
// platform, unlike the standard library's distributions.
struct Uniform {
  std::uint64_t state;
  float operator()(float bound) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return bound * (float(z >> 40) * (2.0f / 16777216.0f) - 1.0f);
  }
};

}  // namespace

struct SmallCnn::State {
  State(Context& c, const SmallCnnShape& s, const PlanOptions& p) : ctx(c), shape(s), plan(p) {}
  Context& ctx;
  SmallCnnShape shape;
  PlanOptions plan;
  ConvLayerShape conv;
  PoolShape pool;
  DenseShape dense;
  ParameterSegment segments[4];  // conv filters, conv bias, dense weights, dense bias
  std::optional<Buffer<float>> parameters, gradients, velocity;
  std::vector<Buffer<float>> parameter_views, gradient_views;  // by segment
  // Activations and their gradients, for the largest batch seen.
  std::size_t batch_capacity = 0;
  std::optional<Buffer<float>> conv_out, pooled, logits, grad_logits, grad_pooled, grad_conv_out;
  std::optional<Buffer<int>> picks;

  void reserve(std::size_t batch) {
    if (batch <= batch_capacity) return;
    const std::size_t maps = shape.filters * shape.height * shape.width, pooled_maps = dense.inputs;
    conv_out.emplace(ctx, batch * maps);
    grad_conv_out.emplace(ctx, batch * maps);
    pooled.emplace(ctx, batch * pooled_maps);
    grad_pooled.emplace(ctx, batch * pooled_maps);
    picks.emplace(ctx, batch * pooled_maps);
    logits.emplace(ctx, batch * shape.classes);
    grad_logits.emplace(ctx, batch * shape.classes);
    batch_capacity = batch;
  }

  void check_images(const char* op, const Buffer<float>& images, std::size_t batch) const {
    if (batch == 0) throw Error(std::string(op) + ": a batch of 0 images");
    kernel_call::same_context(ctx, images, op, "images");
    kernel_call::need_elements(op, "images", images.size(),
                               checked_product(batch, shape.channels * shape.height * shape.width, op),
                               std::to_string(batch) + " images of " + std::to_string(shape.channels) + " x " +
                                   std::to_string(shape.height) + " x " + std::to_string(shape.width));
  }

  // A forward pass's operands: the images, and `out` (named `name`),
  // written while the images and the parameters are read.
  void check_forward(const char* op, const Buffer<float>& images, std::size_t batch, const BufferStorage& out,
                     const std::string& name) const {
    check_images(op, images, batch);
    kernel_call::same_context(ctx, out, op, name.c_str());
    aliasing::refuse_overlap(op, aliasing::whole(out), name.c_str(), aliasing::whole(images), "images",
                             ("the images are read while the " + name + " are written").c_str());
    aliasing::refuse_overlap(op, aliasing::whole(out), name.c_str(), aliasing::whole(*parameters),
                             "the network's parameters",
                             ("the parameters are read while the " + name + " are written").c_str());
  }

  // conv, ReLU, pooling and the dense layer for `batch` images, into
  // `out` (batch x classes).
  void forward(const Buffer<float>& images, std::size_t batch, Buffer<float>& out) {
    reserve(batch);
    conv.images = pool.images = dense.batch = batch;
    conv_layer_forward(ctx, conv, images, parameter_views[0], &parameter_views[1], *conv_out, conv_options());
    pool_forward(ctx, pool, *conv_out, *pooled, &*picks, pool_options());
    dense_forward(ctx, dense, *pooled, parameter_views[2], &parameter_views[3], out, DenseOptions{false, plan});
  }
  ConvLayerOptions conv_options() const {
    ConvLayerOptions o;
    o.relu = true;
    o.plan = plan;
    return o;
  }
  PoolOptions pool_options() const {
    PoolOptions o;
    o.plan = plan;
    return o;
  }
};

SmallCnn::SmallCnn(Context& ctx, const SmallCnnShape& s, std::uint64_t seed, const PlanOptions& plan)
    : state_(new State(ctx, s, plan)) {
  const char* op = "SmallCnn";
  if (s.channels == 0 || s.filters == 0 || s.classes == 0)
    throw Error(std::string(op) + ": a size is 0 (channels " + std::to_string(s.channels) + ", filters " +
                std::to_string(s.filters) + ", classes " + std::to_string(s.classes) + ")");
  if (s.height < 2 || s.width < 2)
    throw Error(std::string(op) + ": images of " + std::to_string(s.height) + " x " + std::to_string(s.width) +
                " are smaller than the 2 x 2 pooling window");
  State& st = *state_;
  st.conv.channels = s.channels;
  st.conv.height = s.height;
  st.conv.width = s.width;
  st.conv.filters = s.filters;
  st.conv.filter_height = st.conv.filter_width = 3;
  st.conv.pad_h = st.conv.pad_w = 1;
  st.pool.channels = s.filters;
  st.pool.height = s.height;
  st.pool.width = s.width;
  st.dense.inputs = checked_product(s.filters, st.pool.out_height() * st.pool.out_width(), op);
  st.dense.outputs = s.classes;
  // Segments on the device's sub-buffer alignment.
  const std::size_t align = sub_buffer_alignment(ctx, sizeof(float));
  const std::size_t counts[4] = {checked_product(s.filters, s.channels * 9, op), s.filters,
                                 checked_product(s.classes, st.dense.inputs, op), s.classes};
  std::size_t total = 0;
  for (int i = 0; i < 4; ++i) {
    st.segments[i] = {total, counts[i]};
    total = kernel_call::round_up(total + counts[i], align);
  }
  std::vector<float> initial(total, 0.0f);
  Uniform uniform{seed};
  const float conv_bound = std::sqrt(6.0f / float(s.channels * 9)),
              dense_bound = std::sqrt(6.0f / float(st.dense.inputs));
  for (std::size_t i = 0; i < counts[0]; ++i) initial[st.segments[0].offset + i] = uniform(conv_bound);
  for (std::size_t i = 0; i < counts[2]; ++i) initial[st.segments[2].offset + i] = uniform(dense_bound);
  st.parameters.emplace(ctx, initial);
  st.gradients.emplace(ctx, std::vector<float>(total, 0.0f));
  st.velocity.emplace(ctx, std::vector<float>(total, 0.0f));
  for (const ParameterSegment& segment : st.segments) {
    st.parameter_views.push_back(segment_view(ctx, *st.parameters, segment));
    st.gradient_views.push_back(segment_view(ctx, *st.gradients, segment));
  }
}

SmallCnn::~SmallCnn() = default;

const SmallCnnShape& SmallCnn::shape() const { return state_->shape; }

Context& SmallCnn::context() const { return state_->ctx; }
Buffer<float>& SmallCnn::parameters() { return *state_->parameters; }
const Buffer<float>& SmallCnn::gradients() const { return *state_->gradients; }
Buffer<float>& SmallCnn::gradients() { return *state_->gradients; }
ParameterSegment SmallCnn::conv_filters() const { return state_->segments[0]; }
ParameterSegment SmallCnn::conv_bias() const { return state_->segments[1]; }
ParameterSegment SmallCnn::dense_weights() const { return state_->segments[2]; }
ParameterSegment SmallCnn::dense_bias() const { return state_->segments[3]; }

std::vector<float> SmallCnn::packed_parameters() const {
  const std::vector<float> flat = state_->parameters->download();
  std::vector<float> packed;
  for (const ParameterSegment& s : state_->segments)
    packed.insert(packed.end(), flat.begin() + std::ptrdiff_t(s.offset),
                  flat.begin() + std::ptrdiff_t(s.offset + s.count));
  return packed;
}

void SmallCnn::set_packed_parameters(const std::vector<float>& packed) {
  std::size_t total = 0;
  for (const ParameterSegment& s : state_->segments) total += s.count;
  if (packed.size() != total)
    throw Error("SmallCnn::set_packed_parameters: " + std::to_string(packed.size()) + " values for a network of " +
                std::to_string(total) + " parameters");
  std::vector<float> flat(state_->parameters->size(), 0.0f);
  std::size_t at = 0;
  for (const ParameterSegment& s : state_->segments) {
    std::copy_n(packed.begin() + std::ptrdiff_t(at), s.count, flat.begin() + std::ptrdiff_t(s.offset));
    at += s.count;
  }
  state_->parameters->upload(flat);
}

double SmallCnn::compute_gradients(const Buffer<float>& images, const Buffer<int>& labels, std::size_t batch) {
  State& st = *state_;
  const char* op = "SmallCnn::compute_gradients";
  st.check_images(op, images, batch);
  kernel_call::same_context(st.ctx, labels, op, "labels");
  kernel_call::need_elements(op, "labels", labels.size(), batch, "a label an image");
  st.forward(images, batch, *st.logits);
  const double loss =
      softmax_cross_entropy(st.ctx, batch, st.shape.classes, *st.logits, labels, &*st.grad_logits, st.plan);
  dense_backward(st.ctx, st.dense, *st.pooled, st.parameter_views[2], nullptr, *st.grad_logits,
                 DenseGradients{&*st.grad_pooled, &st.gradient_views[2], &st.gradient_views[3]},
                 DenseOptions{false, st.plan});
  pool_backward(st.ctx, st.pool, *st.grad_pooled, *st.grad_conv_out, &*st.picks, st.pool_options());
  conv_layer_backward(st.ctx, st.conv, images, st.parameter_views[0], &*st.conv_out, *st.grad_conv_out,
                      ConvLayerGradients{nullptr, &st.gradient_views[0], &st.gradient_views[1]}, st.conv_options());
  return loss;
}

LaunchPlan SmallCnn::apply_gradients(const SgdOptions& options) {
  return sgd_step(state_->ctx, *state_->parameters, *state_->gradients, *state_->velocity, options);
}

double SmallCnn::train_step(const Buffer<float>& images, const Buffer<int>& labels, std::size_t batch,
                            const SgdOptions& options) {
  const double loss = compute_gradients(images, labels, batch);
  apply_gradients(options);
  return loss;
}

void SmallCnn::forward(const Buffer<float>& images, std::size_t batch, Buffer<float>& logits) {
  State& st = *state_;
  st.check_forward("SmallCnn::forward", images, batch, logits, "logits");
  st.forward(images, batch, logits);
}

void SmallCnn::predict(const Buffer<float>& images, std::size_t batch, Buffer<int>& classes) {
  State& st = *state_;
  st.check_forward("SmallCnn::predict", images, batch, classes, "classes");
  st.forward(images, batch, *st.logits);
  predict_classes(st.ctx, batch, st.shape.classes, *st.logits, classes, st.plan);
}

}  // namespace portacl
