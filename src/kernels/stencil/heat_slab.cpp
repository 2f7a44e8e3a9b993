// SPDX-License-Identifier: Apache-2.0
// A heat 2D slab with ghost rows and its two edge bands (see the header).
#include "kernels/stencil/heat_slab.hpp"

#include <algorithm>
#include <utility>

#include "kernels/stencil/heat2d_steps.hpp"

#include "portacl/error.hpp"
#include "rules/group_rules.hpp"

namespace portacl {

template <class T>
HeatSlab<T>::HeatSlab(Context& c, std::string name, std::size_t first, std::size_t own, std::size_t up,
                      std::size_t down, std::size_t columns, std::size_t halo)
    : ctx(&c),
      owner(std::move(name)),
      first_row(first),
      rows(own),
      above(up),
      below(down),
      stored(up + own + down),
      band_rows(std::min(3 * halo, up + own + down)),
      cols(columns),
      k(halo),
      field(c, stored * columns),
      scratch(c, stored * columns),
      band_up(c, up ? band_rows * columns : 0),
      band_down(c, down ? band_rows * columns : 0),
      band_scratch_up(c, up ? band_rows * columns : 0),
      band_scratch_down(c, down ? band_rows * columns : 0),
      send_up(c, up ? halo * columns : 0),
      send_down(c, down ? halo * columns : 0),
      receive_up(c, up ? halo * columns : 0),
      receive_down(c, down ? halo * columns : 0) {}

template <class T>
void HeatSlab<T>::upload_from(const std::vector<T>& whole) {
  const auto from = whole.begin() + std::ptrdiff_t((first_row - above) * cols);
  field.upload(std::vector<T>(from, from + std::ptrdiff_t(stored * cols)));
}

template <class T>
void HeatSlab<T>::set_sides(std::size_t grid_rows, const HeatSides<T>& sides) {
  std::vector<T> v = field.download();
  for (std::size_t e = 0; e < stored; ++e) {
    const std::size_t g = first_row - above + e;
    T* row = v.data() + e * cols;
    if (g == 0)
      std::fill(row, row + cols, sides.north);
    else if (g + 1 == grid_rows)
      std::fill(row, row + cols, sides.south);
    else {
      row[0] = sides.west;
      if (cols > 1) row[cols - 1] = sides.east;
    }
  }
  field.upload(v);
}

namespace {

// Steps one band (a copy of the slab's stored rows `first` ..) and starts
// reading its rows `send_at` .. + k back into `send` on the second queue.
template <class T>
void step_band(HeatSlab<T>& slab, Buffer<T>& band, Buffer<T>& band_scratch, std::size_t first, std::size_t send_at,
               const HeatOptions<T>& chunk, HostBuffer<T>& send, cl::Event& stepped, cl::Event& read) {
  Context& ctx = *slab.ctx;
  const std::size_t row_bytes = slab.cols * sizeof(T);
  check_cl(ctx.queue().enqueueCopyBuffer(slab.field.cl_buffer(), band.cl_buffer(), first * row_bytes, 0,
                                         slab.band_rows * row_bytes),
           "heat slab of " + slab.owner + ": copying a band");
  const Buffer<T>& stepped_band = *heat2d_steps(ctx, band, band_scratch, slab.band_rows, slab.cols, chunk).result;
  stepped = ctx.done();
  const std::vector<cl::Event> after{stepped};
  check_cl(ctx.queue(1).enqueueReadBuffer(stepped_band.cl_buffer(), CL_FALSE, send_at * row_bytes, slab.k * row_bytes,
                                          send.data(), &after, &read),
           "heat slab of " + slab.owner + ": reading its edge rows");
  check_cl(ctx.queue(1).flush(), "heat slab: clFlush");
}

template <class T>
void write_rows(HeatSlab<T>& slab, const HostBuffer<T>& rows, std::size_t at, cl::Event& write) {
  check_cl(slab.ctx->queue().enqueueWriteBuffer(slab.field.cl_buffer(), CL_FALSE, at * slab.cols * sizeof(T),
                                                rows.size() * sizeof(T), rows.data(), nullptr, &write),
           "heat slab of " + slab.owner + ": writing its ghost rows");
}

}  // namespace

template <class T>
void HeatSlab<T>::step(const HeatOptions<T>& chunk) {
  // No wait here for the last ghost writes: the host would sit idle while
  // the device finishes the slab's last step, and the device while the host
  // then enqueues this one. wait_bands() waits for them instead.
  if (above) step_band(*this, band_up, band_scratch_up, 0, k, chunk, send_up, stepped_up, read_up);
  if (below)
    step_band(*this, band_down, band_scratch_down, stored - band_rows, band_rows - 2 * k, chunk, send_down,
              stepped_down, read_down);
  if (heat2d_steps(*ctx, field, scratch, stored, cols, chunk).result == &scratch) std::swap(field, scratch);
  check_cl(ctx->queue().flush(), "heat slab: clFlush");
}

template <class T>
void HeatSlab<T>::wait_bands() {
  if (above) check_cl(stepped_up.wait(), "heat slab of " + owner + ": waiting for a band");
  if (below) check_cl(stepped_down.wait(), "heat slab of " + owner + ": waiting for a band");
  // Done already when the queue keeps order (they were enqueued before the
  // bands); waited for all the same, as receive_* is refilled next.
  if (write_up()) check_cl(write_up.wait(), "heat slab of " + owner + ": waiting for a ghost write");
  if (write_down()) check_cl(write_down.wait(), "heat slab of " + owner + ": waiting for a ghost write");
}

template <class T>
void HeatSlab<T>::wait_edges() {
  if (above) check_cl(read_up.wait(), "heat slab of " + owner + ": waiting for its edge rows");
  if (below) check_cl(read_down.wait(), "heat slab of " + owner + ": waiting for its edge rows");
}

template <class T>
void HeatSlab<T>::write_ghosts() {
  if (above) write_rows(*this, receive_up, 0, write_up);
  if (below) write_rows(*this, receive_down, stored - k, write_down);
}

template <class T>
void HeatSlab<T>::download_into(T* out) const {
  check_cl(ctx->queue().enqueueReadBuffer(field.cl_buffer(), CL_TRUE, above * cols * sizeof(T), rows * cols * sizeof(T),
                                          out),
           "heat slab of " + owner + ": reading its rows");
}

SlabLayout slab_layout(const std::string& op, std::size_t field_size, std::size_t rows, std::size_t cols,
                       const std::vector<std::size_t>& offsets, std::optional<std::size_t> asked) {
  if (field_size != checked_product(rows, cols, op + ": rows x cols"))
    throw Error(op + ": the field has " + std::to_string(field_size) + " elements but the grid is " +
                std::to_string(rows) + " x " + std::to_string(cols));
  SlabLayout layout;
  std::size_t thinnest = rows;
  for (std::size_t m = 0; m + 1 < offsets.size(); ++m)
    if (offsets[m + 1] > offsets[m]) {
      layout.active.push_back(m);
      thinnest = std::min(thinnest, offsets[m + 1] - offsets[m]);
    }
  HaloWidth width = stencil_halo_width(thinnest);
  if (asked) {
    if (*asked == 0 || *asked > std::max<std::size_t>(thinnest, 1))
      throw Error(op + ": halo_rows must be 1 to " + std::to_string(thinnest) +
                  " (the thinnest slab's rows: a neighbour's ghosts come from one slab), not " +
                  std::to_string(*asked));
    width.rows = *asked;
    width.why = std::to_string(*asked) + " ghost rows a side, as the caller asked";
  }
  layout.k = width.rows;
  layout.why = "rule group.halo-width: " + width.why;
  return layout;
}

template <class T>
void check_slab_options(const std::string& op, const HeatOptions<T>& o) {
  if (o.on_output || o.output_every)
    throw Error(
        op +
        ": on_output is not offered on slabs (the field lies in parts); advance in parts and download() between them");
  if (o.steps == 0) throw Error("heat2d: zero steps asked for");
}

template void check_slab_options<float>(const std::string&, const HeatOptions<float>&);
template void check_slab_options<double>(const std::string&, const HeatOptions<double>&);
template struct HeatSlab<float>;
template struct HeatSlab<double>;

}  // namespace portacl
