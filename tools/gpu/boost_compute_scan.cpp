// SPDX-License-Identifier: Apache-2.0
// portacl's prefix sums beside Boost.Compute's (Debian's libboost-dev) on
// the same OpenCL device, as a user of each calls them: the library's call
// and a wait for its queue, wall clock, the two timed in turn (a shared
// machine's slow phases fall on both), median of 21 after 2 warm-ups, on
// the same inputs (small integers, so int and float sums are exact up to
// 2^24), every output compared element by element. The CPU-scan baseline of
// issue 26 until portacl-bench carries Boost.Compute itself.
// build: g++ -O2 -std=c++17 -I include -I build/generated/include tools/gpu/boost_compute_scan.cpp \
//          -Lbuild/lib/x86_64-linux-gnu -lportacl -lOpenCL -Wl,-rpath,$PWD/build/lib/x86_64-linux-gnu
// usage: boost_compute_scan [DEVICE] [LOG2_SIZES, default 20,22,24]
#define CL_TARGET_OPENCL_VERSION 120
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/container/vector.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "boost_compute_run.hpp"
#include "portacl/portacl.hpp"

namespace bc = boost::compute;

namespace {

template <class T>
bool compare(portacl::Context& ctx, bc::command_queue& q, std::size_t n, const char* type) {
  std::vector<T> host(n);
  std::mt19937 gen(static_cast<unsigned>(n));
  for (T& v : host) v = T(gen() % 3);  // sums stay below 2^24: exact in float
  portacl::Buffer<T> x(ctx, host), y(ctx, n);
  bc::vector<T> bx(host.begin(), host.end(), q), by(n, q.get_context());
  q.finish();
  const auto [ours, theirs] = alternating_median_ms(
      [&] {
        portacl::inclusive_scan(ctx, x, y);
        ctx.queue().finish();
      },
      [&] {
        bc::inclusive_scan(bx.begin(), bx.end(), by.begin(), q);
        q.finish();
      });
  std::vector<T> got = y.download(), want(n);
  bc::copy(by.begin(), by.end(), want.begin(), q);
  T run = 0;
  std::size_t wrong_ours = 0, wrong_theirs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    run += host[i];
    wrong_ours += got[i] != run;
    wrong_theirs += want[i] != run;
  }
  std::printf(
      "inclusive_scan %-5s n=%-9zu portacl %8.3f ms  Boost.Compute %8.3f ms  Boost/portacl %5.2fx  check %s/%s\n", type,
      n, ours, theirs, theirs / ours, wrong_ours ? "WRONG" : "ok", wrong_theirs ? "WRONG" : "ok");
  return !wrong_ours;
}

}  // namespace

int main(int argc, char** argv) {
  return run_beside_boost_compute(argc, argv, [](portacl::Context& ctx, bc::command_queue& q, std::size_t n) {
    const bool ints = compare<int>(ctx, q, n, "int");
    return compare<float>(ctx, q, n, "float") && ints;
  });
}
