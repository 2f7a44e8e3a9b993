// SPDX-License-Identifier: Apache-2.0
// The per-context caches of kernel objects and plans: repeated calls reuse
// them, threads never share a kernel object's arguments, and a changed
// tuning database is seen by the next call.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "test_support.hpp"

using namespace portacl;

TEST_CASE("threads calling the same kernel on one context each get their own results", "[launch][threads]") {
  Context& ctx = test::cpu_context();
  INFO("seed " << test::seed());
  constexpr int threads = 4, rounds = 25;
  const std::size_t n = 4099;
  std::vector<std::vector<float>> x(threads), y0(threads), result(threads);
  for (int t = 0; t < threads; ++t) {
    x[t] = test::random_vector<float>(n);
    y0[t] = test::random_vector<float>(n);
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      Buffer<float> dx(ctx, x[t]), dy(ctx, y0[t]);
      // Each thread its own alpha: a shared kernel object would mix them up.
      for (int r = 0; r < rounds; ++r) axpy(ctx, float(t + 1), dx, dy);
      result[t] = dy.download();
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    INFO("thread " << t);
    for (std::size_t i = 0; i < n; i += 97) {
      // Each round y = alpha x + y rounded once (fused) on the host; the
      // device may round the product too, and its sum rounds apart from
      // the host's: each round adds u (|alpha x| + 2 |y|) to the gap.
      double want = y0[t][i], margin = 0;
      for (int r = 0; r < rounds; ++r) {
        want = double(float(want + double(t + 1) * x[t][i]));
        margin += test::kFloatU * (std::fabs(double(t + 1) * x[t][i]) + 2 * std::fabs(want));
      }
      CHECK(std::fabs(result[t][i] - want) <= margin);
    }
  }
}

TEST_CASE("a repeated call reuses its plan until the tuning database changes", "[launch]") {
  Context& ctx = test::cpu_context();
  const std::size_t n = 5003;
  const std::vector<float> hx = test::random_vector<float>(n);
  double want = 0;
  for (float v : hx) want += v;
  Buffer<float> x(ctx, hx);
  LaunchPlan first, again;
  sum(ctx, x, {}, &first);
  CHECK(sum(ctx, x, {}, &again) == Approx(want).margin(test::sum_margin(hx)));
  CHECK(again.summary() == first.summary());
  CHECK(first.provenance == "rules");

  // A tuned record for this device appears: the next call plans with it.
  const std::string dir = test::scratch_dir("launch-cache-db");
  const std::string path = dir + "/db.json";
  TuningRecord r;
  r.device = DeviceFingerprint::of(ctx.info());
  r.kernel = "sum";
  r.element = "float";
  r.bucket = size_bucket(n);
  r.n = n;
  r.configuration = {{"work_group_size", 32},
                     {"vector_width", 1},
                     {"groups_per_compute_unit", 1},
                     {"use_local_memory", 1},
                     {"passes", 2}};
  TuningDatabase::merge_into_file(path, {r});
  const char* before = std::getenv("PORTACL_TUNING_DB");
  const std::string saved = before ? before : "";
  ::setenv("PORTACL_TUNING_DB", path.c_str(), 1);
  use_tuning_databases();
  LaunchPlan tuned;
  const float got = sum(ctx, x, {}, &tuned);
  ::setenv("PORTACL_TUNING_DB", saved.c_str(), 1);
  CHECK(got == Approx(want).margin(test::sum_margin(hx)));
  CHECK_THAT(tuned.provenance, Catch::Contains("tier 1"));
  CHECK(tuned.work_group_size() == 32);
  // And back to the rules once the database is gone again.
  LaunchPlan after;
  sum(ctx, x, {}, &after);
  CHECK(after.provenance == "rules");
}

TEST_CASE("a repeated GEMM reuses its prepared launches until the tuning database changes", "[launch]") {
  Context& ctx = test::cpu_context();
  const std::size_t n = 67;
  const std::vector<float> ha = test::random_vector<float>(n * n), hb = test::random_vector<float>(n * n);
  Buffer<float> a(ctx, ha), b(ctx, hb), c(ctx, n * n);
  const auto product = [&] {
    std::vector<reference::Exact> want(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        want[i * n + j] = reference::gemm_entry(
            i, j, n, [&](std::size_t r, std::size_t p) { return ha[r * n + p]; },
            [&](std::size_t p, std::size_t col) { return hb[p * n + col]; });
    return want;
  }();
  auto run = [&] {
    c.upload(std::vector<float>(n * n, std::numeric_limits<float>::quiet_NaN()));
    LaunchPlan p = gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, n, n, n, 1.0f, MatrixRef<float>{a, 0, n},
                        MatrixRef<float>{b, 0, n}, 0.0f, c, 0, n);
    CHECK(reference::compare(c.download(), product,
                             reference::dot_bound<float>(n) / std::numeric_limits<float>::epsilon()) == "");
    return p;
  };
  const LaunchPlan first = run(), again = run();
  CHECK(first.provenance == "rules");
  CHECK(again.summary() == first.summary());
  const std::string rules_pack = first.macros.at("PACK");  // 1 on CPUs (67^3 > 64^3), 0 on GPUs

  // A tuned record that turns packing the other way is seen by the next call.
  const std::string path = test::scratch_dir("launch-cache-gemm-db") + "/db.json";
  TuningRecord r;
  r.device = DeviceFingerprint::of(ctx.info());
  r.kernel = "gemm";
  r.element = "float";
  r.bucket = size_bucket(n * n);
  r.n = n * n;
  r.configuration = {{"PACK", rules_pack == "1" ? 0 : 1}};
  TuningDatabase::merge_into_file(path, {r});
  const char* before = std::getenv("PORTACL_TUNING_DB");
  const std::string saved = before ? before : "";
  ::setenv("PORTACL_TUNING_DB", path.c_str(), 1);
  use_tuning_databases();
  const LaunchPlan tuned = run();
  ::setenv("PORTACL_TUNING_DB", saved.c_str(), 1);
  use_tuning_databases();
  CHECK_THAT(tuned.provenance, Catch::Contains("tier 1"));
  CHECK(tuned.macros.at("PACK") != rules_pack);
  const LaunchPlan after = run();
  CHECK(after.provenance == "rules");
  CHECK(after.macros.at("PACK") == rules_pack);
}
