// SPDX-License-Identifier: Apache-2.0
/// \file
/// Data-parallel training of the SmallCnn (small_cnn.hpp) on a device
/// group: a replica on every member, all from one seed; each step splits
/// the batch by the group's weights (rule group.split), each replica
/// computes the gradient of its share's mean loss, the gradients travel
/// through pinned host memory and are averaged there (in double, each
/// weighted by its share of the batch: the gradient of the whole batch's
/// mean loss, as one device would compute it), and every replica applies
/// the same SGD step to the same average.
///
/// Results: those of SmallCnn::train_step on the whole batch on one
/// device, within float rounding (the batch's sums are split). On members
/// of one kind the replicas stay equal bit for bit; members of different
/// kinds may round an SGD step differently, so sync_parameters() copies
/// member 0's parameters to the others (call it every few hundred steps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "portacl/kernels/ml/small_cnn.hpp"
#include "portacl/runtime/device_group.hpp"

namespace portacl {

class GroupSmallCnn {
 public:
  GroupSmallCnn(DeviceGroup& group, const SmallCnnShape& shape, std::uint64_t seed, const PlanOptions& plan = {});
  ~GroupSmallCnn();
  GroupSmallCnn(const GroupSmallCnn&) = delete;
  GroupSmallCnn& operator=(const GroupSmallCnn&) = delete;

  /// One step on `batch` images (batch x C x H x W, by images) and labels;
  /// returns the batch's mean loss before the step. Errors: sizes that do
  /// not match, a batch of 0, a label out of range (named with its image
  /// and member), the SGD options' own.
  double train_step(const std::vector<float>& images, const std::vector<int>& labels, std::size_t batch,
                    const SgdOptions& options);
  /// Member `replica`'s network (its parameters, predictions).
  SmallCnn& replica(std::size_t member);
  /// The parameters in SmallCnn's segments, from member 0: filters, conv
  /// bias, dense weights, dense bias, one after another (no gaps).
  std::vector<float> parameters() const;
  /// Member 0's parameters to every other member.
  void sync_parameters();
  /// The last step's split of the batch, and why.
  std::string describe() const;
  /// Seconds in the gradient exchange: from the moment every replica had
  /// its gradients to the moment every replica holds the average, summed.
  double exchange_seconds() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace portacl
