// SPDX-License-Identifier: Apache-2.0
// A user of 0.1's header paths: they still build for one release (each
// prints a deprecation note naming the new header).
#include <portacl/kernels/reduce.hpp>
#include <portacl/kernels/stream.hpp>
#include <portacl/runtime/context.hpp>

#include <cstdio>
#include <vector>

int main() {
  portacl::Context ctx;
  portacl::Buffer<float> x(ctx, std::vector<float>(100, 0.5f));
  portacl::scale(ctx, 4.0f, x);
  const float total = portacl::sum(ctx, x);
  std::printf("old header paths ok: %g\n", double(total));
  return total == 200.0f ? 0 : 1;
}
