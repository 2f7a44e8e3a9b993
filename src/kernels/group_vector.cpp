// SPDX-License-Identifier: Apache-2.0
// Group vectors: a part a member, the parts' calls enqueued on every member
// before any result is read, the partial results added in member order.
#include "portacl/group.hpp"

#include <string>

#include "portacl/error.hpp"
#include "portacl/vectors.hpp"

namespace portacl {

template <class T>
GroupVector<T>::GroupVector(DeviceGroup& group, std::size_t n) : group_(&group), offsets_(group.split(n)) {
  for (std::size_t i = 0; i < group.size(); ++i) parts_.emplace_back(group.context(i), offsets_[i + 1] - offsets_[i]);
}

template <class T>
GroupVector<T>::GroupVector(DeviceGroup& group, const std::vector<T>& host) : GroupVector(group, host.size()) {
  for (std::size_t i = 0; i < parts_.size(); ++i)
    if (parts_[i].size())
      parts_[i].upload(
          std::vector<T>(host.begin() + std::ptrdiff_t(offsets_[i]), host.begin() + std::ptrdiff_t(offsets_[i + 1])));
}

template <class T>
std::vector<T> GroupVector<T>::download() const {
  std::vector<T> all;
  all.reserve(size());
  for (const Buffer<T>& part : parts_) {
    const std::vector<T> v = part.size() ? part.download() : std::vector<T>{};
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

namespace {

// Two group vectors whose parts line up member by member.
template <class T>
void check_aligned(const char* op, const GroupVector<T>& x, const GroupVector<T>& y) {
  if (&x.group() != &y.group()) throw Error(std::string(op) + ": x and y are spread over different device groups");
  if (x.size() != y.size())
    throw Error(std::string(op) + ": x has " + std::to_string(x.size()) + " elements, y " + std::to_string(y.size()));
  if (x.offsets() != y.offsets())
    throw Error(std::string(op) + ": x and y were split with different weights; their parts do not line up");
}

// The members' values, all enqueued before the first is read.
template <class T, class Enqueue>
double add_partials(const GroupVector<T>& x, Enqueue&& enqueue) {
  std::vector<DeviceValue<T>> partials;
  for (std::size_t i = 0; i < x.group().size(); ++i)
    if (x.part(i).size()) partials.push_back(enqueue(i));
  double total = 0;
  for (const DeviceValue<T>& v : partials) total += double(v.get());
  return total;
}

}  // namespace

template <class T, class>
double group_sum(const GroupVector<T>& x) {
  return add_partials(x, [&](std::size_t i) { return sum_async(x.group().context(i), x.part(i)); });
}

template <class T, class>
double group_dot(const GroupVector<T>& x, const GroupVector<T>& y) {
  check_aligned("group_dot", x, y);
  return add_partials(x, [&](std::size_t i) { return dot_async(x.group().context(i), x.part(i), y.part(i)); });
}

template <class T, class>
void group_axpy(T a, const GroupVector<T>& x, GroupVector<T>& y) {
  check_aligned("group_axpy", x, y);
  for (std::size_t i = 0; i < x.group().size(); ++i)
    if (x.part(i).size()) axpy(x.group().context(i), a, x.part(i), y.part(i));
}

template class GroupVector<float>;
template class GroupVector<double>;
template double group_sum<float>(const GroupVector<float>&);
template double group_sum<double>(const GroupVector<double>&);
template double group_dot<float>(const GroupVector<float>&, const GroupVector<float>&);
template double group_dot<double>(const GroupVector<double>&, const GroupVector<double>&);
template void group_axpy<float>(float, const GroupVector<float>&, GroupVector<float>&);
template void group_axpy<double>(double, const GroupVector<double>&, GroupVector<double>&);

}  // namespace portacl
