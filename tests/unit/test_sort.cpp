// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>

#include "test_support.hpp"
#include "rules/sort_rules.hpp"
#include "tuning/sort_reference.hpp"

using namespace portacl;

namespace {

constexpr std::uint64_t kPoison = 0x0badf00ddeadbeefull;  // its low half for 32-bit keys

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

template <class K, class B>
K from_bits(B b) {
  static_assert(sizeof(K) == sizeof(B), "the bits' width is the key's");
  K k;
  std::memcpy(&k, &b, sizeof(K));
  return k;
}

// 64-bit keys whose high and low halves both vary: random, or (every third)
// a random high half over few distinct low halves, or the reverse.
std::vector<std::uint64_t> wide_keys(std::size_t n) {
  std::uniform_int_distribution<std::uint64_t> any;
  std::vector<std::uint64_t> k(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = any(test::rng());
    k[i] = i % 3 == 0 ? r : i % 3 == 1 ? (r & 0xffffffff00000000ull) | (r % 5) : (r >> 32) | ((r % 5) << 61);
  }
  return k;
}

// Sorts keys alone and with their indices as values (V: 32-bit ones, or
// 64-bit ones whose two halves differ); checks the keys bit for bit
// against std::stable_sort (o.descending: its reverse order) and the values
// against the stable order (which checks stability). The scratch is
// poisoned first by a sort of poison, so a place the scatter never writes
// shows.
template <class K, class V = std::uint32_t>
LaunchPlan check_sort(Context& ctx, const std::vector<K>& keys, const SortOptions& o = {}) {
  const std::size_t n = keys.size();
  INFO("n = " << n << (o.descending ? ", descending" : "") << ", " << 8 * sizeof(V) << "-bit values");
  const std::vector<std::size_t> order = reference::stable_order(keys, o.descending);
  const std::vector<K> want = reference::gathered(keys, order);
  using KeyBits = std::conditional_t<sizeof(K) == 8, std::uint64_t, std::uint32_t>;
  using ValueBits = std::conditional_t<sizeof(V) == 8, std::uint64_t, std::uint32_t>;
  if (n <= 200000) {
    Buffer<KeyBits> poison(ctx, std::vector<KeyBits>(n, KeyBits(kPoison)));
    Buffer<ValueBits> poison_values(ctx, std::vector<ValueBits>(n, ValueBits(kPoison)));
    sort_by_key(ctx, poison, poison_values, o);
  }
  Buffer<K> alone(ctx, keys);
  sort(ctx, alone, o);
  CHECK(reference::compare_bits(alone.download(), want, "key") == "");

  // Value i: i, and in 64 bits also ~i in the high half.
  const auto value = [](std::size_t i) {
    return ValueBits(sizeof(V) == 8 ? (std::uint64_t(~std::uint32_t(i)) << 32) | i : i);
  };
  std::vector<V> index(n), want_values(n);
  for (std::size_t i = 0; i < n; ++i) {
    index[i] = from_bits<V>(value(i));
    want_values[i] = from_bits<V>(value(order[i]));
  }
  Buffer<K> paired(ctx, keys);
  Buffer<V> values(ctx, index);
  const LaunchPlan plan = sort_by_key(ctx, paired, values, o);
  CHECK(reference::compare_bits(paired.download(), want, "key") == "");
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

TEMPLATE_TEST_CASE(
    "sort orders float and double keys in IEEE order: -0 equal to +0, denormals, infinities, NaNs "
    "last",
    "[sort]", float, double) {
  using T = TestType;
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  Context& ctx = test::cpu_context();
  const T inf = std::numeric_limits<T>::infinity(), tiny = std::numeric_limits<T>::denorm_min();
  Bits exponent;  // every exponent bit set, the mantissa 0: infinity's bits
  std::memcpy(&exponent, &inf, sizeof(T));
  const Bits sign = Bits(1) << (8 * sizeof(T) - 1), quiet = Bits(1) << (std::numeric_limits<T>::digits - 2);
  const std::vector<T> special = {T(-0.0),
                                  T(0.0),
                                  tiny,
                                  -tiny,
                                  3 * tiny,
                                  std::numeric_limits<T>::min(),
                                  inf,
                                  -inf,
                                  std::numeric_limits<T>::max(),
                                  std::numeric_limits<T>::lowest(),
                                  T(1),
                                  std::nextafter(T(1), T(2)),                       // 1 and its last bit
                                  from_bits<T>(Bits(exponent | quiet)),             // quiet NaN
                                  from_bits<T>(Bits(sign | exponent | quiet | 1)),  // negative NaN with a payload
                                  from_bits<T>(Bits(exponent | 1))};                // signalling NaN
  for (std::size_t n : {std::size_t{15}, std::size_t{257}, std::size_t{4099}, std::size_t{65537}}) {
    std::vector<T> k(n);
    std::uniform_real_distribution<T> any(T(-1e3), T(1e3));
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
        check_sort(ctx, wide_keys(30011), o);  // 64-bit keys: twice the passes
      }
  }
}

TEST_CASE(
    "sort takes every tuned digit width and tile under every class's plan, odd and even numbers of passes (16 and 7; "
    "64-bit keys 32 and 13)",
    "[sort]") {
  Context& ctx = test::cpu_context();
  const std::vector<std::uint32_t> keys = uint_keys(40009, Shape::random);
  const std::vector<std::uint64_t> wide = wide_keys(10007);
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
        // 64-bit keys: 32 and 13 passes.
        CHECK(check_sort(ctx, wide, o).macros.at("KEY_BITS") == "64");
      }
}

TEST_CASE("sort orders 64-bit keys: unsigned and signed by value, at awkward sizes", "[sort]") {
  Context& ctx = test::cpu_context();
  for (std::size_t n : test::awkward_sizes) check_sort(ctx, wide_keys(n));
  check_sort(ctx, wide_keys(100003));
  for (std::size_t n : {std::size_t{2}, std::size_t{61}, std::size_t{4099}, std::size_t{100003}}) {
    std::vector<std::int64_t> k(n);
    const std::vector<std::uint64_t> bits = wide_keys(n);
    std::uniform_int_distribution<std::int64_t> small(-3, 3);
    for (std::size_t i = 0; i < n; ++i) k[i] = i % 4 ? from_bits<std::int64_t>(bits[i]) : small(test::rng());
    k[0] = std::numeric_limits<std::int64_t>::max();
    k[n - 1] = std::numeric_limits<std::int64_t>::min();
    check_sort(ctx, k);
  }
}

TEST_CASE("sort of 64-bit keys runs right under every device class's plan, and key_bits saves their passes", "[sort]") {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(ElementType::i64)) {
    INFO(f);
    SortOptions o;
    o.plan = opt;
    for (std::size_t n : test::class_plan_sizes) {
      check_sort(ctx, wide_keys(n), o);
      std::vector<double> d(n);
      std::uniform_real_distribution<double> any(-1, 1);
      for (double& x : d) x = any(test::rng());
      check_sort(ctx, d, o);
    }
  }
  for (unsigned bits : {1u, 33u, 40u, 63u}) {
    INFO("key_bits " << bits);
    SortOptions o;
    o.key_bits = bits;
    std::vector<std::uint64_t> k = wide_keys(65537);
    for (auto& x : k) x &= (std::uint64_t{1} << bits) - 1;
    const LaunchPlan p = check_sort(ctx, k, o);
    const Decision* d = p.decision("digit_bits");
    REQUIRE(d);
    CHECK(d->why.find(std::to_string(bits) + " key bits") != std::string::npos);
  }
}

TEST_CASE("sort descending: the order reversed, NaNs first, equal keys still in input order; 64-bit values", "[sort]") {
  Context& ctx = test::cpu_context();
  SortOptions down;
  down.descending = true;
  for (std::size_t n : test::awkward_sizes) {
    check_sort(ctx, uint_keys(n, Shape::few), down);
    check_sort<std::uint64_t, double>(ctx, wide_keys(n), down);
  }
  std::vector<float> f = test::random_vector<float>(4099);
  for (std::size_t i = 0; i < f.size(); i += 7) f[i] = i % 2 ? std::numeric_limits<float>::quiet_NaN() : -0.0f;
  check_sort<float, std::int64_t>(ctx, f, down);
  std::vector<double> d = test::random_vector<double>(4099);
  for (std::size_t i = 0; i < d.size(); i += 5) d[i] = i % 2 ? -std::numeric_limits<double>::quiet_NaN() : 0.0;
  check_sort(ctx, d, down);
  check_sort<int, std::uint64_t>(ctx, std::vector<int>{3, -1, 3, 7, -1, 0}, down);
  // Under every class's plan, and ascending with 64-bit values.
  const std::vector<std::uint64_t> wide = wide_keys(30011);
  const std::vector<std::int64_t> signed_wide(wide.begin(), wide.end());
  for (const auto& [f_name, opt] : test::class_plans(ElementType::i64)) {
    INFO(f_name);
    SortOptions o;
    o.plan = opt;
    check_sort<std::int64_t, std::uint64_t>(ctx, signed_wide, o);
    o.descending = true;
    check_sort<std::uint32_t, double>(ctx, uint_keys(30011, Shape::random), o);
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
  Buffer<std::uint64_t> wide(ctx, std::vector<std::uint64_t>{3, 1, 2});
  Buffer<double> doubles(ctx, std::vector<double>{3, 1, 2});
  o.key_bits = 65;
  CHECK_THROWS_WITH(sort(ctx, wide, o), Catch::Contains("key_bits 65 is not between 1 and 64"));
  o.key_bits = 40;
  CHECK_THROWS_WITH(sort(ctx, doubles, o), Catch::Contains("ordered by all 64 bits"));
  CHECK(wide.download() == std::vector<std::uint64_t>{3, 1, 2});
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
