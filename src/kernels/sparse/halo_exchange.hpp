// SPDX-License-Identifier: Apache-2.0
// The halo of a row partition moved between device-group members. OpenCL
// has no copy between two contexts, so the entries travel through pinned
// host memory: each owner reads what the others need into its pinned
// buffer on a second queue (HaloSend), while its first queue goes on with
// the interior product; the host then copies each receiver's runs into that
// receiver's pinned buffer (halos are small) and writes them to its device
// without waiting.
//   post()      starts the reads (returns at once)
//   complete()  waits for the reads, enqueues the writes; a launch enqueued
//               on a receiver's queue after it sees the new halo. A write is
//               waited for only before its pinned buffer is filled again
//               (the next complete()), so the host never waits for a
//               receiver's interior product.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/sparse/halo_send.hpp"
#include "kernels/sparse/row_partition.hpp"
#include "portacl/buffer.hpp"
#include "portacl/context.hpp"

namespace portacl {

template <class T>
class HaloExchange {
 public:
  HaloExchange(DeviceGroup& group, const RowPartition<T>& partition);

  /// own[m]: member m's part of x (its rows' entries).
  void post(const std::vector<const Buffer<T>*>& own);
  void complete();
  /// Member m's halo: the entries of x its halo columns name, in order.
  const Buffer<T>& halo(std::size_t member) const { return members_[member].halo; }
  std::size_t halo_size(std::size_t member) const { return members_[member].halo.size(); }
  /// Seconds in complete(): from waiting for the reads to every halo's
  /// write enqueued.
  double exchange_seconds() const { return exchange_seconds_; }

 private:
  struct Member {
    Member(Context& ctx, const std::vector<std::uint32_t>& send_index, std::size_t halo, std::size_t number);
    Member(Member&&) = default;
    ~Member();  // waits for a write still reading receive_host
    HaloSend<T> send;
    HostBuffer<T> receive_host;
    Buffer<T> halo;
    cl::Event write_done;
  };
  DeviceGroup* group_;
  std::vector<std::vector<std::size_t>> send_to_, halo_from_;
  std::vector<Member> members_;
  double exchange_seconds_ = 0;
};

}  // namespace portacl
