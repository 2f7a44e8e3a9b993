// SPDX-License-Identifier: Apache-2.0
// The network-training operations.
//   pool        max-pooling 2 x 2 of stride 2 over n / 2^16 images of 16
//               channels of 64 x 64 (n floats), NCHW, the picks recorded:
//               the input read once, the output and picks written (6
//               bytes an input element). Checked in full against the
//               pooling reference.
//   train step  one SGD step (forward, loss, backward, update) of the
//               small network on n / 2^16 images of 1 x 28 x 28, 16
//               filters, 10 classes (2^24: a batch of 256). Counted: the
//               convolution's 2 flops a tap forward and twice that
//               backward, the dense layer's three products (images per
//               second: the batch over the wall time). Checked: the loss
//               and gradients of a fresh network equal the double
//               reference.
#include <cmath>

#include "../host_reference.hpp"
#include "../family.hpp"
#include "../ml_pooling_reference.hpp"
#include "../ml_training_reference.hpp"
#include "kernels/ml/layer_kernels.hpp"
#include "portacl/ml.hpp"

namespace portacl {
namespace {

constexpr std::size_t kPoolChannels = 16, kPoolSide = 64, kElementsPerImage = std::size_t{1} << 16;
constexpr std::size_t kSide = 28, kFilters = 16, kClasses = 10;

std::size_t images_of(const Workload& w) { return std::max<std::size_t>(w.n / kElementsPerImage, 1); }

struct PoolCase {
  PoolCase(Context& ctx, std::size_t images)
      : input(reference::uniform_floats(images * kPoolChannels * kPoolSide * kPoolSide, 0x9001ull ^ images)),
        din(ctx, input),
        dout(ctx, input.size() / 4),
        picks(ctx, input.size() / 4) {
    shape.images = images;
    shape.channels = kPoolChannels;
    shape.height = shape.width = kPoolSide;
  }
  PoolShape shape;
  std::vector<float> input;
  Buffer<float> din, dout;
  Buffer<int> picks;
};

PoolCase& pool_case(Workload& w) {
  auto& slot = w.derived["pool"];
  if (!slot) slot = std::make_shared<PoolCase>(w.ctx, images_of(w));
  return *std::static_pointer_cast<PoolCase>(slot);
}

Operation pool_operation() {
  const auto run = [](Workload& w, const PlanOptions& o) {
    PoolCase& c = pool_case(w);
    PoolOptions options;
    options.plan = o;
    return pool_forward(w.ctx, c.shape, c.din, c.dout, &c.picks, options);
  };
  const auto check = [run](Workload& w, const PlanOptions& o) -> std::string {
    PoolCase& c = pool_case(w);
    c.dout.upload(std::vector<float>(c.dout.size(), std::nanf("")));
    run(w, o);
    const reference::PoolReference want = reference::pool_forward(c.shape, PoolOptions{}, c.input);
    const std::vector<float> got = c.dout.download();
    const std::vector<int> picks = c.picks.download();
    for (std::size_t i = 0; i < want.output.size(); ++i)
      if (got[i] != float(want.output[i]) || picks[i] != want.argmax[i])
        return "output " + std::to_string(i) + ": " + std::to_string(got[i]) + " at " + std::to_string(picks[i]) +
               ", want " + std::to_string(want.output[i]) + " at " + std::to_string(want.argmax[i]);
    return "";
  };
  return Operation{"pool", 6.0, 0.75, &layer_kernel_tunables(), run, check};
}

struct TrainCase {
  TrainCase(Context& ctx, std::size_t images)
      : batch(images),
        images(reference::uniform_floats(images * kSide * kSide, 0x7a11ull ^ images)),
        labels(images),
        dimages(ctx, this->images),
        dlabels(ctx, images) {
    for (std::size_t i = 0; i < images; ++i) labels[i] = int((i * 7) % kClasses);
    dlabels.upload(labels);
  }
  std::size_t batch;
  std::vector<float> images;
  std::vector<int> labels;
  Buffer<float> dimages;
  Buffer<int> dlabels;
  std::unique_ptr<SmallCnn> net;  // made on the first run, with that run's plan options
};

TrainCase& train_case(Workload& w) {
  auto& slot = w.derived["train"];
  if (!slot) slot = std::make_shared<TrainCase>(w.ctx, images_of(w));
  return *std::static_pointer_cast<TrainCase>(slot);
}

const SmallCnnShape kShape{1, kSide, kSide, kFilters, kClasses};

Operation train_step_operation() {
  const auto run = [](Workload& w, const PlanOptions& o) {
    TrainCase& c = train_case(w);
    if (!c.net) c.net = std::make_unique<SmallCnn>(w.ctx, kShape, 11, o);
    SgdOptions sgd;
    sgd.learning_rate = 1e-3f;  // small: the work is the same whatever the parameters become
    sgd.plan = o;
    c.net->compute_gradients(c.dimages, c.dlabels, c.batch);
    return c.net->apply_gradients(sgd);
  };
  const auto check = [](Workload& w, const PlanOptions& o) -> std::string {
    TrainCase& c = train_case(w);
    SmallCnn net(w.ctx, kShape, 5, o);
    const double loss = net.compute_gradients(c.dimages, c.dlabels, c.batch);
    const reference::NetworkGradients want =
        reference::small_cnn_gradients(net, net.parameters().download(), c.images, c.labels, c.batch);
    if (!(std::fabs(loss - want.loss) <= 1e-4 * want.loss))
      return "loss " + std::to_string(loss) + ", want " + std::to_string(want.loss);
    const std::vector<float> got = net.gradients().download();
    double scale = 0;
    for (double g : want.gradients) scale = std::max(scale, std::fabs(g));
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!(std::fabs(got[i] - want.gradients[i]) <= 1e-4 * scale))
        return "gradient " + std::to_string(i) + ": " + std::to_string(got[i]) + ", want " +
               std::to_string(want.gradients[i]);
    return "";
  };
  const double pooled = double(kFilters * kSide * kSide / 4);
  const double flops_per_image = 3 * 2.0 * 9 * kFilters * kSide * kSide + 3 * 2.0 * kClasses * pooled;
  return Operation{"train step", 0, flops_per_image / double(kElementsPerImage), &layer_kernel_tunables(), run, check};
}

std::vector<Operation> pooling_operations() { return {pool_operation()}; }
std::vector<Operation> training_operations() { return {train_step_operation()}; }

const FamilyRegistration pooling_family({"pooling", 45, pooling_operations});
// The dense, softmax-loss and SGD passes, tuned and timed as the step.
const FamilyRegistration training_family(
    {"ml",
     46,
     training_operations,
     nullptr,
     nullptr,
     {{"train", {{"B", 0, "", 2}}, "a SmallCnn training step on a batch of B 3x32x32 images"}}});

}  // namespace
}  // namespace portacl
