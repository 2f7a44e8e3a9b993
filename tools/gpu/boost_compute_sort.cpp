// SPDX-License-Identifier: Apache-2.0
// The second method behind portacl-bench's sort baseline: portacl's radix
// sort and Boost.Compute's sort (Debian's libboost-dev) in a program of
// their own, each in its own OpenCL context and with its own buffers, as a
// user of each calls them: copy the unsorted keys into the buffer to sort
// (a device copy), sort, wait for the queue; wall clock, median of 10 after
// 2 warm-ups; every output compared with std::sort's. Boost.Compute's
// bc::sort takes merge_sort_on_cpu on CPU devices and its radix sort on
// GPUs; its radix sort is also timed directly (boost::compute::detail::
// radix_sort), so the figures separate the algorithm from the dispatch.
// build: g++ -O2 -std=c++17 -I include -I build/generated/include tools/gpu/boost_compute_sort.cpp \
//          -Lbuild/lib/x86_64-linux-gnu -lportacl -lOpenCL -Wl,-rpath,$PWD/build/lib/x86_64-linux-gnu
// usage: boost_compute_sort [DEVICE] [LOG2_SIZES, default 20,22,24]
#define CL_TARGET_OPENCL_VERSION 120
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/detail/radix_sort.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/container/vector.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "boost_compute_run.hpp"
#include "portacl/portacl.hpp"

namespace bc = boost::compute;

namespace {

const char* verdict(const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want) {
  return got == want ? "ok" : "WRONG";
}

bool compare(portacl::Context& ctx, bc::command_queue& q, std::size_t n) {
  std::vector<std::uint32_t> host(n);
  std::mt19937_64 gen(n);
  for (auto& k : host) k = static_cast<std::uint32_t>(gen() >> 32);
  std::vector<std::uint32_t> want = host;
  const auto s0 = std::chrono::steady_clock::now();
  std::sort(want.begin(), want.end());
  const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s0).count();

  portacl::Buffer<std::uint32_t> pristine(ctx, host), keys(ctx, n);
  const double ours = median_ms([&] {
    portacl::check_cl(ctx.queue().enqueueCopyBuffer(pristine.cl_buffer(), keys.cl_buffer(), 0, 0, n * 4), "copy");
    portacl::sort(ctx, keys);
    ctx.queue().finish();
  });
  const char* ours_ok = verdict(keys.download(), want);

  bc::vector<bc::uint_> bpristine(host.begin(), host.end(), q), bkeys(n, q.get_context());
  std::vector<std::uint32_t> got(n);
  const double theirs = median_ms([&] {
    bc::copy(bpristine.begin(), bpristine.end(), bkeys.begin(), q);
    bc::sort(bkeys.begin(), bkeys.end(), q);
    q.finish();
  });
  bc::copy(bkeys.begin(), bkeys.end(), got.begin(), q);
  const char* theirs_ok = verdict(got, want);
  const double radix = median_ms([&] {
    bc::copy(bpristine.begin(), bpristine.end(), bkeys.begin(), q);
    bc::detail::radix_sort(bkeys.begin(), bkeys.end(), q);
    q.finish();
  });
  bc::copy(bkeys.begin(), bkeys.end(), got.begin(), q);
  const char* radix_ok = verdict(got, want);
  std::printf(
      "sort uint32 n=%-9zu portacl %9.3f ms (%s)  bc::sort %9.3f ms (%s, %.2fx)  bc radix_sort %9.3f ms (%s, %.2fx)  "
      "std::sort on the host, one thread %9.3f ms\n",
      n, ours, ours_ok, theirs, theirs_ok, theirs / ours, radix, radix_ok, radix / ours, host_ms);
  return ours_ok[0] == 'o';
}

}  // namespace

int main(int argc, char** argv) { return run_beside_boost_compute(argc, argv, compare); }
