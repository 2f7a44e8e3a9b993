// SPDX-License-Identifier: Apache-2.0
// Heat 2D over a device group: slabs with ghost rows, bands stepped first
// so that their edge rows travel while the slab steps (see the header).
#include "portacl/stencil.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "portacl/error.hpp"
#include "kernels/stencil/heat_slab.hpp"
#include "rules/group_rules.hpp"

namespace portacl {

template <class T>
struct GroupHeat2d<T>::State {
  DeviceGroup* group;
  std::size_t rows, cols, k;
  std::string why;
  std::vector<HeatSlab<T>> slabs;  // members with rows, top to bottom
  double exchanging = 0;
};

template <class T>
GroupHeat2d<T>::GroupHeat2d(DeviceGroup& group, const std::vector<T>& field, std::size_t rows, std::size_t cols,
                            std::optional<std::size_t> halo_rows)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.group = &group;
  s.rows = rows;
  s.cols = cols;
  const std::vector<std::size_t> offsets = group.split(rows);
  const SlabLayout layout = slab_layout("GroupHeat2d", field.size(), rows, cols, offsets, halo_rows);
  const std::vector<std::size_t>& active = layout.active;
  s.k = layout.k;
  s.why = layout.why + "\nrule group.split: " + group.explain_split(rows);
  s.slabs.reserve(active.size());
  for (std::size_t a = 0; a < active.size(); ++a) {
    const std::size_t m = active[a];
    const std::size_t up = a > 0 ? s.k : 0, down = a + 1 < active.size() ? s.k : 0;
    s.slabs.emplace_back(group.context(m), "member " + std::to_string(m), offsets[m], offsets[m + 1] - offsets[m], up,
                         down, cols, s.k);
    s.slabs.back().upload_from(field);
  }
}

template <class T>
GroupHeat2d<T>::~GroupHeat2d() = default;

template <class T>
void GroupHeat2d<T>::advance(const HeatOptions<T>& o) {
  State& s = *state_;
  check_slab_options("GroupHeat2d::advance", o);
  if (o.sides)
    for (HeatSlab<T>& slab : s.slabs) slab.set_sides(s.rows, *o.sides);
  HeatOptions<T> chunk = o;
  chunk.sides.reset();
  for (std::size_t done = 0; done < o.steps; done += chunk.steps) {
    chunk.steps = std::min(s.k, o.steps - done);
    for (HeatSlab<T>& slab : s.slabs) slab.step(chunk);
    if (s.slabs.size() < 2) continue;
    // The exchange's time: from the bands stepped to the ghost rows copied
    // and their writes enqueued (they follow the slab's step, in order).
    for (HeatSlab<T>& slab : s.slabs) slab.wait_bands();
    const auto start = std::chrono::steady_clock::now();
    for (HeatSlab<T>& slab : s.slabs) slab.wait_edges();
    for (std::size_t a = 0; a < s.slabs.size(); ++a) {
      HeatSlab<T>& slab = s.slabs[a];
      if (slab.above)
        std::copy(s.slabs[a - 1].send_down.begin(), s.slabs[a - 1].send_down.end(), slab.receive_up.begin());
      if (slab.below)
        std::copy(s.slabs[a + 1].send_up.begin(), s.slabs[a + 1].send_up.end(), slab.receive_down.begin());
      slab.write_ghosts();
    }
    s.exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
}

template <class T>
std::vector<T> GroupHeat2d<T>::download() const {
  const State& s = *state_;
  std::vector<T> all(s.rows * s.cols);
  for (const HeatSlab<T>& slab : s.slabs) slab.download_into(all.data() + slab.first_row * s.cols);
  return all;
}

template <class T>
std::size_t GroupHeat2d<T>::halo_rows() const {
  return state_->k;
}

template <class T>
std::string GroupHeat2d<T>::describe() const {
  std::ostringstream text;
  for (const HeatSlab<T>& slab : state_->slabs)
    text << slab.owner << ": rows " << slab.first_row << " to " << slab.first_row + slab.rows << " (" << slab.rows
         << "), " << slab.above << " ghost rows above, " << slab.below << " below\n";
  return text.str() + state_->why;
}

template <class T>
double GroupHeat2d<T>::exchange_seconds() const {
  return state_->exchanging;
}

template class GroupHeat2d<float>;
template class GroupHeat2d<double>;

}  // namespace portacl
