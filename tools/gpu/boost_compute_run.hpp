// SPDX-License-Identifier: Apache-2.0
// The main of the tools/gpu programs that set portacl beside Boost.Compute: a
// portacl Context on the device named by argv[1] (default cpu), a
// Boost.Compute context and queue of their own on the same device, and
// `compare(ctx, queue, n)` at each size of argv[2] (exponents, default
// 20,22,24). Exit 0 when every comparison held. Not part of the library.
#pragma once

#include <boost/compute/command_queue.hpp>
#include <boost/compute/context.hpp>
#include <boost/compute/device.hpp>

#include <cstdio>

#include "call_timing.hpp"
#include "portacl/portacl.hpp"

template <class Compare>
int run_beside_boost_compute(int argc, char** argv, Compare&& compare) {
  portacl::Context ctx(argc > 1 ? argv[1] : "cpu");
  const std::vector<std::size_t> sizes = power_sizes(argc > 2 ? argv[2] : nullptr, {20, 22, 24});
  boost::compute::device device(ctx.device().cl_device()());
  boost::compute::context bctx(device);
  boost::compute::command_queue q(bctx, device);
  std::printf("device %s\n", device.name().c_str());
  bool ok = true;
  for (std::size_t n : sizes) ok = compare(ctx, q, n) && ok;
  return ok ? 0 : 1;
}
