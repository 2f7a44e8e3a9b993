// SPDX-License-Identifier: Apache-2.0
// Times the radix sort of 2^26 uint32 keys (SORT_LOG2 sets another power),
// alone and with values, under the rules' plan and a grid of tile shapes
// (work-group, keys a work-item, digit bits), each in one sweep and as
// count + scan + scatter. A call is the keys (and values) restored from a
// pristine copy, then the sort; the restoring copies are timed alone and
// taken off. Each is the mean of a batch of 20 calls queued back to back,
// median of 7 batches (tools/gpu/batch_timing.hpp); every shape is first checked
// against std::sort. A diagnostic for tools/gpu/gpu-run.sh's sort step, not part
// of the library.
// build: see tools/gpu/gpu-run.sh      usage: sort_shapes [DEVICE]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "portacl/portacl.hpp"

using namespace portacl;

int main(int argc, char** argv) {
  Context ctx(argc > 1 ? argv[1] : "gpu");
  const std::size_t n = std::size_t{1} << (std::getenv("SORT_LOG2") ? std::atoi(std::getenv("SORT_LOG2")) : 26);
  std::vector<std::uint32_t> host(n);
  std::mt19937 gen(11);
  for (auto& k : host) k = gen();
  std::vector<std::uint32_t> want = host;
  std::sort(want.begin(), want.end());
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  const Buffer<std::uint32_t> pristine(ctx, host), pristine_values(ctx, index);
  Buffer<std::uint32_t> keys(ctx, n), values(ctx, n);
  // portacl's copy is for float, int and double: the queue's own copy here.
  const auto copy = [&](Context& c, const Buffer<std::uint32_t>& from, Buffer<std::uint32_t>& to) {
    c.queue().enqueueCopyBuffer(from.cl_buffer(), to.cl_buffer(), 0, 0, n * 4);
  };
  const double restore_keys = batch_ms(ctx, [&] { copy(ctx, pristine, keys); });
  const double restore_both = batch_ms(ctx, [&] {
    copy(ctx, pristine, keys);
    copy(ctx, pristine_values, values);
  });
  std::printf("n %zu, restoring keys %.4f ms, keys and values %.4f ms (taken off below)\n", n, restore_keys,
              restore_both);
  const auto measure = [&](const char* label, const SortOptions& o) {
    copy(ctx, pristine, keys);
    try {
      sort(ctx, keys, o);
      sort_by_key(ctx, keys, values, o);  // a pairs' tile may not fit where the keys' does
      copy(ctx, pristine, keys);
      sort(ctx, keys, o);
    } catch (const Error& e) {
      std::printf("%-40s | refused: %s\n", label, e.what());
      return;
    }
    const bool ok = keys.download() == want;
    const double alone = batch_ms(ctx, [&] {
      copy(ctx, pristine, keys);
      sort(ctx, keys, o);
    });
    const double pairs = batch_ms(ctx, [&] {
      copy(ctx, pristine, keys);
      copy(ctx, pristine_values, values);
      sort_by_key(ctx, keys, values, o);
    });
    std::printf("%-40s | keys %.4f ms %.2f G keys/s | pairs %.4f ms %.2f G pairs/s %s\n", label, alone - restore_keys,
                n / (alone - restore_keys) / 1e6, pairs - restore_both, n / (pairs - restore_both) / 1e6,
                ok ? "ok" : "WRONG");
    std::fflush(stdout);
  };
  measure("rules", SortOptions{});
  for (int sweep : {1, 0})
    for (int wg : {128, 256})
      for (int items : {8, 12, 16})
        for (int bits : {4, 5, 6}) {
          // Count + scan + scatter at the earlier rules' shape only.
          if (sweep == 0 && (wg != 128 || items != 12 || bits != 5)) continue;
          SortOptions o;
          PlanOverride ov;
          ov.work_group_size = wg;
          ov.macros = {{"ONE_SWEEP", std::to_string(sweep)},
                       {"ITEMS", std::to_string(items)},
                       {"RADIX_BITS", std::to_string(bits)}};
          o.plan.override_values = ov;
          const std::string label = "one sweep " + std::to_string(sweep) + " wg " + std::to_string(wg) + " items " +
                                    std::to_string(items) + " bits " + std::to_string(bits);
          measure(label.c_str(), o);
        }
  return 0;
}
