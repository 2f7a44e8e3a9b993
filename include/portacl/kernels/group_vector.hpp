// SPDX-License-Identifier: Apache-2.0
/// \file
/// Vectors spread over a device group, and the streaming and reduction
/// calls on them: each member holds a contiguous part, sized by the group's
/// split (rule group.split), and runs its part's kernels on its own queue;
/// every member's work is enqueued before any result is read, so the
/// members run at the same time. Reductions add the members' partial
/// results on the host, in double, in member order: the same inputs and
/// weights give the same result every run, within float rounding of the
/// single-device result (its order of additions differs).
///
/// Errors: vectors of different lengths, or split for another group or
/// other weights (their parts would not line up).
#pragma once

#include <cstddef>
#include <vector>

#include "portacl/kernels/element.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/device_group.hpp"

namespace portacl {

template <class T>
class GroupVector {
 public:
  /// `host` split over `group` by its weights, each part uploaded to its member.
  GroupVector(DeviceGroup& group, const std::vector<T>& host);
  /// n elements, uninitialised, split likewise.
  GroupVector(DeviceGroup& group, std::size_t n);

  std::size_t size() const { return offsets_.back(); }
  DeviceGroup& group() const { return *group_; }
  /// Member i's part, elements offsets()[i] to offsets()[i + 1].
  Buffer<T>& part(std::size_t member) { return parts_.at(member); }
  const Buffer<T>& part(std::size_t member) const { return parts_.at(member); }
  const std::vector<std::size_t>& offsets() const { return offsets_; }
  /// Every part read back, in order.
  std::vector<T> download() const;

 private:
  DeviceGroup* group_;
  std::vector<std::size_t> offsets_;
  std::vector<Buffer<T>> parts_;
};

template <class T, class = only_for<T, float, double>>
double group_sum(const GroupVector<T>& x);
template <class T, class = only_for<T, float, double>>
double group_dot(const GroupVector<T>& x, const GroupVector<T>& y);
/// y = a x + y, each member on its part.
template <class T, class = only_for<T, float, double>>
void group_axpy(T a, const GroupVector<T>& x, GroupVector<T>& y);

}  // namespace portacl
