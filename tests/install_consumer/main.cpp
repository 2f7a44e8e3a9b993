// SPDX-License-Identifier: Apache-2.0
// A user of an installed portacl: SAXPY on the default device.
#include <portacl/portacl.hpp>

#include <cstdio>
#include <vector>

int main() {
  portacl::Context ctx;
  std::vector<float> x(1000, 2.0f), y(1000, 1.0f);
  portacl::Buffer<float> dx(ctx, x), dy(ctx, y);
  portacl::axpy(ctx, 3.0f, dx, dy);
  for (float v : dy.download())
    if (v != 7.0f) return 1;
  std::printf("consumer ok on %s\n", ctx.info().name.c_str());
  return 0;
}
