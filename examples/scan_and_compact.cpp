// SPDX-License-Identifier: Apache-2.0
// Prefix sums and stream compaction: keep the positive values, in order.
#include <cstdio>
#include <vector>

#include <portacl/portacl.hpp>

int main() {
  portacl::Context ctx;
  std::vector<int> counts = {3, 0, 2, 5, 1, 0, 4};
  portacl::Buffer<int> c(ctx, counts), offsets(ctx, counts.size());
  portacl::exclusive_scan(ctx, c, offsets);  // where each group's items start
  const std::vector<int> start = offsets.download();
  const bool scan_ok = start == std::vector<int>{0, 3, 3, 5, 10, 11, 11};

  std::vector<float> values = {0.5f, -1.0f, 2.0f, -0.25f, 3.0f, 0.0f, 7.0f};
  portacl::Buffer<float> v(ctx, values), kept(ctx, values.size());
  // The predicate is OpenCL C in x; the count comes back to the host.
  const std::size_t k = portacl::compact(ctx, "x > 0.0f", v, kept);
  std::vector<float> out = kept.download();
  out.resize(k);
  const bool compact_ok = out == std::vector<float>{0.5f, 2.0f, 3.0f, 7.0f};

  std::printf("offsets:");
  for (int s : start) std::printf(" %d", s);
  std::printf("\nkept %zu:", k);
  for (float f : out) std::printf(" %g", f);
  std::printf("\n");
  return scan_ok && compact_ok ? 0 : 1;
}
