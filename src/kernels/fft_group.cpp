// SPDX-License-Identifier: Apache-2.0
// A 3D FFT over a device group, in slabs (include/portacl/fft.hpp, "group
// fft"): each member's planes of axis 0 by its 2D transforms, an
// all-to-all into columns of axis 1 (axis 0 contiguous), their 1D
// transforms, and the all-to-all back (or the spectrum left in the
// columns: forward_to_columns, inverse_from_columns). The all-to-all
// (fft_slabs.hpp): each member transposes its slab on its device, reads it
// whole into pinned host memory kept between calls, and every receiver
// takes its block as a rectangle copy (a member's own block stays on its
// device). The splits are the group's (rule group.split); the transforms
// are BasicFft's plans.
#include <chrono>
#include <optional>
#include <sstream>

#include "fft_slabs.hpp"
#include "kernel_call.hpp"
#include "portacl/error.hpp"
#include "portacl/fft.hpp"
#include "portacl/vectors.hpp"

namespace portacl {

template <class T>
struct BasicGroupFft3d<T>::State {
  DeviceGroup* group = nullptr;
  std::size_t n0 = 0, n1 = 0, n2 = 0;
  std::vector<std::size_t> planes, columns;  // axis 0's and axis 1's splits
  std::vector<std::optional<BasicFft<T>>> plane_fft, column_fft;
  std::vector<std::optional<Buffer<T>>> column_data;  // a member's columns: [i1][i2][i0]
  std::vector<std::optional<Buffer<T>>> packed;       // a member's slab transposed: [i1][i2][i0 - p0]
  std::vector<std::optional<HostBuffer<T>>> staging;  // its copy in pinned host memory
  std::vector<LaunchPlan> transpose;                  // a member's transposes (plan_fft_slab_transpose)
  double exchanging = 0;

  std::size_t plane_values(std::size_t i) const { return 2 * (planes[i + 1] - planes[i]) * n1 * n2; }
  std::size_t column_values(std::size_t j) const { return 2 * (columns[j + 1] - columns[j]) * n2 * n0; }
  // Member i's block of member j's columns: where its rows land.
  FftSlabRows block(std::size_t i, std::size_t j) const {
    return {planes[i], planes[i + 1] - planes[i], columns[j + 1] - columns[j], n0, n2};
  }
  // Where that block starts in member i's transposed slab, in T.
  std::size_t block_start(std::size_t i, std::size_t j) const {
    return 2 * columns[j] * n2 * (planes[i + 1] - planes[i]);
  }
  void check(const char* op, const std::vector<Buffer<T>>& slabs) const;
  void check_columns(const char* op, const std::vector<Buffer<T>>& columns) const;
  // Both all-to-alls, the output in the slabs.
  void transform(std::vector<Buffer<T>>& slabs, bool inverse);
  // One all-to-all: forward from the slabs into `columns`, or inverse back.
  void one_way(std::vector<Buffer<T>>& slabs, std::vector<Buffer<T>>& columns, bool inverse);
  // The kept columns' buffers (null for a member with none).
  std::vector<Buffer<T>*> kept_columns();
  // The members' 2D transforms of their planes, and their 1D transforms of
  // their columns (`columns`: null for a member with none).
  void plane_transforms(std::vector<Buffer<T>>& slabs, bool inverse);
  void column_transforms(const std::vector<Buffer<T>*>& columns, bool inverse);
  // The all-to-all: the slabs' planes into the members' columns, or back.
  void to_columns(std::vector<Buffer<T>>& slabs, const std::vector<Buffer<T>*>& columns);
  void to_planes(const std::vector<Buffer<T>*>& columns, std::vector<Buffer<T>>& slabs);
};

namespace {

// The first `values` of `buffer` read into the host, on its context's queue.
template <class T>
void read_prefix(const Buffer<T>& buffer, std::vector<T>& host) {
  if (!host.empty())
    buffer.context().queue().enqueueReadBuffer(buffer.cl_buffer(), CL_TRUE, 0, host.size() * sizeof(T), host.data());
}

}  // namespace

template <class T>
BasicGroupFft3d<T>::BasicGroupFft3d(DeviceGroup& group, std::array<std::size_t, 3> shape, const PlanOptions& plan)
    : s_(std::make_unique<State>()) {
  State& s = *s_;
  for (std::size_t k = 0; k < 3; ++k)
    if (shape[k] == 0) throw Error("group fft: length " + std::to_string(k) + " is 0; every length is at least 1");
  s.group = &group;
  s.n0 = shape[0], s.n1 = shape[1], s.n2 = shape[2];
  checked_product(checked_product(checked_product(s.n0, s.n1, "group fft"), s.n2, "group fft"), 2, "group fft");
  s.planes = group.split(s.n0);
  s.columns = group.split(s.n1);
  const std::size_t members = group.size();
  s.plane_fft.resize(members);
  s.column_fft.resize(members);
  s.column_data.resize(members);
  s.packed.resize(members);
  s.staging.resize(members);
  for (std::size_t m = 0; m < members; ++m) {
    Context& ctx = group.context(m);
    FftOptions o;
    o.plan = plan;
    s.transpose.push_back(
        plan_fft_slab_transpose(live_planner(ctx, plan), element_of<T>::value, s.plane_values(m) / 2));
    if (const std::size_t count = s.planes[m + 1] - s.planes[m]) {
      o.batch = count;
      s.plane_fft[m].emplace(ctx, std::vector<std::size_t>{s.n1, s.n2}, o);
      s.packed[m].emplace(ctx, s.plane_values(m));
      s.staging[m].emplace(ctx, s.plane_values(m));
    }
    if (const std::size_t count = s.columns[m + 1] - s.columns[m]) {
      o.batch = count * s.n2;
      s.column_fft[m].emplace(ctx, std::vector<std::size_t>{s.n0}, o);
      s.column_data[m].emplace(ctx, s.column_values(m));
    }
  }
}

template <class T>
BasicGroupFft3d<T>::~BasicGroupFft3d() = default;
template <class T>
BasicGroupFft3d<T>::BasicGroupFft3d(BasicGroupFft3d&&) noexcept = default;

template <class T>
void BasicGroupFft3d<T>::State::check(const char* op, const std::vector<Buffer<T>>& slabs) const {
  const std::string o = std::string("group fft ") + op;
  if (slabs.size() != group->size())
    throw Error(o + ": " + std::to_string(slabs.size()) + " slabs for a group of " + std::to_string(group->size()) +
                " members; one a member, in order");
  for (std::size_t m = 0; m < slabs.size(); ++m) {
    kernel_call::same_context(group->context(m), slabs[m], o.c_str(), ("slab " + std::to_string(m)).c_str());
    kernel_call::need_elements(o.c_str(), ("slab " + std::to_string(m)).c_str(), slabs[m].size(), plane_values(m),
                               std::to_string(planes[m + 1] - planes[m]) + " planes of " + std::to_string(n1) + " x " +
                                   std::to_string(n2) + " complex values");
  }
}

template <class T>
void BasicGroupFft3d<T>::State::check_columns(const char* op, const std::vector<Buffer<T>>& columns) const {
  const std::string o = std::string("group fft ") + op;
  if (columns.size() != group->size())
    throw Error(o + ": " + std::to_string(columns.size()) + " column buffers for a group of " +
                std::to_string(group->size()) + " members; one a member, in order (make_columns())");
  for (std::size_t m = 0; m < columns.size(); ++m) {
    kernel_call::same_context(group->context(m), columns[m], o.c_str(), ("columns " + std::to_string(m)).c_str());
    kernel_call::need_elements(o.c_str(), ("columns " + std::to_string(m)).c_str(), columns[m].size(), column_values(m),
                               std::to_string(this->columns[m + 1] - this->columns[m]) + " columns of " +
                                   std::to_string(n2) + " x " + std::to_string(n0) + " complex values");
  }
}

template <class T>
std::vector<Buffer<T>*> BasicGroupFft3d<T>::State::kept_columns() {
  std::vector<Buffer<T>*> c;
  for (std::optional<Buffer<T>>& d : column_data) c.push_back(d ? &*d : nullptr);
  return c;
}

template <class T>
void BasicGroupFft3d<T>::State::plane_transforms(std::vector<Buffer<T>>& slabs, bool inverse) {
  // Every member's transforms are enqueued before the exchange waits on any.
  for (std::size_t m = 0; m < slabs.size(); ++m)
    if (plane_fft[m]) inverse ? plane_fft[m]->inverse(slabs[m]) : plane_fft[m]->forward(slabs[m]);
}

template <class T>
void BasicGroupFft3d<T>::State::column_transforms(const std::vector<Buffer<T>*>& columns, bool inverse) {
  for (std::size_t m = 0; m < columns.size(); ++m)
    if (column_fft[m]) inverse ? column_fft[m]->inverse(*columns[m]) : column_fft[m]->forward(*columns[m]);
}

template <class T>
void BasicGroupFft3d<T>::State::to_columns(std::vector<Buffer<T>>& slabs, const std::vector<Buffer<T>*>& columns) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t members = slabs.size();
  // Each slab transposed on its device and read whole into pinned memory.
  for (std::size_t i = 0; i < members; ++i)
    if (packed[i]) {
      transpose_slab(transpose[i], slabs[i], *packed[i], planes[i + 1] - planes[i], n1 * n2);
      slabs[i].context().queue().enqueueReadBuffer(packed[i]->cl_buffer(), CL_FALSE, 0, plane_values(i) * sizeof(T),
                                                   staging[i]->data());
    }
  for (std::size_t i = 0; i < members; ++i)
    if (packed[i]) slabs[i].context().finish();
  // Every block into its receiver's columns (a member's own from its device).
  for (std::size_t j = 0; j < members; ++j) {
    if (!column_fft[j]) continue;
    for (std::size_t i = 0; i < members; ++i)
      if (packed[i] && i == j)
        copy_slab_rows(*packed[i], block_start(i, j), *columns[j], block(i, j), true);
      else if (packed[i])
        move_slab_rows(*columns[j], staging[i]->data() + block_start(i, j), block(i, j), true, false);
    columns[j]->context().finish();  // the pinned copies are free again
  }
  exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class T>
void BasicGroupFft3d<T>::State::to_planes(const std::vector<Buffer<T>*>& columns, std::vector<Buffer<T>>& slabs) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t members = slabs.size();
  // Every block read back from its columns into its sender's pinned copy.
  for (std::size_t j = 0; j < members; ++j)
    if (column_fft[j])
      for (std::size_t i = 0; i < members; ++i)
        if (packed[i] && i != j)
          move_slab_rows(*columns[j], staging[i]->data() + block_start(i, j), block(i, j), false, false);
  for (std::size_t j = 0; j < members; ++j)
    if (column_fft[j]) columns[j]->context().finish();
  // Each slab written whole (its own block then from its device) and
  // transposed back on its device.
  for (std::size_t i = 0; i < members; ++i)
    if (packed[i]) {
      slabs[i].context().queue().enqueueWriteBuffer(packed[i]->cl_buffer(), CL_TRUE, 0, plane_values(i) * sizeof(T),
                                                    staging[i]->data());
      if (column_fft[i]) copy_slab_rows(*packed[i], block_start(i, i), *columns[i], block(i, i), false);
      transpose_slab(transpose[i], *packed[i], slabs[i], n1 * n2, planes[i + 1] - planes[i]);
    }
  exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class T>
void BasicGroupFft3d<T>::State::transform(std::vector<Buffer<T>>& slabs, bool inverse) {
  const std::vector<Buffer<T>*> columns = kept_columns();
  plane_transforms(slabs, inverse);
  to_columns(slabs, columns);
  column_transforms(columns, inverse);
  to_planes(columns, slabs);
}

template <class T>
void BasicGroupFft3d<T>::forward(std::vector<Buffer<T>>& slabs) const {
  s_->check("forward", slabs);
  s_->transform(slabs, false);
}

template <class T>
void BasicGroupFft3d<T>::inverse(std::vector<Buffer<T>>& slabs) const {
  s_->check("inverse", slabs);
  s_->transform(slabs, true);
}

template <class T>
void BasicGroupFft3d<T>::State::one_way(std::vector<Buffer<T>>& slabs, std::vector<Buffer<T>>& columns, bool inverse) {
  const char* op = inverse ? "inverse_from_columns" : "forward_to_columns";
  check(op, slabs);
  check_columns(op, columns);
  std::vector<Buffer<T>*> c;
  for (Buffer<T>& b : columns) c.push_back(&b);
  if (!inverse) {
    plane_transforms(slabs, false);
    to_columns(slabs, c);
  }
  column_transforms(c, inverse);
  if (inverse) {
    to_planes(c, slabs);
    plane_transforms(slabs, true);
  }
}

template <class T>
void BasicGroupFft3d<T>::forward_to_columns(std::vector<Buffer<T>>& slabs, std::vector<Buffer<T>>& columns) const {
  s_->one_way(slabs, columns, false);
}

template <class T>
void BasicGroupFft3d<T>::inverse_from_columns(std::vector<Buffer<T>>& columns, std::vector<Buffer<T>>& slabs) const {
  s_->one_way(slabs, columns, true);
}

template <class T>
std::vector<Buffer<T>> BasicGroupFft3d<T>::make_columns() const {
  const State& s = *s_;
  std::vector<Buffer<T>> c;
  for (std::size_t m = 0; m < s.group->size(); ++m) c.emplace_back(s.group->context(m), s.column_values(m));
  return c;
}

template <class T>
const std::vector<std::size_t>& BasicGroupFft3d<T>::plane_offsets() const {
  return s_->planes;
}
template <class T>
const std::vector<std::size_t>& BasicGroupFft3d<T>::column_offsets() const {
  return s_->columns;
}
template <class T>
double BasicGroupFft3d<T>::exchange_seconds() const {
  return s_->exchanging;
}

template <class T>
std::vector<Buffer<T>> BasicGroupFft3d<T>::scatter(const std::vector<T>& whole) const {
  const State& s = *s_;
  const std::size_t plane = 2 * s.n1 * s.n2;
  if (whole.size() != s.n0 * plane)
    throw Error("group fft scatter: the array has " + std::to_string(whole.size()) + " values, not " +
                std::to_string(s.n0 * plane) + " (" + std::to_string(s.n0) + " x " + std::to_string(s.n1) + " x " +
                std::to_string(s.n2) + " complex values)");
  std::vector<Buffer<T>> slabs;
  for (std::size_t m = 0; m < s.group->size(); ++m)
    slabs.emplace_back(s.group->context(m), std::vector<T>(whole.begin() + std::ptrdiff_t(s.planes[m] * plane),
                                                           whole.begin() + std::ptrdiff_t(s.planes[m + 1] * plane)));
  return slabs;
}

template <class T>
std::vector<T> BasicGroupFft3d<T>::gather(const std::vector<Buffer<T>>& slabs) const {
  const State& s = *s_;
  s.check("gather", slabs);
  std::vector<T> whole;
  whole.reserve(2 * s.n0 * s.n1 * s.n2);
  for (std::size_t m = 0; m < slabs.size(); ++m) {
    std::vector<T> part(s.plane_values(m));
    read_prefix(slabs[m], part);
    whole.insert(whole.end(), part.begin(), part.end());
  }
  return whole;
}

template <class T>
std::string BasicGroupFft3d<T>::explain() const {
  const State& s = *s_;
  std::ostringstream text;
  text << "group FFT of " << s.n0 << " x " << s.n1 << " x " << s.n2 << ", " << (sizeof(T) == 4 ? "float" : "double")
       << ", over " << s.group->size() << " members\n"
       << "planes of axis 0: " << s.group->explain_split(s.n0) << "\n"
       << "columns of axis 1 between the all-to-alls: " << s.group->explain_split(s.n1) << "\n";
  for (std::size_t m = 0; m < s.group->size(); ++m) {
    text << "member " << m << ": planes " << s.planes[m] << " to " << s.planes[m + 1] << ", columns " << s.columns[m]
         << " to " << s.columns[m + 1] << "\n";
    if (s.plane_fft[m]) text << s.plane_fft[m]->explain();
    if (s.column_fft[m]) text << s.column_fft[m]->explain();
  }
  return text.str();
}

template class BasicGroupFft3d<float>;
template class BasicGroupFft3d<double>;

}  // namespace portacl
