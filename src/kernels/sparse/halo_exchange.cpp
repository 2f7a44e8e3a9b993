// SPDX-License-Identifier: Apache-2.0
#include "kernels/sparse/halo_exchange.hpp"

#include <algorithm>

#include "portacl/error.hpp"

namespace portacl {

template <class T>
HaloExchange<T>::Member::Member(Context& ctx, const std::vector<std::uint32_t>& index, std::size_t halo_size,
                                std::size_t number)
    : send(ctx, index, "halo exchange, member " + std::to_string(number)),
      receive_host(ctx, halo_size),
      halo(ctx, halo_size) {}

template <class T>
HaloExchange<T>::Member::~Member() {
  if (write_done()) write_done.wait();
}

template <class T>
HaloExchange<T>::HaloExchange(DeviceGroup& group, const RowPartition<T>& p) : group_(&group), send_to_(p.send_to) {
  members_.reserve(group.size());
  for (std::size_t m = 0; m < group.size(); ++m) {
    members_.emplace_back(group.context(m), p.send_index[m], p.blocks[m].halo_columns.size(), m);
    halo_from_.push_back(p.blocks[m].halo_from);
  }
}

template <class T>
void HaloExchange<T>::post(const std::vector<const Buffer<T>*>& own) {
  for (std::size_t m = 0; m < members_.size(); ++m) members_[m].send.post(*own[m]);
  for (std::size_t m = 0; m < members_.size(); ++m)
    check_cl(group_->context(m).queue().flush(), "halo exchange: clFlush");
}

template <class T>
void HaloExchange<T>::complete() {
  const auto start = std::chrono::steady_clock::now();
  for (Member& s : members_) s.send.wait();
  for (std::size_t to = 0; to < members_.size(); ++to) {
    Member& r = members_[to];
    if (!r.halo.size()) continue;
    if (r.write_done()) check_cl(r.write_done.wait(), "halo exchange: waiting for the last halo write");
    for (std::size_t owner = 0; owner < members_.size(); ++owner) {
      const std::size_t first = send_to_[owner][to], count = send_to_[owner][to + 1] - first;
      std::copy_n(members_[owner].send.host() + first, count, r.receive_host.data() + halo_from_[to][owner]);
    }
    Context& ctx = group_->context(to);
    check_cl(ctx.queue().enqueueWriteBuffer(r.halo.cl_buffer(), CL_FALSE, 0, r.halo.size() * sizeof(T),
                                            r.receive_host.data(), nullptr, &r.write_done),
             "halo exchange: writing member " + std::to_string(to) + "'s halo");
    ctx.record(r.write_done);
  }
  exchange_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template class HaloExchange<float>;
template class HaloExchange<double>;

}  // namespace portacl
