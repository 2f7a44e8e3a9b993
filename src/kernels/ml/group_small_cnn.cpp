// SPDX-License-Identifier: Apache-2.0
// SmallCnn replicas over a device group: shards computed at once (a host
// thread a member: compute_gradients returns the loss, so one thread would
// run the members one after another), gradients averaged on the host.
#include "portacl/ml.hpp"

#include <chrono>
#include <future>
#include <optional>
#include <sstream>

#include "kernels/ml/gradient_average.hpp"
#include "portacl/error.hpp"
#include "portacl/buffer.hpp"

namespace portacl {

namespace {

struct Replica {
  Replica(Context& c, const SmallCnnShape& shape, std::uint64_t seed, const PlanOptions& plan)
      : ctx(&c), net(c, shape, seed, plan), gradients(c, net.gradients().size()) {}
  Context* ctx;
  SmallCnn net;
  HostBuffer<float> gradients;  ///< read back, then the average in this replica's layout
  std::optional<Buffer<float>> images;
  std::optional<Buffer<int>> labels;
  cl::Event read;
};

// `host`'s elements first .. first + count to `device`, made or remade at that size.
template <class T>
void upload_shard(Context& ctx, std::optional<Buffer<T>>& device, const std::vector<T>& host, std::size_t first,
                  std::size_t count) {
  if (!device || device->size() != count) device.emplace(ctx, count);
  device->upload(host.data() + first, count);
}

}  // namespace

struct GroupSmallCnn::State {
  DeviceGroup* group;
  SmallCnnShape shape;
  std::vector<std::unique_ptr<Replica>> replicas;
  std::string last;
  double exchanging = 0;
};

GroupSmallCnn::GroupSmallCnn(DeviceGroup& group, const SmallCnnShape& shape, std::uint64_t seed,
                             const PlanOptions& plan)
    : state_(std::make_unique<State>()) {
  state_->group = &group;
  state_->shape = shape;
  for (std::size_t m = 0; m < group.size(); ++m)
    state_->replicas.push_back(std::make_unique<Replica>(group.context(m), shape, seed, plan));
}

GroupSmallCnn::~GroupSmallCnn() = default;

double GroupSmallCnn::train_step(const std::vector<float>& images, const std::vector<int>& labels, std::size_t batch,
                                 const SgdOptions& options) {
  State& s = *state_;
  const char* op = "GroupSmallCnn::train_step";
  if (batch == 0) throw Error(std::string(op) + ": a batch of 0 images");
  const std::size_t per_image = s.shape.channels * s.shape.height * s.shape.width;
  if (images.size() != checked_product(batch, per_image, "GroupSmallCnn: batch x C x H x W"))
    throw Error(std::string(op) + ": images has " + std::to_string(images.size()) + " floats; " +
                std::to_string(batch) + " images of " + std::to_string(per_image) + " need " +
                std::to_string(batch * per_image));
  if (labels.size() != batch)
    throw Error(std::string(op) + ": labels has " + std::to_string(labels.size()) + " entries for " +
                std::to_string(batch) + " images");
  const std::vector<std::size_t> split = s.group->split(batch);
  s.last = "rule group.split: " + s.group->explain_split(batch);
  // Each member's share, on a thread of its own.
  std::vector<std::future<double>> losses(s.replicas.size());
  for (std::size_t m = 0; m < s.replicas.size(); ++m) {
    const std::size_t first = split[m], count = split[m + 1] - first;
    if (!count) continue;
    Replica& r = *s.replicas[m];
    losses[m] = std::async(std::launch::async, [&r, &images, &labels, first, count, per_image, m, op]() {
      try {
        upload_shard(*r.ctx, r.images, images, first * per_image, count * per_image);
        upload_shard(*r.ctx, r.labels, labels, first, count);
        return r.net.compute_gradients(*r.images, *r.labels, count);
      } catch (const Error& e) {
        throw Error(std::string(op) + ": member " + std::to_string(m) + " (images " + std::to_string(first) + " to " +
                    std::to_string(first + count - 1) + ", numbered from 0 within its share): " + e.what());
      }
    });
  }
  double loss = 0;
  std::optional<Error> failed;
  for (std::size_t m = 0; m < losses.size(); ++m) {
    if (!losses[m].valid()) continue;
    try {
      loss += losses[m].get() * double(split[m + 1] - split[m]) / double(batch);
    } catch (const Error& e) {
      if (!failed) failed = e;  // every thread joined before the first error is thrown
    }
  }
  if (failed) throw *failed;

  // The exchange's time starts once every member's backward pass is done.
  for (std::size_t m = 0; m < s.replicas.size(); ++m)
    if (split[m + 1] > split[m]) s.replicas[m]->ctx->finish();
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t m = 0; m < s.replicas.size(); ++m) {
    Replica& r = *s.replicas[m];
    if (split[m + 1] == split[m]) continue;
    check_cl(r.ctx->queue().enqueueReadBuffer(r.net.gradients().cl_buffer(), CL_FALSE, 0,
                                              r.gradients.size() * sizeof(float), r.gradients.data(), nullptr, &r.read),
             std::string(op) + ": reading member " + std::to_string(m) + "'s gradients");
  }
  // The average, each share weighted by its images.
  std::vector<double> average;
  for (std::size_t m = 0; m < s.replicas.size(); ++m) {
    Replica& r = *s.replicas[m];
    if (split[m + 1] == split[m]) continue;
    check_cl(r.read.wait(), std::string(op) + ": waiting for member " + std::to_string(m) + "'s gradients");
    add_packed_gradients(parameter_segments(r.net), r.gradients.data(), double(split[m + 1] - split[m]) / double(batch),
                         average);
  }
  for (auto& r : s.replicas) {
    unpack_gradients(parameter_segments(r->net), average, r->gradients.data(), r->gradients.size());
    r->net.gradients().upload(r->gradients);
  }
  s.exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (auto& r : s.replicas) r->net.apply_gradients(options);
  return loss;
}

SmallCnn& GroupSmallCnn::replica(std::size_t member) { return state_->replicas.at(member)->net; }

std::vector<float> GroupSmallCnn::parameters() const { return state_->replicas[0]->net.packed_parameters(); }

void GroupSmallCnn::sync_parameters() {
  const std::vector<float> packed = parameters();
  for (std::size_t m = 1; m < state_->replicas.size(); ++m) state_->replicas[m]->net.set_packed_parameters(packed);
}

std::string GroupSmallCnn::describe() const { return state_->last; }

double GroupSmallCnn::exchange_seconds() const { return state_->exchanging; }

}  // namespace portacl
