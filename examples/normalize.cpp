// SPDX-License-Identifier: Apache-2.0
// Normalise a vector to unit length on the device: x <- x / ||x||.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <portacl/portacl.hpp>

int main() {
  portacl::Context ctx;  // PORTACL_DEVICE, else the first GPU, else the first device
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> host(1000003);
  for (float& v : host) v = d(rng);

  portacl::Buffer<float> x(ctx, host);
  const float norm = portacl::nrm2(ctx, x);  // blocks: the value comes to the host
  portacl::scale(ctx, 1.0f / norm, x);       // x = x / norm, in place
  const float after = portacl::nrm2(ctx, x);

  std::printf("||x|| = %g before, %.7f after\n", norm, after);
  return std::fabs(after - 1.0f) < 1e-5f ? 0 : 1;
}
