// SPDX-License-Identifier: Apache-2.0
#include "kernels/sparse/halo_send.hpp"

#include "kernels/gather.hpp"
#include "portacl/error.hpp"

namespace portacl {

namespace {

// The runs of consecutive indices, or none when there are more than `limit`.
template <class Run>
std::vector<Run> index_runs(const std::vector<std::uint32_t>& index, std::size_t limit) {
  std::vector<Run> runs;
  for (std::size_t i = 0; i < index.size(); ++i) {
    if (!runs.empty() && index[i] == runs.back().from + runs.back().count) {
      ++runs.back().count;
      continue;
    }
    if (runs.size() == limit) return {};
    runs.push_back({i, index[i], 1});
  }
  return runs;
}

}  // namespace

template <class T>
HaloSend<T>::HaloSend(Context& ctx, const std::vector<std::uint32_t>& index, std::string what)
    : ctx_(&ctx),
      what_(std::move(what)),
      runs_(index_runs<Run>(index, kMaxDirectSendRuns)),
      index_(ctx, runs_.empty() ? index.size() : 0),
      packed_(ctx, runs_.empty() ? index.size() : 0),
      host_(ctx, index.size()) {
  if (index_.size()) index_.upload(index);
}

template <class T>
void HaloSend<T>::post(const Buffer<T>& x) {
  if (!host_.size()) return;
  if (runs_.empty()) gather(*ctx_, index_, x, packed_);
  // The reads on the second queue, after the first queue's work so far (the
  // pass that wrote x, the gather), so that the first goes on meanwhile.
  const std::vector<cl::Event> after{ctx_->done()};
  cl::CommandQueue& queue = ctx_->queue(1);
  if (runs_.empty()) {
    check_cl(queue.enqueueReadBuffer(packed_.cl_buffer(), CL_FALSE, 0, host_.size() * sizeof(T), host_.data(), &after,
                                     &read_),
             what_ + ": reading the halo entries to send");
  } else {
    for (const Run& run : runs_)
      check_cl(queue.enqueueReadBuffer(x.cl_buffer(), CL_FALSE, run.from * sizeof(T), run.count * sizeof(T),
                                       host_.data() + run.at, &after, &read_),
               what_ + ": reading the halo entries to send");
  }
  ctx_->record(read_);  // joins a LaunchRecorder's record (profiles of a queue)
  check_cl(queue.flush(), what_ + ": clFlush");
}

template <class T>
void HaloSend<T>::wait() {
  if (host_.size()) check_cl(read_.wait(), what_ + ": waiting for the halo entries to send");
}

template class HaloSend<float>;
template class HaloSend<double>;

}  // namespace portacl
