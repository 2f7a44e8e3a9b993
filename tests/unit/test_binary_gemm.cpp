// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <tuple>

#include "test_support.hpp"
#include "tuning/binary_gemm_reference.hpp"

using namespace portacl;

namespace {

constexpr int kPoison = 0x7eadbeef;

// Random floats with exact zeros, negative zeros and NaNs among them (all +1).
std::vector<float> signs_source(std::size_t count) {
  std::vector<float> v = test::random_vector<float>(count);
  for (std::size_t i = 0; i < v.size(); i += 17) v[i] = 0.0f;
  for (std::size_t i = 5; i < v.size(); i += 23) v[i] = -0.0f;
  for (std::size_t i = 11; i < v.size(); i += 29) v[i] = std::numeric_limits<float>::quiet_NaN();
  return v;
}

// Packs A's rows and B's columns on the device (checked bit for bit
// against the host packing), multiplies into a poisoned C with ldc = n + 3
// and checks every entry against the double sum of the signs and the gap
// columns untouched. Returns the product's plan.
LaunchPlan check_product(Context& ctx, std::size_t m, std::size_t n, std::size_t k, const PlanOptions& opt = {}) {
  INFO("m " << m << ", n " << n << ", k " << k);
  const std::vector<float> ha = signs_source(m * k), hb = signs_source(k * n);
  const std::size_t words = packed_words(k), ldc = n + 3;
  Buffer<float> da(ctx, ha.empty() ? std::vector<float>{0.0f} : ha),
      db(ctx, hb.empty() ? std::vector<float>{0.0f} : hb);
  Buffer<std::uint32_t> pa(ctx, std::max<std::size_t>(m * words, 1)), pb(ctx, std::max<std::size_t>(n * words, 1));
  PackOptions rows, columns;
  rows.plan = opt;
  rows.plan.override_values.reset();  // a product's tuned knobs are not the packing's
  columns.plan = rows.plan;
  columns.by_columns = true;
  pack_signs(ctx, da, m, k, pa, rows);
  pack_signs(ctx, db, n, k, pb, columns);
  if (m * words > 0) CHECK(test::first_difference(pa.download(), reference::packed_signs(ha, m, k, false)) == "equal");
  if (n * words > 0) {
    std::vector<std::uint32_t> got = pb.download();
    got.resize(n * words);
    CHECK(test::first_difference(got, reference::packed_signs(hb, n, k, true)) == "equal");
  }
  Buffer<int> dc(ctx, std::vector<int>(std::max<std::size_t>(m * ldc, 1), kPoison));
  const LaunchPlan plan = binary_gemm(ctx, m, n, k, pa, pb, dc, ldc, opt);
  const std::vector<int> got = dc.download();
  CHECK(reference::compare_product(got, reference::sign_product(ha, hb, m, n, k), m, n, ldc) == "");
  bool gaps = true;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = n; j < ldc; ++j) gaps = gaps && got[i * ldc + j] == kPoison;
  CHECK(gaps);
  return plan;
}

}  // namespace

TEST_CASE("binary GEMM equals the float product of the same signs exactly, at awkward sizes", "[binary_gemm]") {
  Context& ctx = test::cpu_context();
  for (const auto& [m, n, k] : std::vector<std::tuple<std::size_t, std::size_t, std::size_t>>{
           {1, 1, 1}, {1, 7, 31}, {3, 5, 32}, {17, 31, 33}, {61, 67, 100}, {2, 129, 257}, {67, 3, 1021}, {5, 4, 0}})
    check_product(ctx, m, n, k);
}

TEST_CASE("binary GEMM runs right under every device class's plan, each variant where its class takes it",
          "[binary_gemm]") {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(ElementType::i32)) {
    INFO(f);
    const LaunchPlan p = check_product(ctx, 67, 61, 97, opt);
    const DeviceClass c = classify(*opt.plan_as).device_class;
    const bool cpu_like = c == DeviceClass::cpu || c == DeviceClass::intel_mic;
    REQUIRE(p.decision("variant"));
    CHECK(p.decision("variant")->rule == (cpu_like ? "binary-gemm.rows" : "binary-gemm.tiles"));
    // Tuned shapes, on sizes none of them divides.
    for (const auto& [rm, rn, slice, columns, vw] :
         std::vector<std::array<unsigned, 5>>{{1, 1, 4, 1, 1}, {2, 8, 32, 4, 4}, {8, 2, 16, 16, 16}}) {
      INFO("RM " << rm << ", RN " << rn << ", SLICE " << slice << ", COLUMNS " << columns << ", VW " << vw);
      PlanOptions tuned = opt;
      PlanOverride ov;
      ov.vector_width = vw;
      ov.macros = {{"COLUMNS", std::to_string(columns)}};
      if (!cpu_like)
        ov.macros.insert({{"RM", std::to_string(rm)}, {"RN", std::to_string(rn)}, {"SLICE", std::to_string(slice)}});
      tuned.override_values = ov;
      check_product(ctx, 37, 41, 301, tuned);
    }
  }
}

TEST_CASE("binary GEMM: |c| <= k, c has k's parity, and signs come back from packing", "[binary_gemm]") {
  Context& ctx = test::cpu_context();
  const std::size_t m = 13, n = 9, k = 77, words = packed_words(k);
  const std::vector<float> ha = signs_source(m * k);
  Buffer<float> da(ctx, ha), back(ctx, std::vector<float>(m * k, 3.0f));
  Buffer<std::uint32_t> pa(ctx, m * words), pb(ctx, n * words);
  pack_signs(ctx, da, m, k, pa);
  unpack_signs(ctx, pa, m, k, back);
  const std::vector<float> signs = back.download();
  bool same = true;
  for (std::size_t i = 0; i < ha.size(); ++i) same = same && signs[i] == float(reference::sign_of(ha[i]));
  CHECK(same);
  // A times its own rows: the diagonal is k (every sign agrees with itself).
  Buffer<int> c(ctx, m * m);
  binary_gemm(ctx, m, m, k, pa, pa, c, m);
  const std::vector<int> got = c.download();
  for (std::size_t i = 0; i < m; ++i) CHECK(got[i * m + i] == int(k));
  bool bounded = true;
  for (int v : got) bounded = bounded && v <= int(k) && v >= -int(k) && (v - int(k)) % 2 == 0;
  CHECK(bounded);
}

TEST_CASE("binary GEMM refuses what it cannot compute, naming the problem", "[binary_gemm]") {
  Context& ctx = test::cpu_context();
  Buffer<std::uint32_t> a(ctx, 4), b(ctx, 4);
  Buffer<int> c(ctx, 16);
  CHECK_THROWS_WITH(binary_gemm(ctx, 4, 4, 32, a, b, c, 3),
                    Catch::Contains("ldc is 3 but a stored row of c has 4 elements"));
  CHECK_THROWS_WITH(binary_gemm(ctx, 4, 4, 64, a, b, c, 4), Catch::Contains("a has 4 elements"));
  CHECK_THROWS_WITH(binary_gemm(ctx, 4, 5, 32, a, b, c, 5), Catch::Contains("b has 4 elements"));
  CHECK_THROWS_WITH(binary_gemm(ctx, 4, 4, 32, a, b, c, 5),
                    Catch::Contains("c needs 19 elements (offset 0, 4 x ld 5) but its buffer has 16"));
  CHECK_THROWS_WITH(binary_gemm(ctx, 1, 1, std::size_t{1} << 31, a, b, c, 1), Catch::Contains("past 2^31 - 1"));
  Buffer<float> x(ctx, 10), x100(ctx, 100);
  Buffer<std::uint32_t> p(ctx, 1);
  CHECK_THROWS_WITH(pack_signs(ctx, x100, 2, 40, p), Catch::Contains("packed has 1 elements"));
  CHECK_THROWS_WITH(pack_signs(ctx, x, 3, 4, p), Catch::Contains("x has 10 elements"));
  CHECK_THROWS_WITH(unpack_signs(ctx, p, 1, 33, x100), Catch::Contains("packed has 1 elements"));
  CHECK_THROWS_WITH(unpack_signs(ctx, p, 1, 20, x), Catch::Contains("x has 10 elements"));
  Context& other = test::another_context();
  Buffer<std::uint32_t> foreign(other, 4);
  CHECK_THROWS_WITH(binary_gemm(ctx, 1, 1, 32, foreign, b, c, 1), Catch::Contains("another context"));
  // Nothing to compute: no launch, C untouched.
  Buffer<int> untouched(ctx, std::vector<int>(4, kPoison));
  binary_gemm(ctx, 0, 2, 32, a, b, untouched, 2);
  binary_gemm(ctx, 2, 0, 32, a, b, untouched, 2);
  CHECK(untouched.download() == std::vector<int>(4, kPoison));
  // k = 0: C = A B is the m x n zero matrix (the empty sum), as the header
  // says; the packed operands hold no words and are not read.
  Buffer<int> zeros(ctx, std::vector<int>(6, kPoison));
  Buffer<std::uint32_t> none(ctx, std::size_t{0});
  binary_gemm(ctx, 2, 3, 0, none, none, zeros, 3);
  CHECK(zeros.download() == std::vector<int>(6, 0));
}
