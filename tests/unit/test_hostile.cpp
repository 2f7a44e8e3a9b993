// SPDX-License-Identifier: Apache-2.0
// Hostile sizes (issue 12): counts near 2^64 / sizeof(T) through every
// public allocation path must give an error naming the operand, never a
// wrapped byte count, a small buffer, or a crash.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <limits>
#include <thread>

#include "kernels/clblast_status.hpp"
#include "test_support.hpp"
#include "kernels/reduce_tunables.hpp"
#include "util/checked.hpp"

using namespace portacl;

namespace {

// Counts whose byte size wraps for T, and counts just beyond any device.
template <class T>
std::vector<std::size_t> hostile_counts() {
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  return {max,
          max / sizeof(T) + 1,
          max / sizeof(T) + 2,
          (max / sizeof(T)) / 2 + 1,
          std::size_t{1} << 62,
          (std::size_t{1} << 62) + 1,
          max / sizeof(T)};
}

}  // namespace

TEMPLATE_TEST_CASE("buffers refuse element counts whose bytes overflow or exceed the device", "[hostile]", float,
                   double, int) {
  Context& ctx = test::cpu_context();
  for (std::size_t n : hostile_counts<TestType>()) {
    INFO("n = " << n);
    // Either the byte count overflows, or it exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE: an Error either way.
    CHECK_THROWS_AS(Buffer<TestType>(ctx, n), Error);
    CHECK_THROWS_AS(Buffer<TestType>(ctx, n, MemoryStrategy::map_host_memory), Error);
  }
  CHECK_THROWS_WITH(Buffer<TestType>(ctx, std::numeric_limits<std::size_t>::max() / sizeof(TestType) + 1),
                    Catch::Contains("overflows the address space"));
}

TEST_CASE("size arithmetic and number parsing refuse to wrap", "[hostile]") {
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  CHECK(checked_product(max / 4, 4, "x") == max / 4 * 4);
  CHECK_THROWS_WITH(checked_product(max / 4 + 1, 4, "Buffer<float>"),
                    Catch::Contains("Buffer<float>: 4611686018427387904 x 4 overflows"));
  CHECK_THROWS_AS(checked_sum(max, 1, "x"), Error);
  CHECK(bytes_of<double>(3, "x") == 24);
  CHECK(parse_unsigned("18446744073709551615") == std::optional<std::uint64_t>(UINT64_MAX));
  CHECK_FALSE(parse_unsigned("18446744073709551616"));
  CHECK_FALSE(parse_unsigned("-1"));
  CHECK_FALSE(parse_unsigned("+1"));
  CHECK_FALSE(parse_unsigned(" 1"));
  CHECK_FALSE(parse_unsigned("1 "));
  CHECK_FALSE(parse_unsigned("12abc"));
  CHECK_FALSE(parse_unsigned(""));
  CHECK(parse_unsigned("0010") == std::optional<std::uint64_t>(10));  // decimal, not octal
  CHECK(parse_unsigned("0x10de", true) == std::optional<std::uint64_t>(0x10de));
  CHECK_FALSE(parse_unsigned("0x10de"));
  CHECK_FALSE(parse_unsigned("0x", true));
  CHECK_FALSE(parse_unsigned("300", false, 255));
  CHECK_THROWS_WITH(parse_unsigned_or_throw("-3", "device index"),
                    Catch::Contains("device index must be a whole number from 0 to"));
  CHECK(exact_integer(3.0, 0, 10) == std::optional<std::int64_t>(3));
  CHECK_FALSE(exact_integer(1e300, 0, INT64_MAX));
  CHECK_FALSE(exact_integer(9223372036854775808.0, 0, INT64_MAX));  // 2^63
  CHECK_FALSE(exact_integer(std::numeric_limits<double>::quiet_NaN(), 0, 10));
  CHECK_FALSE(exact_integer(-1.0, 0, 10));
  CHECK_FALSE(exact_integer(2.5, 0, 10));
}

TEST_CASE("matrix routines refuse shapes whose extent overflows, before any launch", "[hostile]") {
  Context& ctx = test::cpu_context();
  const std::vector<float> sentinel(64, 0.5f);
  Buffer<float> a(ctx, sentinel), b(ctx, sentinel), c(ctx, sentinel), x(ctx, sentinel), y(ctx, sentinel);
  const std::size_t huge = std::size_t{1} << 62;
  using M = MatrixRef<float>;
  // (rows - 1) * ld wraps to a small number without checked arithmetic.
  CHECK_THROWS_WITH(gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, huge, 4, 4, 1.0f, M{a, 0, 8}, M{b, 0, 4},
                         0.0f, c, 0, 4),
                    Catch::Contains("gemm: A"));
  CHECK_THROWS_WITH(gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, 4, 4, 4, 1.0f, M{a, 0, huge * 2},
                         M{b, 0, 4}, 0.0f, c, 0, 4),
                    Catch::Contains("gemm: A"));
  CHECK_THROWS_WITH(gemv(ctx, Layout::row_major, Transpose::no, 4, 4, 1.0f, M{a, 0, 4},
                         VectorRef<float>{x, 0, huge * 2 + 1}, 0.0f, y, 0, 1),
                    Catch::Contains("gemv: x"));
  CHECK_THROWS_WITH(
      packed_symv(ctx, std::numeric_limits<std::size_t>::max(), 1.0f, a, 0, VectorRef<float>{x, 0, 1}, 0.0f, y, 0, 1),
      Catch::Contains("packed_symv"));
  CHECK_THROWS_WITH(packed_symv(ctx, std::size_t{1} << 33, 1.0f, a, 0, VectorRef<float>{x, 0, 1}, 0.0f, y, 0, 1),
                    Catch::Contains("packed_symv"));
  CHECK_THROWS_WITH(trsv(ctx, Layout::row_major, huge, M{a, 0, huge}, x, 0, 1, Diagonal::non_unit),
                    Catch::Contains("trsv: L"));
  // Nothing was written.
  CHECK(c.download() == sentinel);
  CHECK(y.download() == sentinel);
  CHECK(x.download() == sentinel);
}

TEST_CASE("scratch memory refuses sizes the device cannot hold", "[hostile]") {
  Context& ctx = test::cpu_context();
  CHECK_THROWS_AS(ctx.scratch("test.hostile", std::numeric_limits<std::size_t>::max()), Error);
}

namespace {

// A minimal clinfo dump of one device with `extra` lines appended.
std::string clinfo_with(const std::string& extra) {
  return "Number of platforms  1\n"
         "  Platform Name  Test\n"
         "Number of devices  1\n"
         "  Device Name  Hostile device\n"
         "  Device Type  CPU\n"
         "  Max compute units  4\n" +
         extra;
}

}  // namespace

TEST_CASE("clinfo numbers: no wrapping, no signs, no octal, errors name the line and field", "[hostile]") {
  // A 20-digit count overflows 64 bits: refused, naming line and field.
  CHECK_THROWS_WITH(parse_clinfo(clinfo_with("  Max work group size  123456789012345678901\n"), "test"),
                    Catch::Contains("test line 7, field 'Max work group size'") && Catch::Contains("does not fit"));
  // 2^32 in a 32-bit field is refused too, never truncated.
  CHECK_THROWS_WITH(parse_clinfo(clinfo_with("  Max compute units  4294967296\n"), "test"),
                    Catch::Contains("field 'Max compute units'"));
  CHECK_THROWS_WITH(parse_clinfo(clinfo_with("  Local memory size  -65536\n"), "test"),
                    Catch::Contains("field 'Local memory size'") && Catch::Contains("signed"));
  // Leading zeros are decimal; 0x is hexadecimal (vendor ids).
  DeviceInfo d = parse_clinfo(clinfo_with("  Max work group size  0010\n  Device Vendor ID  0x10de\n"), "test").at(0);
  CHECK(d.max_work_group_size == 10);
  CHECK(d.vendor_id == 0x10de);
  // Older clinfo versions label the cache line without "size".
  d = parse_clinfo(clinfo_with("  Global Memory cache line  64 bytes\n"), "test").at(0);
  CHECK(d.global_cache_line_size == 64);
  d = parse_clinfo(clinfo_with("  Global Memory cache line size  128 bytes\n"), "test").at(0);
  CHECK(d.global_cache_line_size == 128);
}

TEST_CASE("a truncated clinfo dump lists the fields it lacks", "[hostile]") {
  const std::string full = test::read_file(test::fixture_path("nvidia_h100.clinfo"));
  const DeviceInfo whole = parse_clinfo(full, "full").at(0);
  CHECK(whole.missing_fields.empty());
  const std::string cut = full.substr(0, full.find("Max work group size"));
  const DeviceInfo truncated = parse_clinfo(cut, "cut").at(0);
  REQUIRE_FALSE(truncated.missing_fields.empty());
  CHECK(std::find(truncated.missing_fields.begin(), truncated.missing_fields.end(), "Max work group size") !=
        truncated.missing_fields.end());
  // Device JSON is judged the same way.
  const std::string dir = test::scratch_dir("hostile-json-fields");
  const std::vector<DeviceInfo> live = DeviceInfo::from_json_file(test::fixture_path("nvidia_h100.live.json"));
  CHECK(live.at(0).missing_fields.empty());
  Json partial = live.at(0).to_json();
  partial["max_work_group_size"] = 0;
  test::write_file(dir + "/partial.json", partial.dump());
  const auto missing = DeviceInfo::from_json_file(dir + "/partial.json").at(0).missing_fields;
  CHECK(std::find(missing.begin(), missing.end(), "Max work group size") != missing.end());
}

TEST_CASE("description readers refuse files that are not regular files", "[hostile]") {
  CHECK_THROWS_WITH(parse_clinfo_file("/dev/zero"), Catch::Contains("'/dev/zero' is not a regular file"));
  CHECK_THROWS_WITH(DeviceInfo::from_json_file("/dev/zero"), Catch::Contains("'/dev/zero' is not a regular file"));
  const std::string dir = test::scratch_dir("hostile-dir");
  CHECK_THROWS_WITH(parse_clinfo_file(dir), Catch::Contains("is not a regular file"));
}

// ---- issue 12 section 7: wrong answers found by an independent suite -------

TEST_CASE("GEMM with k = 0 gives C = beta C on both backends, every layout and transpose", "[hostile]") {
  Context& ctx = test::cpu_context();
  const std::size_t m = 5, n = 7;
  const std::vector<float> c0 = test::random_vector<float>(m * n);
  Buffer<float> a(ctx, 4), b(ctx, 4), c(ctx, c0);
  for (GemmBackend backend : {GemmBackend::portacl, GemmBackend::clblast})
    for (Layout layout : {Layout::row_major, Layout::column_major})
      for (Transpose ta : {Transpose::no, Transpose::yes})
        for (Transpose tb : {Transpose::no, Transpose::yes}) {
          INFO("backend " << int(backend) << " layout " << int(layout) << " ta " << int(ta) << " tb " << int(tb));
          c.upload(c0);
          const std::size_t ldc = layout == Layout::row_major ? n : m;
          CHECK_NOTHROW(gemm(ctx, layout, ta, tb, m, n, 0, 2.0f, MatrixRef<float>{a, 0, 1}, MatrixRef<float>{b, 0, 1},
                             -1.5f, c, 0, ldc, GemmOptions(backend)));
          std::vector<float> want(c0.size());
          for (std::size_t i = 0; i < c0.size(); ++i) want[i] = -1.5f * c0[i];
          CHECK(c.download() == want);
        }
}

TEST_CASE("alpha = 0 reads neither A, B nor x: NaN there never reaches the result", "[hostile]") {
  Context& ctx = test::cpu_context();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::size_t m = 33, n = 17, k = 9;
  const std::vector<float> nans(64 * 64, nan);
  const std::vector<float> c0 = test::random_vector<float>(m * n), y0 = test::random_vector<float>(m);
  Buffer<float> a(ctx, nans), b(ctx, nans), x(ctx, nans), c(ctx, c0), y(ctx, y0);
  auto scaled = [](const std::vector<float>& v, float s) {
    std::vector<float> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = s * v[i];
    return out;
  };
  for (GemmBackend backend : {GemmBackend::portacl, GemmBackend::clblast}) {
    INFO("gemm backend " << int(backend));
    c.upload(c0);
    gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, m, n, k, 0.0f, MatrixRef<float>{a, 0, k},
         MatrixRef<float>{b, 0, n}, 0.5f, c, 0, n, GemmOptions(backend));
    CHECK(c.download() == scaled(c0, 0.5f));
  }
  for (Transpose t : {Transpose::no, Transpose::yes}) {
    y.upload(y0);
    const std::size_t cols = t == Transpose::no ? n : m, rows = t == Transpose::no ? m : n;
    gemv(ctx, Layout::row_major, t, rows, cols, 0.0f, MatrixRef<float>{a, 0, 64}, VectorRef<float>{x, 0, 1}, 2.0f, y, 0,
         1);
    std::vector<float> want = scaled(y0, 2.0f);
    std::vector<float> got = y.download();
    for (std::size_t i = rows; i < m; ++i) want[i] = y0[i];  // outside the vector: untouched
    CHECK(got == want);
  }
  y.upload(y0);
  packed_symv(ctx, m, 0.0f, a, 0, VectorRef<float>{x, 0, 1}, -1.0f, y, 0, 1);
  CHECK(y.download() == scaled(y0, -1.0f));
  // beta = 0 as well: y = 0, y's old NaN not read either.
  y.upload(std::vector<float>(m, nan));
  packed_symv(ctx, m, 0.0f, a, 0, VectorRef<float>{x, 0, 1}, 0.0f, y, 0, 1);
  CHECK(y.download() == std::vector<float>(m, 0.0f));
}

TEST_CASE("CLBlast statuses are named", "[hostile]") {
  CHECK(clblast_status_text(-1017) == "CLBlastInvalidDimension (-1017)");
  CHECK(clblast_status_text(0) == "CLBlastSuccess (0)");
  CHECK(clblast_status_text(12345) == "status 12345");
}

TEST_CASE("threads sharing one Context get their own, correct results", "[hostile][threads]") {
  Context& ctx = test::cpu_context();
  const int threads = 4, calls = 25;
  std::atomic<int> wrong{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      // Each thread's own data: sums, dots, scans and a GEMM per call.
      const std::size_t n = 20000 + 1000 * std::size_t(t);
      std::vector<float> hx(n), hy(n);
      for (std::size_t i = 0; i < n; ++i) {
        hx[i] = float((i * 7 + std::size_t(t)) % 13) - 6.0f;  // small integers: exact sums
        hy[i] = float(t + 1);
      }
      const double want_dot = reference::dot(hx, hy).value, want_sum = reference::sum(hx).value;
      Buffer<float> x(ctx, hx), y(ctx, hy), z(ctx, n);
      const std::size_t order = 40 + std::size_t(t);
      Buffer<float> a(ctx, std::vector<float>(order * order, 1.0f)), b(ctx, std::vector<float>(order * order, 2.0f)),
          c(ctx, order * order);
      for (int i = 0; i < calls; ++i) {
        if (double(dot(ctx, x, y)) != want_dot) ++wrong;
        if (double(sum(ctx, x)) != want_sum) ++wrong;
        inclusive_scan(ctx, x, z);
        if (double(z.download().back()) != want_sum) ++wrong;
        gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, order, order, order, 1.0f,
             MatrixRef<float>{a, 0, order}, MatrixRef<float>{b, 0, order}, 0.0f, c, 0, order);
        for (float v : c.download())
          if (v != 2.0f * float(order)) {
            ++wrong;
            break;
          }
      }
    });
  for (auto& th : pool) th.join();
  CHECK(wrong == 0);
}

TEST_CASE("a double literal in a float predicate or expression compiles and means that number", "[hostile]") {
  Context& ctx = test::cpu_context();
  const std::vector<float> hx = test::random_dyadic<float>(1031, 2, 8);  // multiples of 1/8
  Buffer<float> x(ctx, hx), y(ctx, hx.size());
  const std::size_t want = reference::count_if(hx, [](float v) { return v > 0.75f; });
  CHECK(count_if(ctx, "x > 0.75", x) == want);
  CHECK(compact(ctx, "x > 0.75", x, y) == want);
  map(ctx, "x * 0.5 + 1.0", x, y);
  CHECK(reference::compare(y.download(), reference::map(hx, [](double v) { return v * 0.5 + 1.0; }), 2) == "");
  // Double buffers keep double literals.
  const std::vector<double> hd(hx.begin(), hx.end());
  Buffer<double> xd(ctx, hd);
  CHECK(count_if(ctx, "x > 0.75", xd) == want);
}

// ---- issue 12 section 8: device profiles the fixtures did not cover --------

TEST_CASE("NVIDIA's shuffle variant needs NVIDIA's platform", "[hostile]") {
  DeviceInfo h100 = test::load_fixture("nvidia_h100.clinfo");
  REQUIRE(classify(h100).device_class == DeviceClass::nvidia_gpu);
  CHECK((sub_group_ops_of(h100) & warp_shuffle) != 0);
  // The same device behind PoCL's CUDA backend: no inline PTX.
  h100.platform_name = "Portable Computing Language";
  h100.platform_vendor = "The pocl project";
  CHECK((sub_group_ops_of(h100) & warp_shuffle) == 0);
  PlanOptions rules;
  rules.consult_provider = false;
  const LaunchPlan p =
      make_plan(h100, reduce_traits("sum", ElementType::f32, 1, 4, true, 1), ProblemSize(1 << 20), rules);
  CHECK(p.macros.at("SUB_GROUPS") != "2");
  CHECK_FALSE((p.decision("sub_groups") && p.decision("sub_groups")->value == "warp shuffle"));
}

TEST_CASE("Intel GPUs take the compiler's width, not the largest advertised sub-group", "[hostile]") {
  DeviceInfo d;
  d.type = DeviceType::gpu;
  d.vendor = "Intel(R) Corporation";
  d.name = "Intel(R) Iris(R) Xe Graphics";
  d.intel_sub_group_sizes = {8, 16, 32};
  CHECK(classify(d).execution_width == 16);
  CHECK_THAT(classify(d).reason, Catch::Contains("SIMD8"));
  d.preferred_work_group_multiple = 8;  // a live device's compiled kernel says 8
  CHECK(classify(d).execution_width == 8);
  d.preferred_work_group_multiple = 0;
  d.intel_sub_group_sizes = {8, 32};
  CHECK(classify(d).execution_width == 32);
}
