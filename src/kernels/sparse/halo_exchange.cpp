// SPDX-License-Identifier: Apache-2.0
#include "kernels/sparse/halo_exchange.hpp"

#include <algorithm>

#include "kernels/gather.hpp"
#include "portacl/error.hpp"

namespace portacl {

template <class T>
HaloExchange<T>::Member::Member(Context& ctx, const std::vector<std::uint32_t>& index, std::size_t halo_size)
    : send_index(ctx, index.size()),
      send(ctx, index.size()),
      send_host(ctx, index.size()),
      receive_host(ctx, halo_size),
      halo(ctx, halo_size) {
  if (!index.empty()) send_index.upload(index);
}

template <class T>
HaloExchange<T>::HaloExchange(DeviceGroup& group, const RowPartition<T>& p) : group_(&group), send_to_(p.send_to) {
  members_.reserve(group.size());
  for (std::size_t m = 0; m < group.size(); ++m) {
    members_.emplace_back(group.context(m), p.send_index[m], p.blocks[m].halo_columns.size());
    halo_from_.push_back(p.blocks[m].halo_from);
  }
}

template <class T>
void HaloExchange<T>::post(const std::vector<const Buffer<T>*>& own) {
  for (std::size_t m = 0; m < members_.size(); ++m) {
    Member& s = members_[m];
    if (!s.send.size()) continue;
    Context& ctx = group_->context(m);
    gather(ctx, s.send_index, *own[m], s.send);
    // The read on the second queue, so the first goes on with the product.
    s.packed = ctx.done();
    const std::vector<cl::Event> packed{s.packed};
    check_cl(ctx.queue(1).enqueueReadBuffer(s.send.cl_buffer(), CL_FALSE, 0, s.send.size() * sizeof(T),
                                            s.send_host.data(), &packed, &s.read_done),
             "halo exchange: reading member " + std::to_string(m) + "'s halo entries");
    check_cl(ctx.queue(1).flush(), "halo exchange: clFlush");
    check_cl(ctx.queue().flush(), "halo exchange: clFlush");
  }
}

template <class T>
void HaloExchange<T>::complete() {
  for (std::size_t m = 0; m < members_.size(); ++m)
    if (members_[m].send.size()) check_cl(members_[m].packed.wait(), "halo exchange: waiting for a gather");
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t m = 0; m < members_.size(); ++m)
    if (members_[m].send.size())
      check_cl(members_[m].read_done.wait(), "halo exchange: waiting for member " + std::to_string(m) + "'s read");
  for (std::size_t to = 0; to < members_.size(); ++to) {
    Member& r = members_[to];
    if (!r.halo.size()) continue;
    for (std::size_t owner = 0; owner < members_.size(); ++owner) {
      const std::size_t first = send_to_[owner][to], count = send_to_[owner][to + 1] - first;
      std::copy_n(members_[owner].send_host.data() + first, count, r.receive_host.data() + halo_from_[to][owner]);
    }
    Context& ctx = group_->context(to);
    check_cl(ctx.queue().enqueueWriteBuffer(r.halo.cl_buffer(), CL_FALSE, 0, r.halo.size() * sizeof(T),
                                            r.receive_host.data(), nullptr, &r.write_done),
             "halo exchange: writing member " + std::to_string(to) + "'s halo");
  }
  for (Member& r : members_)
    if (r.halo.size()) check_cl(r.write_done.wait(), "halo exchange: waiting for a halo write");
  exchange_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template class HaloExchange<float>;
template class HaloExchange<double>;

}  // namespace portacl
