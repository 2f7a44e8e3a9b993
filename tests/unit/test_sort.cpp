// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>

#include "test_support.hpp"
#include "rules/sort_rules.hpp"
#include "tuning/sort_reference.hpp"

using namespace portacl;

namespace {

constexpr std::uint32_t kPoison = 0xdeadbeefu;

// The input orders the issue names: random, sorted, reverse-sorted, all
// equal, few distinct.
enum class Shape { random, sorted, reversed, equal, few };

std::vector<std::uint32_t> uint_keys(std::size_t n, Shape shape, std::uint32_t below = 0) {
  std::uniform_int_distribution<std::uint64_t> any(0, below ? below - 1 : 0xffffffffull), few(0, 4);
  std::vector<std::uint32_t> k(n);
  for (auto& v : k)
    v = static_cast<std::uint32_t>(shape == Shape::few ? few(test::rng()) * 0x01010101u : any(test::rng()));
  if (shape == Shape::equal) std::fill(k.begin(), k.end(), 0x80000001u);
  if (shape == Shape::sorted) std::sort(k.begin(), k.end());
  if (shape == Shape::reversed) std::sort(k.rbegin(), k.rend());
  return k;
}

template <class K>
K from_bits(std::uint32_t b) {
  K k;
  std::memcpy(&k, &b, 4);
  return k;
}

// Sorts keys alone and with their indices as values; checks the keys bit
// for bit against std::stable_sort and the values against the stable
// order (which checks stability). The scratch is poisoned first by a sort
// of poison, so a place the scatter never writes shows.
template <class K>
LaunchPlan check_sort(Context& ctx, const std::vector<K>& keys, const SortOptions& o = {}) {
  const std::size_t n = keys.size();
  INFO("n = " << n);
  const std::vector<std::size_t> order = reference::stable_order(keys);
  const std::vector<K> want = reference::gathered(keys, order);
  if (n <= 200000) {
    Buffer<std::uint32_t> poison(ctx, std::vector<std::uint32_t>(n, kPoison)), poison_values(ctx, n);
    sort_by_key(ctx, poison, poison_values, o);
  }
  Buffer<K> alone(ctx, keys);
  sort(ctx, alone, o);
  CHECK(reference::compare_bits(alone.download(), want, "key") == "");

  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  Buffer<K> paired(ctx, keys);
  Buffer<std::uint32_t> values(ctx, index);
  const LaunchPlan plan = sort_by_key(ctx, paired, values, o);
  CHECK(reference::compare_bits(paired.download(), want, "key") == "");
  std::vector<std::uint32_t> want_values(n);
  for (std::size_t i = 0; i < n; ++i) want_values[i] = static_cast<std::uint32_t>(order[i]);
  CHECK(reference::compare_bits(values.download(), want_values, "value") == "");
  return plan;
}

}  // namespace

TEST_CASE("sort orders unsigned keys stably at awkward sizes and in every input order", "[sort]") {
  Context& ctx = test::cpu_context();
  for (Shape shape : {Shape::random, Shape::sorted, Shape::reversed, Shape::equal, Shape::few}) {
    INFO("shape " << int(shape));
    for (std::size_t n : test::awkward_sizes) check_sort(ctx, uint_keys(n, shape));
    check_sort(ctx, uint_keys(100003, shape));
  }
}

TEST_CASE("sort orders 2^24 + 3 keys", "[sort_large]") {
  Context& ctx = test::cpu_context();
  check_sort(ctx, uint_keys((std::size_t{1} << 24) + 3, Shape::random));
}

TEST_CASE("sort orders int keys by value, negatives first", "[sort]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : {std::size_t{2}, std::size_t{61}, std::size_t{4099}, std::size_t{100003}}) {
    std::vector<int> k(n);
    std::uniform_int_distribution<int> any(std::numeric_limits<int>::min(), std::numeric_limits<int>::max()),
        small(-3, 3);
    for (std::size_t i = 0; i < n; ++i) k[i] = i % 3 ? any(test::rng()) : small(test::rng());
    k[0] = std::numeric_limits<int>::max();
    k[n - 1] = std::numeric_limits<int>::min();
    check_sort(ctx, k);
  }
}

TEST_CASE("sort orders float keys in IEEE order: -0 equal to +0, denormals, infinities, NaNs last", "[sort]") {
  Context& ctx = test::cpu_context();
  const float inf = std::numeric_limits<float>::infinity(), tiny = std::numeric_limits<float>::denorm_min();
  const std::vector<float> special = {-0.0f,
                                      0.0f,
                                      tiny,
                                      -tiny,
                                      3 * tiny,
                                      std::numeric_limits<float>::min(),
                                      inf,
                                      -inf,
                                      std::numeric_limits<float>::max(),
                                      std::numeric_limits<float>::lowest(),
                                      from_bits<float>(0x7fc00000u),   // quiet NaN
                                      from_bits<float>(0xffc00001u),   // negative NaN with a payload
                                      from_bits<float>(0x7f800001u)};  // signalling NaN
  for (std::size_t n : {std::size_t{13}, std::size_t{257}, std::size_t{4099}, std::size_t{65537}}) {
    std::vector<float> k(n);
    std::uniform_real_distribution<float> any(-1e3f, 1e3f);
    std::uniform_int_distribution<std::size_t> pick(0, special.size() - 1);
    for (std::size_t i = 0; i < n; ++i)
      k[i] = i < special.size() ? special[i] : i % 4 ? any(test::rng()) : special[pick(test::rng())];
    check_sort(ctx, k);
  }
}

TEST_CASE("sort of keys below 2^key_bits sorts only those bits, in fewer passes", "[sort]") {
  Context& ctx = test::cpu_context();
  for (unsigned bits : {1u, 7u, 20u, 31u}) {
    INFO("key_bits " << bits);
    SortOptions o;
    o.key_bits = bits;
    const LaunchPlan p = check_sort(ctx, uint_keys(65537, Shape::random, std::uint32_t(1) << bits), o);
    const Decision* d = p.decision("digit_bits");
    REQUIRE(d);
    CHECK(d->why.find(std::to_string(bits) + " key bits") != std::string::npos);
  }
}

TEST_CASE("sort runs right under every device class's plan, each variant where its class takes it", "[sort]") {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(ElementType::i32)) {
    INFO(f);
    SortOptions o;
    o.plan = opt;
    for (std::size_t n : test::class_plan_sizes) {
      const LaunchPlan p = check_sort(ctx, uint_keys(n, Shape::random), o);
      if (n < 2) continue;
      const Decision* variant = p.decision("variant");
      REQUIRE(variant);
      const DeviceClass c = classify(*opt.plan_as).device_class;
      const bool chunks = c == DeviceClass::cpu || c == DeviceClass::intel_mic;
      CHECK(variant->rule == (chunks ? "sort.work-item-chunks" : "sort.work-group-tiles"));
      // Tiles decide on one sweep (off unless tuned: rule sort.one-sweep).
      const Decision* sweep = p.decision("one_sweep");
      CHECK((sweep && sweep->value == "no" && sweep->rule == "sort.one-sweep") == !chunks);
    }
  }
}

TEST_CASE("one sweep and count-scan-scatter sort alike over many tiles, passes and repeated sorts", "[sort]") {
  // The one sweep's tiles wait on each other's published digit counts; its
  // status words are reused under a new epoch every pass and every sort.
  // Sizes leave a partial last tile (tiles of 64 x 12 = 768 keys); 6-bit
  // digits are the widest whose tile fits the 48 KiB of the GPUs' local
  // memory.
  Context& ctx = test::cpu_context();
  for (const auto& c : test::class_plans(ElementType::i32)) {
    const DeviceClass cls = classify(*c.options.plan_as).device_class;
    if (cls != DeviceClass::nvidia_gpu && cls != DeviceClass::amd_gcn_gpu) continue;
    for (int sweep : {1, 0})
      for (int bits : {3, 6}) {
        INFO(c.fixture << ", ONE_SWEEP " << sweep << ", RADIX_BITS " << bits);
        SortOptions o;
        o.plan = c.options;
        PlanOverride tuned;
        tuned.work_group_size = 64;
        tuned.macros = {{"RADIX_BITS", std::to_string(bits)}, {"ONE_SWEEP", std::to_string(sweep)}};
        o.plan.override_values = tuned;
        for (std::size_t n : {std::size_t{768}, std::size_t{769}, std::size_t{100003}}) {
          const LaunchPlan p = check_sort(ctx, uint_keys(n, Shape::random), o);
          CHECK(p.macros.at("ONE_SWEEP") == std::to_string(sweep));
        }
        check_sort(ctx, uint_keys(30011, Shape::few), o);
      }
  }
}

TEST_CASE(
    "sort takes every tuned digit width and tile under every class's plan, odd and even numbers of passes (16 and 7)",
    "[sort]") {
  Context& ctx = test::cpu_context();
  const std::vector<std::uint32_t> keys = uint_keys(40009, Shape::random);
  for (const auto& [f, opt] : test::class_plans(ElementType::i32))
    for (int bits : {2, 5})
      for (int items : {1, 12}) {
        INFO(f << ", RADIX_BITS " << bits << ", ITEMS " << items);
        SortOptions o;
        o.plan = opt;
        PlanOverride tuned;
        tuned.work_group_size = 64;
        tuned.macros = {{"RADIX_BITS", std::to_string(bits)}, {"ITEMS", std::to_string(items)}};
        o.plan.override_values = tuned;
        const LaunchPlan p = check_sort(ctx, keys, o);
        CHECK(p.macros.at("RADIX_BITS") == std::to_string(bits));
      }
}

TEST_CASE("sort refuses what it cannot sort, naming the problem", "[sort]") {
  Context& ctx = test::cpu_context();
  Buffer<std::uint32_t> keys(ctx, std::vector<std::uint32_t>{3, 1, 2}), two(ctx, 2);
  Buffer<int> ints(ctx, std::vector<int>{3, -1, 2});
  CHECK_THROWS_WITH(sort_by_key(ctx, keys, two), Catch::Contains("keys has 3 elements but values has 2"));
  CHECK_THROWS_WITH(sort_by_key(ctx, keys, keys), Catch::Contains("share"));
  SortOptions o;
  o.key_bits = 0;
  CHECK_THROWS_WITH(sort(ctx, keys, o), Catch::Contains("key_bits 0"));
  o.key_bits = 33;
  CHECK_THROWS_WITH(sort(ctx, keys, o), Catch::Contains("key_bits 33"));
  o.key_bits = 16;
  CHECK_THROWS_WITH(sort(ctx, ints, o), Catch::Contains("unsigned keys only"));
  CHECK_THROWS_WITH(sort(test::another_context(), keys), Catch::Contains("another context"));
  // A tuned tile past the device's local memory.
  SortOptions big;
  big.plan = test::class_plans(ElementType::i32).back().options;
  for (const auto& c : test::class_plans(ElementType::i32))
    if (classify(*c.options.plan_as).device_class == DeviceClass::nvidia_gpu) big.plan = c.options;
  PlanOverride huge;
  huge.work_group_size = 256;
  huge.macros = {{"RADIX_BITS", "8"}, {"ITEMS", "16"}};
  big.plan.override_values = huge;
  if (sort_tile_local_bytes(256, 16, 8, 4) > ctx.info().local_mem_size)
    CHECK_THROWS_WITH(sort(ctx, keys, big), Catch::Contains("bytes of local memory"));
  // Nothing ran: the keys are as they were.
  CHECK(keys.download() == std::vector<std::uint32_t>{3, 1, 2});
}
