// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>

#include "test_support.hpp"
#include "kernels/gemm_plans.hpp"
#include "kernels/gemm_tunables.hpp"
#include "kernels/planner.hpp"

using namespace portacl;

namespace {

struct Shape {
  std::size_t m, n, k;
};

// One GEMM against a double-precision host reference: fresh random
// matrices, leading dimensions larger than needed, offsets, C poisoned
// outside the result and (for beta == 0) inside it.
template <class T>
void check_gemm(Context& ctx, Layout layout, Transpose ta, Transpose tb, Shape s, T alpha, T beta,
                const GemmOptions& opt, std::size_t pad = 3, std::size_t offset = 5) {
  INFO("layout " << (layout == Layout::row_major ? "row" : "col") << ", ta " << int(ta) << ", tb " << int(tb) << ", m "
                 << s.m << " n " << s.n << " k " << s.k << ", alpha " << alpha << " beta " << beta);
  const bool row = layout == Layout::row_major;
  auto dims = [&](bool trans, std::size_t r, std::size_t c) {
    return trans ? std::make_pair(c, r) : std::make_pair(r, c);
  };
  auto [ar, ac] = dims(ta == Transpose::yes, s.m, s.k);
  auto [br, bc] = dims(tb == Transpose::yes, s.k, s.n);
  const std::size_t lda = (row ? ac : ar) + pad, ldb = (row ? bc : br) + pad, ldc = (row ? s.n : s.m) + pad;
  auto extent = [&](std::size_t r, std::size_t c, std::size_t ld) { return offset + (row ? r : c) * ld + 1; };
  std::vector<T> a = test::random_vector<T>(extent(ar, ac, lda)), b = test::random_vector<T>(extent(br, bc, ldb));
  const T poison = beta == T(0) ? std::numeric_limits<T>::quiet_NaN() : T(0.5);
  std::vector<T> c = test::random_vector<T>(extent(s.m, s.n, ldc));
  auto at = [&](std::size_t r, std::size_t col, std::size_t ld) {
    return offset + (row ? r * ld + col : col * ld + r);
  };
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t j = 0; j < s.n; ++j)
      if (beta == T(0)) c[at(i, j, ldc)] = poison;
  const std::vector<T> c0 = c;
  auto op_a = [&](std::size_t i, std::size_t p) { return ta == Transpose::yes ? a[at(p, i, lda)] : a[at(i, p, lda)]; };
  auto op_b = [&](std::size_t p, std::size_t j) { return tb == Transpose::yes ? b[at(j, p, ldb)] : b[at(p, j, ldb)]; };
  Buffer<T> da(ctx, a), db(ctx, b), dc(ctx, c);
  gemm(ctx, layout, ta, tb, s.m, s.n, s.k, alpha, MatrixRef<T>{da, offset, lda}, MatrixRef<T>{db, offset, ldb}, beta,
       dc, offset, ldc, opt);
  const std::vector<T> got = dc.download();
  // Every entry of C, in row order; elements outside C's m x n block stay
  // as they were.
  std::vector<reference::Exact> product(s.m * s.n);
  for (std::size_t i = 0; i < s.m; ++i)
    for (std::size_t j = 0; j < s.n; ++j) product[i * s.n + j] = reference::gemm_entry(i, j, s.k, op_a, op_b);
  const std::string wrong = reference::compare_update(
      got, c0, [&](std::size_t e) { return at(e / s.n, e % s.n, ldc); }, alpha, beta, s.k, product);
  CHECK(wrong == "");
}

const std::vector<Shape> gemm_odd_shapes = {{1, 1, 1},     {3, 3, 3},    {17, 17, 17}, {33, 65, 17},
                                            {65, 33, 127}, {127, 1, 65}, {1, 127, 3},  {17, 3, 1}};

// Forces the strided (0) or the packed (1) kernel, whatever the size.
PlanOptions variant(long pack) {
  PlanOptions o;
  PlanOverride ov;
  ov.macros = {{"PACK", std::to_string(pack)}};
  ov.provenance = "test";
  o.override_values = ov;
  return o;
}

}  // namespace

TEMPLATE_TEST_CASE("gemm matches the host for every layout, transpose, alpha and beta", "[gemm]", float, double) {
  Context& ctx = test::cpu_context();
  for (Layout layout : {Layout::row_major, Layout::column_major})
    for (Transpose ta : {Transpose::no, Transpose::yes})
      for (Transpose tb : {Transpose::no, Transpose::yes})
        for (const Shape& s : gemm_odd_shapes)
          for (long pack : {0, 1}) {
            check_gemm<TestType>(ctx, layout, ta, tb, s, TestType(1), TestType(0), variant(pack));
            check_gemm<TestType>(ctx, layout, ta, tb, s, TestType(-0.75), TestType(1.5), variant(pack));
          }
  // k = 0 scales C by beta; m or n = 0 does nothing.
  for (long pack : {0, 1}) {
    check_gemm<TestType>(ctx, Layout::row_major, Transpose::no, Transpose::no, {5, 7, 0}, TestType(2), TestType(-1),
                         variant(pack));
    check_gemm<TestType>(ctx, Layout::row_major, Transpose::no, Transpose::no, {0, 7, 3}, TestType(2), TestType(-1),
                         variant(pack));
  }
  // Large enough for the rules to pack by themselves.
  check_gemm<TestType>(ctx, Layout::column_major, Transpose::yes, Transpose::no, {97, 131, 67}, TestType(1),
                       TestType(0), {});
}

TEMPLATE_TEST_CASE("gemm runs under every device class's plan and every register block", "[gemm][long]", float,
                   double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    for (Transpose ta : {Transpose::no, Transpose::yes})
      check_gemm<TestType>(ctx, Layout::column_major, ta, Transpose::yes, {65, 33, 127}, TestType(1), TestType(0.5),
                           opt);
    // Rule general.pack-large-products: GPUs pack from 640^3, so their
    // packed path needs a product that large (659 x 641 x 631).
    check_gemm<TestType>(ctx, Layout::row_major, Transpose::no, Transpose::yes, {659, 641, 631}, TestType(1),
                         TestType(0), opt);
    const DeviceClass dc = classify(*opt.plan_as).device_class;
    const bool cpu_like = dc == DeviceClass::cpu || dc == DeviceClass::intel_mic;
    auto plan_of = [&](std::size_t m, std::size_t n, std::size_t k) {
      Buffer<TestType> a(ctx, m * k), b(ctx, k * n), c(ctx, m * n);
      LaunchPlan p = gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, m, n, k, TestType(1),
                          MatrixRef<TestType>{a, 0, k}, MatrixRef<TestType>{b, 0, n}, TestType(0), c, 0, n, opt);
      CHECK(p.device_class == dc);
      return p;
    };
    CHECK(plan_of(4, 4, 4).macros.at("PACK") == "0");
    CHECK(plan_of(65, 33, 127).macros.at("PACK") == (cpu_like ? "1" : "0"));
    const LaunchPlan packed = plan_of(659, 641, 631);
    CHECK(packed.macros.at("PACK") == "1");
    // Rule general.gemm-register-tiles: packed slices in local memory are
    // double-buffered, blocks 8 rows deep; without local memory never.
    CHECK(packed.macros.at("PREFETCH") == (packed.use_local_memory ? "1" : "0"));
    if (packed.use_local_memory) CHECK(packed.macros.at("WPT_M") == "8");
  }
  // Double buffering with a group that does not divide the slices (6 x 10
  // work-items move 80 vectors of A and 48 of B in rounds of 60), single
  // and double-buffered, over an odd number of slices (k = 37: 5 of 8).
  for (long prefetch : {0, 1}) {
    PlanOptions o;
    PlanOverride ov;
    ov.use_local_memory = true;
    ov.local_shape = std::array<std::size_t, 3>{{6, 10, 1}};
    ov.macros = {{"WPT_M", "4"},
                 {"WPT_N", "4"},
                 {"TS_K", "8"},
                 {"PACK", "1"},
                 {"VEC", "4"},
                 {"UNROLL", "8"},
                 {"PREFETCH", std::to_string(prefetch)}};
    ov.provenance = "test";
    o.override_values = ov;
    INFO("6 x 10 group, PREFETCH " << prefetch);
    check_gemm<TestType>(ctx, Layout::row_major, Transpose::no, Transpose::yes, {67, 45, 37}, TestType(-1),
                         TestType(0.5), o);
  }
  // Corners of the tuning space: smallest and largest register blocks,
  // uneven ones, every slice depth, vector width and unrolling, with and
  // without local memory, strided and packed.
  struct Corner {
    long wm, wn, ts_k, vec, unroll;
  };
  const std::vector<Corner> corners = {{1, 1, 8, 1, 1}, {2, 8, 16, 2, 4},  {8, 2, 32, 2, 16},
                                       {8, 8, 8, 8, 8}, {16, 4, 16, 4, 8}, {4, 16, 8, 4, 1}};
  // Each corner runs packed and strided, with and without local memory
  // spread over the corners: every program is a compile (seconds on PoCL).
  for (std::size_t i = 0; i < corners.size(); ++i)
    for (long pack : {0, 1}) {
      const Corner& c = corners[i];
      const long local = pack ? long(i % 2) : long(i / 2 % 2);
      PlanOptions o;
      PlanOverride ov;
      ov.use_local_memory = local != 0;
      ov.macros = {{"WPT_M", std::to_string(c.wm)},
                   {"WPT_N", std::to_string(c.wn)},
                   {"TS_K", std::to_string(c.ts_k)},
                   {"PACK", std::to_string(pack)}};
      if (pack) {
        ov.macros["VEC"] = std::to_string(c.vec);
        ov.macros["UNROLL"] = std::to_string(c.unroll);
        if (local) ov.macros["PREFETCH"] = i == 3 ? "0" : "1";
      }
      ov.provenance = "test";
      o.override_values = ov;
      INFO("WPT " << c.wm << "x" << c.wn << " TS_K " << c.ts_k << " VEC " << c.vec << " UNROLL " << c.unroll
                  << " local " << local << " pack " << pack);
      check_gemm<TestType>(ctx, Layout::row_major, Transpose::yes, Transpose::no, {67, 45, 37}, TestType(1),
                           TestType(0), o);
    }
}

TEMPLATE_TEST_CASE("gemm's CLBlast backend agrees with the library's kernels", "[gemm]", float, double) {
  Context& ctx = test::cpu_context();
  std::uniform_int_distribution<std::size_t> dim(1, 150);
  std::uniform_int_distribution<int> coin(0, 1);
  const double eps = std::numeric_limits<TestType>::epsilon();
  for (int trial = 0; trial < 6; ++trial) {
    const Layout layout = coin(test::rng()) ? Layout::row_major : Layout::column_major;
    const Transpose ta = coin(test::rng()) ? Transpose::yes : Transpose::no;
    const Transpose tb = coin(test::rng()) ? Transpose::yes : Transpose::no;
    const Shape s{dim(test::rng()), dim(test::rng()), dim(test::rng())};
    const TestType alpha(1.25), beta = trial % 2 ? TestType(0) : TestType(-0.5);
    // Each backend against the host (NaN poison in C when beta = 0 included).
    check_gemm<TestType>(ctx, layout, ta, tb, s, alpha, beta, GemmBackend::clblast, 0, 0);
    // And the two against each other on the same operands.
    const bool row = layout == Layout::row_major;
    const std::size_t ar = ta == Transpose::yes ? s.k : s.m, ac = ta == Transpose::yes ? s.m : s.k;
    const std::size_t br = tb == Transpose::yes ? s.n : s.k, bc = tb == Transpose::yes ? s.k : s.n;
    const std::size_t lda = row ? ac : ar, ldb = row ? bc : br, ldc = row ? s.n : s.m;
    const std::vector<TestType> ha = test::random_vector<TestType>(ar * ac),
                                hb = test::random_vector<TestType>(br * bc),
                                hc = test::random_vector<TestType>(s.m * s.n);
    Buffer<TestType> a(ctx, ha), b(ctx, hb), own(ctx, hc), theirs(ctx, hc);
    const LaunchPlan ours = gemm(ctx, layout, ta, tb, s.m, s.n, s.k, alpha, MatrixRef<TestType>{a, 0, lda},
                                 MatrixRef<TestType>{b, 0, ldb}, beta, own, 0, ldc, GemmBackend::portacl);
    const LaunchPlan other = gemm(ctx, layout, ta, tb, s.m, s.n, s.k, alpha, MatrixRef<TestType>{a, 0, lda},
                                  MatrixRef<TestType>{b, 0, ldb}, beta, theirs, 0, ldc, GemmBackend::clblast);
    CHECK(ours.decision("backend") == nullptr);
    REQUIRE(other.decision("backend") != nullptr);
    CHECK(other.decision("backend")->value == "CLBlast");
    const std::vector<TestType> x = own.download(), y = theirs.download();
    // |A| |B| bounds every entry's magnitude: the inputs lie in [0.5, 2].
    const double tol =
        4 * (s.k + 2) * eps * (std::fabs(double(alpha)) * 4.0 * double(s.k) + 2.0 * std::fabs(double(beta)));
    std::size_t bad = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!(std::fabs(double(x[i]) - double(y[i])) <= tol)) ++bad;
    INFO("m " << s.m << " n " << s.n << " k " << s.k << " row " << row << " ta " << int(ta) << " tb " << int(tb));
    CHECK(bad == 0);
  }
}

TEST_CASE("gemm takes CLBlast when the tuning database measured it faster", "[gemm]") {
  Context& ctx = test::cpu_context();
  Buffer<float> a(ctx, std::vector<float>(9, 1.0f)), b(ctx, std::vector<float>(9, 2.0f)), c(ctx, 9);
  PlanOptions o;
  o.override_values = to_override({{"BACKEND", 1}}, ctx.info(), "tuning database: test");
  const LaunchPlan p = gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, 3, 3, 3, 1.0f,
                            MatrixRef<float>{a, 0, 3}, MatrixRef<float>{b, 0, 3}, 0.0f, c, 0, 3, o);
  REQUIRE(p.decision("backend") != nullptr);
  CHECK(p.decision("backend")->why.find("tuning database: test") != std::string::npos);
  CHECK(c.download() == std::vector<float>(9, 6.0f));
  // The tuner measures CLBlast whatever its strategy: it is an alternative
  // of the declared space, and an admissible one.
  const TuningSpace& space = gemm_tunables();
  REQUIRE(space.alternatives.size() == 1);
  CHECK(check_configuration(space, space.alternatives[0], ctx.info(), gemm_traits(ElementType::f32)) == "");
  CHECK(check_configuration(space, {{"BACKEND", 1}, {"WPT_M", 4}}, ctx.info(), gemm_traits(ElementType::f32)) != "");
}

TEST_CASE("gemm refuses bad shapes before any launch", "[gemm]") {
  Context& ctx = test::cpu_context();
  Buffer<float> a(ctx, 12), b(ctx, 12), c(ctx, 9), small(ctx, 5);
  auto call = [&](Layout l, std::size_t lda, Buffer<float>& cc, std::size_t ldc, std::size_t offa = 0) {
    gemm(ctx, l, Transpose::no, Transpose::no, 3, 3, 4, 1.0f, MatrixRef<float>{a, offa, lda}, MatrixRef<float>{b, 0, 3},
         0.0f, cc, 0, ldc);
  };
  CHECK_NOTHROW(call(Layout::row_major, 4, c, 3));
  CHECK_THROWS_WITH(call(Layout::row_major, 3, c, 3), Catch::Contains("ldA is 3 but a stored row of A has 4"));
  CHECK_THROWS_WITH(call(Layout::column_major, 2, c, 3), Catch::Contains("ldA is 2 but a stored column of A has 3"));
  CHECK_THROWS_WITH(call(Layout::row_major, 4, small, 3),
                    Catch::Contains("C needs 9 elements") && Catch::Contains("its buffer has 5"));
  CHECK_THROWS_WITH(call(Layout::row_major, 4, c, 3, 1), Catch::Contains("A needs 13 elements"));
  Context& other = test::another_context();
  Buffer<float> foreign(other, 12);
  CHECK_THROWS_WITH(gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, 3, 3, 4, 1.0f,
                         MatrixRef<float>{foreign, 0, 4}, MatrixRef<float>{b, 0, 3}, 0.0f, c, 0, 3),
                    Catch::Contains("buffer A belongs to another context"));
}

TEST_CASE("gemm's register tiles follow the element size, the tile count and the local memory", "[gemm]") {
  // Rule general.gemm-register-tiles on the H100's description (132
  // compute units, 48 KiB of local memory), planned offline: no launch.
  const DeviceInfo h100 = test::load_fixture("nvidia_h100.clinfo");
  PlanOptions none;
  none.consult_provider = false;  // the rules alone, whatever a database holds
  auto shape = [&](ElementType e, std::size_t n) {
    const GemmPlans g = plan_gemm(offline_planner(h100, none), e, n, n, n, GemmOptions{});
    return std::to_string(g.plan.local[0]) + "x" + std::to_string(g.plan.local[1]) + " " + g.plan.macros.at("WPT_M") +
           "x" + g.plan.macros.at("WPT_N") + " TS_K " + g.plan.macros.at("TS_K") + " PREFETCH " +
           g.plan.macros.at("PREFETCH") + " UNROLL " + g.plan.macros.at("UNROLL");
  };
  // float: 8 x 16 accumulators on 16 x 16, two 16-deep buffers of 128 x 256
  // tiles (48 KiB) fit.
  CHECK(shape(ElementType::f32, 4096) == "16x16 8x16 TS_K 16 PREFETCH 1 UNROLL 16");
  // double: 8 x 8 (the same 128 registers); 16-deep buffers would take 64
  // KiB, so 8 deep.
  CHECK(shape(ElementType::f64, 4096) == "16x16 8x8 TS_K 8 PREFETCH 1 UNROLL 8");
  // 1024^3 makes 32 tiles of 128 x 256 and 64 of 128 x 128, both fewer than
  // half the 132 compute units: 8 x 4 blocks, 128 tiles.
  CHECK(shape(ElementType::f32, 1024) == "16x16 8x4 TS_K 16 PREFETCH 1 UNROLL 16");
}

TEST_CASE("strided-batched gemm equals each product alone, bit for bit, and refuses overlapping products", "[gemm]") {
  Context& ctx = test::cpu_context();
  // Small (the strided kernel) and packed (one launch over the batch) shapes, awkward sizes.
  for (const auto& [m, n, k] :
       std::vector<std::array<std::size_t, 3>>{{1, 1, 1}, {7, 5, 3}, {70, 65, 67}, {33, 130, 0}})
    for (Layout layout : {Layout::row_major, Layout::column_major})
      for (Transpose ta : {Transpose::no, Transpose::yes})
        for (std::size_t batch : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
          INFO(m << "x" << n << "x" << k << (layout == Layout::row_major ? ", row-major" : ", column-major")
                 << (ta == Transpose::yes ? ", A transposed" : "") << ", batch " << batch);
          const std::size_t lda = (layout == Layout::row_major) == (ta == Transpose::no) ? k + 2 : m + 1;
          const std::size_t a_rows = (layout == Layout::row_major) == (ta == Transpose::no) ? m : k;
          const std::size_t ldb = layout == Layout::row_major ? n + 1 : k + 3,
                            b_rows = layout == Layout::row_major ? k : n;
          const std::size_t ldc = layout == Layout::row_major ? n + 2 : m + 2,
                            c_rows = layout == Layout::row_major ? m : n;
          const std::size_t stride_a = a_rows * lda + 5, stride_c = c_rows * ldc + 1;
          const std::vector<float> a = test::random_vector<float>(std::max<std::size_t>(batch, 1) * stride_a + 3);
          const std::vector<float> b = test::random_vector<float>(b_rows * ldb + 1);  // stride 0: one B for all
          const std::vector<float> c0 = test::random_vector<float>(std::max<std::size_t>(batch, 1) * stride_c + 4);
          Buffer<float> da(ctx, a), db(ctx, b), batched(ctx, c0), alone(ctx, c0);
          gemm_strided_batched<float>(ctx, layout, ta, Transpose::no, m, n, k, 1.5f, MatrixRef<float>{da, 3, lda},
                                      stride_a, MatrixRef<float>{db, 1, ldb}, 0, -0.5f, batched, 4, ldc, stride_c,
                                      batch);
          for (std::size_t i = 0; i < batch; ++i)
            gemm<float>(ctx, layout, ta, Transpose::no, m, n, k, 1.5f, MatrixRef<float>{da, 3 + i * stride_a, lda},
                        MatrixRef<float>{db, 1, ldb}, -0.5f, alone, 4 + i * stride_c, ldc);
          CHECK(batched.download() == alone.download());
        }
  // Every class's plan: the packed path's tiles, local memory and prefetch over a batch.
  for (const auto& [f, opt] : test::class_plans(ElementType::f32)) {
    INFO(f);
    const std::size_t m = 70, n = 65, k = 67, batch = 3;
    const std::vector<float> a = test::random_vector<float>(batch * m * k),
                             b = test::random_vector<float>(batch * k * n);
    Buffer<float> da(ctx, a), db(ctx, b), batched(ctx, batch * m * n), alone(ctx, batch * m * n);
    gemm_strided_batched<float>(ctx, Layout::row_major, Transpose::no, Transpose::no, m, n, k, 1.0f,
                                MatrixRef<float>{da, 0, k}, m * k, MatrixRef<float>{db, 0, n}, k * n, 0.0f, batched, 0,
                                n, m * n, batch, GemmOptions(opt));
    for (std::size_t i = 0; i < batch; ++i)
      gemm<float>(ctx, Layout::row_major, Transpose::no, Transpose::no, m, n, k, 1.0f,
                  MatrixRef<float>{da, i * m * k, k}, MatrixRef<float>{db, i * k * n, n}, 0.0f, alone, i * m * n, n,
                  GemmOptions(opt));
    CHECK(batched.download() == alone.download());
  }
  Buffer<float> a(ctx, 64), c(ctx, 64);
  CHECK_THROWS_WITH(
      gemm_strided_batched<float>(ctx, Layout::row_major, Transpose::no, Transpose::no, 2, 2, 2, 1.0f,
                                  MatrixRef<float>{a, 0, 2}, 4, MatrixRef<float>{a, 0, 2}, 0, 0.0f, c, 0, 2, 3, 2),
      Catch::Contains("stride_c 3 is shorter than a C matrix (4 elements)"));
  CHECK_THROWS_WITH(
      gemm_strided_batched<float>(ctx, Layout::row_major, Transpose::no, Transpose::no, 2, 2, 2, 1.0f,
                                  MatrixRef<float>{a, 0, 2}, 62, MatrixRef<float>{a, 0, 2}, 0, 0.0f, c, 0, 2, 4, 2),
      Catch::Contains("A needs 66 elements (offset 62"));
  CHECK_THROWS_WITH(
      gemm_strided_batched<float>(ctx, Layout::row_major, Transpose::no, Transpose::no, 2, 2, 2, 1.0f,
                                  MatrixRef<float>{c, 8, 2}, 4, MatrixRef<float>{a, 0, 2}, 0, 0.0f, c, 0, 2, 4, 3),
      Catch::Contains("C and A share overlapping memory"));
}
