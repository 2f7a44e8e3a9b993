// SPDX-License-Identifier: Apache-2.0
// A dot product, blocking and asynchronous, checked against the host.
#include <cmath>
#include <cstdio>
#include <vector>

#include <portacl/portacl.hpp>

int main() {
  portacl::Context ctx;
  const std::size_t n = 1 << 20;
  std::vector<double> a(n), b(n);
  double want = 0;
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = std::sin(0.001 * i);
    b[i] = std::cos(0.001 * i);
    want += a[i] * b[i];
  }
  if (!ctx.info().fp64) {
    std::printf("%s has no double precision: nothing to do\n", ctx.info().name.c_str());
    return 0;
  }
  portacl::Buffer<double> x(ctx, a), y(ctx, b);
  const double now = portacl::dot(ctx, x, y);  // waits for the value
  // The asynchronous form returns at once; the value stays on the device
  // until get() (or pass value.buffer() to your next kernel).
  portacl::DeviceValue<double> later = portacl::dot_async(ctx, x, y);
  const double got = later.get();

  std::printf("dot = %.15g (host %.15g)\n", now, want);
  return std::fabs(now - want) < 1e-9 * n && got == now ? 0 : 1;
}
