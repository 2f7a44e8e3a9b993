// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>

#include "test_support.hpp"

using namespace portacl;

namespace {

constexpr std::uint32_t kPoison = 0xdeadbeefu;

// Keys spread over [0, span): some bins empty, some crowded, and (span >
// bins) some keys past the last bin.
std::vector<std::uint32_t> random_keys(std::size_t n, std::uint64_t span) {
  std::uniform_int_distribution<std::uint64_t> d(0, span - 1);
  std::vector<std::uint32_t> k(n);
  for (auto& v : k) v = static_cast<std::uint32_t>(d(test::rng()));
  return k;
}

// Runs the histogram and checks it against the host's, and the invariant:
// the counts add up to the keys whose bin is in range.
LaunchPlan check_histogram(Context& ctx, const std::vector<std::uint32_t>& keys, std::size_t bins,
                           const HistogramOptions& o) {
  INFO("keys " << keys.size() << ", bins " << bins << ", shift " << o.shift << (o.wrap ? ", wrap" : ""));
  Buffer<std::uint32_t> dk(ctx, keys), counts(ctx, std::vector<std::uint32_t>(bins, kPoison));
  const LaunchPlan p = histogram(ctx, dk, counts, o);
  const std::vector<std::uint32_t> got = counts.download();
  const std::vector<std::uint64_t> want = reference::histogram(keys, bins, o.shift, o.wrap);
  CHECK(reference::compare_counts(got, want) == "");
  std::uint64_t in_range = 0;
  for (std::uint32_t k : keys) in_range += (o.wrap || (k >> o.shift) < bins) ? 1 : 0;
  CHECK(std::accumulate(got.begin(), got.end(), std::uint64_t{0}) == in_range);
  return p;
}

}  // namespace

TEST_CASE("histogram counts every key in range at awkward sizes and bin counts", "[histogram]") {
  Context& ctx = test::cpu_context();
  for (std::size_t bins : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{256}, std::size_t{257},
                           std::size_t{4099}, std::size_t{65536}})
    for (std::size_t n : test::awkward_sizes) check_histogram(ctx, random_keys(n, bins + bins / 3 + 1), bins, {});
  // One bin takes every key: the atomics all meet there.
  check_histogram(ctx, std::vector<std::uint32_t>(100003, 7u), 8, {});
  // Bins past every GPU's local memory (4 MiB of counts).
  check_histogram(ctx, random_keys(200003, std::uint64_t{1} << 20), std::size_t{1} << 20, {});
}

TEST_CASE("histogram bins radix digits: a shift, and wrapping to the bin count", "[histogram]") {
  Context& ctx = test::cpu_context();
  const std::vector<std::uint32_t> keys = random_keys(100003, std::uint64_t{1} << 32);
  for (unsigned shift : {0u, 4u, 24u, 28u, 31u}) {
    HistogramOptions o;
    o.shift = shift;
    o.wrap = true;
    check_histogram(ctx, keys, 16, o);
    o.wrap = false;
    check_histogram(ctx, keys, std::size_t{1} << std::min(16u, 32 - shift), o);  // the top bits only
  }
}

TEST_CASE("histogram runs right under every device class's plan, each variant where its class takes it",
          "[histogram]") {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(ElementType::i32)) {
    INFO(f);
    HistogramOptions o;
    o.plan = opt;
    for (std::size_t n : test::class_plan_sizes)
      for (std::size_t bins : {std::size_t{5}, std::size_t{256}, std::size_t{40000}}) {
        const LaunchPlan p = check_histogram(ctx, random_keys(n, bins * 2), bins, o);
        const Decision* variant = p.decision("variant");
        REQUIRE(variant);
        const DeviceClass c = classify(*opt.plan_as).device_class;
        if (c == DeviceClass::cpu || c == DeviceClass::intel_mic)
          CHECK(variant->rule == "histogram.private-rows");
        else if (bins == 5)
          CHECK(variant->rule == "histogram.local-bins");  // 20 bytes fit any local memory
      }
  }
}

TEST_CASE("histogram refuses what it cannot count, naming the problem", "[histogram]") {
  Context& ctx = test::cpu_context();
  Buffer<std::uint32_t> keys(ctx, std::vector<std::uint32_t>{1, 2, 3}), counts(ctx, 10), none(ctx, 0);
  CHECK_THROWS_WITH(histogram(ctx, keys, none), Catch::Contains("no bins"));
  HistogramOptions o;
  o.shift = 32;
  CHECK_THROWS_WITH(histogram(ctx, keys, counts, o), Catch::Contains("shift 32"));
  o.shift = 0;
  o.wrap = true;
  CHECK_THROWS_WITH(histogram(ctx, keys, counts, o), Catch::Contains("power-of-two bin count"));
  CHECK_THROWS_WITH(histogram(ctx, keys, keys),
                    Catch::Contains("counts and keys share the same memory") || Catch::Contains("share"));
  CHECK_THROWS_WITH(histogram(test::another_context(), keys, counts), Catch::Contains("histogram"));
}
