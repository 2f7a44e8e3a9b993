// SPDX-License-Identifier: Apache-2.0
// Heat 2D over a device group: slabs with ghost rows, bands stepped first
// so that their edge rows travel while the slab steps (see the header).
#include "portacl/kernels/stencil/group_heat2d.hpp"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "portacl/error.hpp"
#include "portacl/runtime/host_buffer.hpp"
#include "rules/group_rules.hpp"

namespace portacl {

namespace {

// One member's slab: its own rows with `above` ghost rows before them and
// `below` after, in one buffer of `stored` rows.
template <class T>
struct Slab {
  Slab(Context& c, std::size_t m, std::size_t first, std::size_t own, std::size_t up, std::size_t down,
       std::size_t cols, std::size_t k)
      : ctx(&c),
        member(m),
        first_row(first),
        rows(own),
        above(up),
        below(down),
        stored(up + own + down),
        band_rows(std::min(3 * k, up + own + down)),
        field(c, stored * cols),
        band_up(c, up ? band_rows * cols : 0),
        band_down(c, down ? band_rows * cols : 0),
        send_up(c, up ? k * cols : 0),
        send_down(c, down ? k * cols : 0),
        receive_up(c, up ? k * cols : 0),
        receive_down(c, down ? k * cols : 0) {}
  Context* ctx;
  std::size_t member, first_row, rows, above, below, stored, band_rows;
  // A band each side: the top band's read may still run while the bottom's steps.
  Buffer<T> field, band_up, band_down;
  HostBuffer<T> send_up, send_down, receive_up, receive_down;
  cl::Event stepped_up, stepped_down, read_up, read_down, write_up, write_down;
};

}  // namespace

template <class T>
struct GroupHeat2d<T>::State {
  DeviceGroup* group;
  std::size_t rows, cols, k;
  std::string why;
  std::vector<Slab<T>> slabs;  // members with rows, top to bottom
  double exchanging = 0;
};

template <class T>
GroupHeat2d<T>::GroupHeat2d(DeviceGroup& group, const std::vector<T>& field, std::size_t rows, std::size_t cols,
                            std::optional<std::size_t> halo_rows)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  if (field.size() != checked_product(rows, cols, "GroupHeat2d: rows x cols"))
    throw Error("GroupHeat2d: the field has " + std::to_string(field.size()) + " elements but the grid is " +
                std::to_string(rows) + " x " + std::to_string(cols));
  s.group = &group;
  s.rows = rows;
  s.cols = cols;
  const std::vector<std::size_t> offsets = group.split(rows);
  std::vector<std::size_t> active;
  std::size_t thinnest = rows;
  for (std::size_t m = 0; m < group.size(); ++m)
    if (offsets[m + 1] > offsets[m]) {
      active.push_back(m);
      thinnest = std::min(thinnest, offsets[m + 1] - offsets[m]);
    }
  HaloWidth width = stencil_halo_width(thinnest);
  if (halo_rows) {
    if (*halo_rows == 0 || *halo_rows > std::max<std::size_t>(thinnest, 1))
      throw Error("GroupHeat2d: halo_rows must be 1 to " + std::to_string(thinnest) +
                  " (the thinnest slab's rows: a neighbour's ghosts come from one member), not " +
                  std::to_string(*halo_rows));
    width.rows = *halo_rows;
    width.why = std::to_string(*halo_rows) + " ghost rows a side, as the caller asked";
  }
  s.k = width.rows;
  s.why = "rule group.halo-width: " + width.why + "\nrule group.split: " + group.explain_split(rows);
  s.slabs.reserve(active.size());
  for (std::size_t a = 0; a < active.size(); ++a) {
    const std::size_t m = active[a];
    const std::size_t up = a > 0 ? s.k : 0, down = a + 1 < active.size() ? s.k : 0;
    s.slabs.emplace_back(group.context(m), m, offsets[m], offsets[m + 1] - offsets[m], up, down, cols, s.k);
    Slab<T>& slab = s.slabs.back();
    const auto from = field.begin() + std::ptrdiff_t((slab.first_row - up) * cols);
    slab.field.upload(std::vector<T>(from, from + std::ptrdiff_t(slab.stored * cols)));
  }
}

template <class T>
GroupHeat2d<T>::~GroupHeat2d() = default;

namespace {

// The fixed sides on a slab's rows, ghosts included, as heat_edges sets
// them on the whole grid; through the host, once a call.
template <class T>
void set_sides(Slab<T>& slab, std::size_t rows, std::size_t cols, const HeatSides<T>& sides) {
  std::vector<T> v = slab.field.download();
  for (std::size_t e = 0; e < slab.stored; ++e) {
    const std::size_t g = slab.first_row - slab.above + e;
    T* row = v.data() + e * cols;
    if (g == 0)
      std::fill(row, row + cols, sides.north);
    else if (g + 1 == rows)
      std::fill(row, row + cols, sides.south);
    else {
      row[0] = sides.west;
      if (cols > 1) row[cols - 1] = sides.east;
    }
  }
  slab.field.upload(v);
}

// Steps one band (a copy of `first` stored rows) and starts reading its
// rows `send_at` .. + k back into `send` on the second queue.
template <class T>
void step_band(Slab<T>& slab, Buffer<T>& band, std::size_t first, std::size_t send_at, std::size_t k, std::size_t cols,
               const HeatOptions<T>& chunk, HostBuffer<T>& send, cl::Event& stepped, cl::Event& read) {
  Context& ctx = *slab.ctx;
  check_cl(ctx.queue().enqueueCopyBuffer(slab.field.cl_buffer(), band.cl_buffer(), first * cols * sizeof(T), 0,
                                         slab.band_rows * cols * sizeof(T)),
           "GroupHeat2d: copying a band");
  heat2d(ctx, band, slab.band_rows, cols, chunk);
  stepped = ctx.done();
  const std::vector<cl::Event> after{stepped};
  check_cl(ctx.queue(1).enqueueReadBuffer(band.cl_buffer(), CL_FALSE, send_at * cols * sizeof(T), k * cols * sizeof(T),
                                          send.data(), &after, &read),
           "GroupHeat2d: reading member " + std::to_string(slab.member) + "'s edge rows");
  check_cl(ctx.queue(1).flush(), "GroupHeat2d: clFlush");
}

// Copies `from` (a neighbour's pinned rows) into `into` (this member's)
// and writes them to stored rows `at` .. + k.
template <class T>
void write_ghosts(Slab<T>& slab, const HostBuffer<T>& from, HostBuffer<T>& into, std::size_t at, std::size_t cols,
                  cl::Event& write) {
  if (write()) check_cl(write.wait(), "GroupHeat2d: waiting for a ghost write");
  std::copy(from.begin(), from.end(), into.begin());
  check_cl(slab.ctx->queue().enqueueWriteBuffer(slab.field.cl_buffer(), CL_FALSE, at * cols * sizeof(T),
                                                into.size() * sizeof(T), into.data(), nullptr, &write),
           "GroupHeat2d: writing member " + std::to_string(slab.member) + "'s ghost rows");
}

}  // namespace

template <class T>
void GroupHeat2d<T>::advance(const HeatOptions<T>& o) {
  State& s = *state_;
  if (o.on_output || o.output_every)
    throw Error(
        "GroupHeat2d::advance: on_output is not offered on a device group (the field lies in slabs); "
        "advance in parts and download() between them");
  if (o.steps == 0) throw Error("heat2d: zero steps asked for");
  if (o.sides)
    for (Slab<T>& slab : s.slabs) set_sides(slab, s.rows, s.cols, *o.sides);
  HeatOptions<T> chunk = o;
  chunk.sides.reset();
  const std::size_t k = s.k;
  for (std::size_t done = 0; done < o.steps; done += chunk.steps) {
    chunk.steps = std::min(k, o.steps - done);
    for (Slab<T>& slab : s.slabs) {
      if (slab.above)
        step_band(slab, slab.band_up, 0, k, k, s.cols, chunk, slab.send_up, slab.stepped_up, slab.read_up);
      if (slab.below)
        step_band(slab, slab.band_down, slab.stored - slab.band_rows, slab.band_rows - 2 * k, k, s.cols, chunk,
                  slab.send_down, slab.stepped_down, slab.read_down);
      heat2d(*slab.ctx, slab.field, slab.stored, s.cols, chunk);
      check_cl(slab.ctx->queue().flush(), "GroupHeat2d: clFlush");
    }
    if (s.slabs.size() < 2) continue;
    // The exchange's time: from the bands stepped to the ghost rows copied
    // and their writes enqueued (they follow the slab's step, in order).
    for (Slab<T>& slab : s.slabs) {
      if (slab.above) check_cl(slab.stepped_up.wait(), "GroupHeat2d: waiting for a band");
      if (slab.below) check_cl(slab.stepped_down.wait(), "GroupHeat2d: waiting for a band");
    }
    const auto start = std::chrono::steady_clock::now();
    for (Slab<T>& slab : s.slabs) {
      if (slab.above) check_cl(slab.read_up.wait(), "GroupHeat2d: waiting for edge rows");
      if (slab.below) check_cl(slab.read_down.wait(), "GroupHeat2d: waiting for edge rows");
    }
    for (std::size_t a = 0; a < s.slabs.size(); ++a) {
      Slab<T>& slab = s.slabs[a];
      if (slab.above) write_ghosts(slab, s.slabs[a - 1].send_down, slab.receive_up, 0, s.cols, slab.write_up);
      if (slab.below)
        write_ghosts(slab, s.slabs[a + 1].send_up, slab.receive_down, slab.stored - k, s.cols, slab.write_down);
    }
    s.exchanging += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
}

template <class T>
std::vector<T> GroupHeat2d<T>::download() const {
  const State& s = *state_;
  std::vector<T> all(s.rows * s.cols);
  for (const Slab<T>& slab : s.slabs)
    check_cl(slab.ctx->queue().enqueueReadBuffer(slab.field.cl_buffer(), CL_TRUE, slab.above * s.cols * sizeof(T),
                                                 slab.rows * s.cols * sizeof(T), all.data() + slab.first_row * s.cols),
             "GroupHeat2d: reading member " + std::to_string(slab.member) + "'s slab");
  return all;
}

template <class T>
std::size_t GroupHeat2d<T>::halo_rows() const {
  return state_->k;
}

template <class T>
std::string GroupHeat2d<T>::describe() const {
  std::ostringstream text;
  for (const Slab<T>& slab : state_->slabs)
    text << "member " << slab.member << ": rows " << slab.first_row << " to " << slab.first_row + slab.rows << " ("
         << slab.rows << "), " << slab.above << " ghost rows above, " << slab.below << " below\n";
  return text.str() + state_->why;
}

template <class T>
double GroupHeat2d<T>::exchange_seconds() const {
  return state_->exchanging;
}

template class GroupHeat2d<float>;
template class GroupHeat2d<double>;

}  // namespace portacl
