// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>
#include <type_traits>

#include "test_support.hpp"
#include "tuning/ml_kmeans_reference.hpp"

using namespace portacl;

namespace {

constexpr int kPoisonLabel = 0x7eadbeef;

template <class T>
std::vector<T> transposed(const std::vector<T>& rows, std::size_t n, std::size_t d) {
  std::vector<T> columns(rows.size());
  for (std::size_t p = 0; p < n; ++p)
    for (std::size_t j = 0; j < d; ++j) columns[j * n + p] = rows[p * d + j];
  return columns;
}

// How far a device centroid may stand from the double mean of its m
// members: m additions in T and a division, each within eps of the
// members' mean magnitude.
template <class T>
double mean_margin(const std::vector<T>& points, const std::vector<int>& labels, std::size_t d, int c, std::size_t j) {
  double magnitude = 0;
  std::size_t m = 0;
  for (std::size_t p = 0; p < labels.size(); ++p)
    if (labels[p] == c) {
      magnitude += std::fabs(points[p * d + j]);
      ++m;
    }
  return m ? double(m + 2) * std::numeric_limits<T>::epsilon() * magnitude / double(m) : 0.0;
}

// How far the device's inertia may stand from the double sum of its
// points' distances (all terms positive, so every bound is relative to the
// inertia): a squared distance is d fused multiply-adds of differences
// each rounded once, (d + 2) roundings; a work-item adds its POINTS
// distances in turn and the work-group adds its items in a tree; the
// groups' sums are added in double. u: the unit roundoff of the element.
double inertia_margin(const LaunchPlan& plan, std::size_t d, std::size_t n, double inertia, double u) {
  const double points = std::stod(plan.macros.at("POINTS"));
  const double depth = std::ceil(std::log2(double(plan.work_group_size())));
  return ((double(d) + 2 + points - 1 + depth) * u + double(n) * std::numeric_limits<double>::epsilon()) * inertia;
}

// One Lloyd iteration on the device (max_iterations 1 from `centroids`)
// checked against the host: every label the nearest centroid (or a
// near-tie), the centroids the means of the device's labels, the cluster
// sizes and the inertia. Returns the device's centroids.
template <class T>
std::vector<T> checked_iteration(Context& ctx, const std::vector<T>& rows, std::size_t n, std::size_t d, std::size_t k,
                                 const std::vector<T>& centroids, PointLayout layout, const PlanOptions& plan) {
  Buffer<T> points(ctx, layout == PointLayout::rows ? rows : transposed(rows, n, d));
  Buffer<T> dc(ctx, centroids);
  Buffer<int> labels(ctx, std::vector<int>(n + 3, kPoisonLabel));
  KmeansOptions o;
  o.init = KmeansInit::given;
  o.max_iterations = 1;
  o.layout = layout;
  o.plan = plan;
  const KmeansResult r = kmeans(ctx, points, n, d, k, dc, labels, o);
  std::vector<int> got = labels.download();
  CHECK(std::all_of(got.begin() + n, got.end(), [](int v) { return v == kPoisonLabel; }));
  got.resize(n);
  REQUIRE(r.iterations == 1);
  CHECK(r.changed == std::vector<std::size_t>{n});
  std::string wrong;
  for (std::size_t p = 0; p < n && wrong.empty(); ++p) wrong = reference::check_label(rows, centroids, d, k, p, got[p]);
  CHECK(wrong == "");
  double inertia = 0;
  std::vector<std::uint32_t> sizes(k, 0);
  for (std::size_t p = 0; p < n; ++p) {
    inertia += reference::squared_distance(rows, centroids, d, p, std::size_t(got[p]));
    ++sizes[std::size_t(got[p])];
  }
  CHECK(r.cluster_sizes == sizes);
  const double u = test::unit_roundoff<T>();
  CHECK(std::fabs(r.inertia[0] - inertia) <= inertia_margin(r.plan, d, n, inertia, u));
  // The margin sees a planted error of one part in 10^4 (float) or 10^10 (double).
  const double planted = std::is_same<T, float>::value ? 1e-4 : 1e-10;
  if (inertia > 0)
    CHECK_FALSE(std::fabs(r.inertia[0] * (1 + planted) - inertia) <= inertia_margin(r.plan, d, n, inertia, u));
  const std::vector<T> want = reference::cluster_means(rows, got, centroids, d, k);
  const std::vector<T> moved = dc.download();
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t j = 0; j < d; ++j) {
      INFO("centroid " << c << ", coordinate " << j << " (" << sizes[c] << " points)");
      if (sizes[c] == 0)
        REQUIRE(moved[c * d + j] == centroids[c * d + j]);  // an empty cluster keeps its centroid exactly
      else
        REQUIRE(std::fabs(moved[c * d + j] - want[c * d + j]) <= mean_margin(rows, got, d, int(c), j));
    }
  return moved;
}

// Three iterations from the first k points, each checked on its own.
template <class T>
void check_iterations(Context& ctx, std::size_t n, std::size_t d, std::size_t k, PointLayout layout,
                      const PlanOptions& plan = {}) {
  INFO("n " << n << ", d " << d << ", k " << k << (layout == PointLayout::rows ? ", rows" : ", columns"));
  const std::vector<T> rows = reference::gaussian_blobs<T>(n, d, std::min<std::size_t>(k, 5), 4.0, 1.0, test::rng()());
  std::vector<T> centroids(k * d);
  for (std::size_t i = 0; i < k * d; ++i) centroids[i] = rows[i % rows.size()] + T(0.5) * T(i / rows.size());
  for (int it = 0; it < 3; ++it) centroids = checked_iteration(ctx, rows, n, d, k, centroids, layout, plan);
}

}  // namespace

TEMPLATE_TEST_CASE(
    "k-means: each iteration's labels, centroids, sizes and inertia are a host Lloyd step's, at "
    "awkward sizes",
    "[kmeans]", float, double) {
  Context& ctx = test::cpu_context();
  for (const auto& [n, d, k] : std::vector<std::tuple<std::size_t, std::size_t, std::size_t>>{
           {1, 1, 1}, {2, 3, 2}, {7, 1, 3}, {97, 5, 4}, {1021, 35, 10}, {4099, 3, 17}, {300, 64, 1}, {61, 2, 61}})
    for (PointLayout layout : {PointLayout::rows, PointLayout::columns})
      check_iterations<TestType>(ctx, n, d, k, layout);
}

TEMPLATE_TEST_CASE("k-means runs right under every device class's plan and under tuned shapes", "[kmeans]", float,
                   double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    check_iterations<TestType>(ctx, 1021, 35, 10, PointLayout::rows, opt);
    check_iterations<TestType>(ctx, 523, 3, 7, PointLayout::columns, opt);
    for (const auto& [points, block, columns, atomic] :
         std::vector<std::array<unsigned, 4>>{{4, 1, 1, 1}, {8, 16, 0, 0}, {2, 4, 1, 0}}) {
      INFO("POINTS " << points << ", BLOCK " << block << ", COLUMNS " << columns << ", ATOMIC " << atomic);
      PlanOptions tuned = opt;
      PlanOverride ov;
      ov.macros = {{"POINTS", std::to_string(points)},
                   {"BLOCK", std::to_string(block)},
                   {"COLUMNS", std::to_string(columns)},
                   {"ATOMIC", std::to_string(atomic)}};
      tuned.override_values = ov;
      check_iterations<TestType>(ctx, 777, 13, 11, PointLayout::rows, tuned);  // (ATOMIC: float only, by the rule)
    }
  }
}

TEMPLATE_TEST_CASE("k-means runs to the host Lloyd's labels and centroids; the inertia never rises", "[kmeans]", float,
                   double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const double u = test::unit_roundoff<T>();
  const std::size_t n = 2003, d = 6, k = 5;
  // Well-separated blobs: no point lies near a tie, so the host's double
  // labels and the device's labels agree at every step.
  const std::vector<T> rows = reference::gaussian_blobs<T>(n, d, k, 20.0, 1.0, test::rng()());
  std::vector<T> start(rows.begin() + 7 * d, rows.begin() + (7 + k) * d), host = start;
  const reference::LloydRun want = reference::lloyd(rows, host, n, d, k, 100);
  Buffer<T> points(ctx, rows), centroids(ctx, start);
  Buffer<int> labels(ctx, n);
  KmeansOptions o;
  o.init = KmeansInit::given;
  const KmeansResult r = kmeans(ctx, points, n, d, k, centroids, labels, o);
  CHECK(r.converged);
  CHECK(r.iterations == want.inertia.size());
  CHECK(r.changed.back() == 0);
  CHECK(labels.download() == want.labels);
  // Step by step on the host, with the margins: after the first step both
  // sides' centroids are means of the same labels (the host's rounded to
  // T once, the device's within mean_margin), each coordinate at most
  // delta apart, which moves a point's squared distance by at most
  // 2 |x - c| delta + delta^2 a coordinate; on top of that, the device's
  // own rounding of the inertia.
  const auto apart = [&](const std::vector<int>& labels, const std::vector<T>& means) {
    std::vector<double> delta(k * d);
    for (std::size_t c = 0; c < k; ++c)
      for (std::size_t j = 0; j < d; ++j)
        delta[c * d + j] = mean_margin(rows, labels, d, int(c), j) + u * std::fabs(double(means[c * d + j]));
    return delta;
  };
  std::vector<T> stepped = start;
  std::vector<double> delta(k * d, 0.0);
  REQUIRE(r.inertia.size() == want.inertia.size());
  for (std::size_t i = 0; i < r.inertia.size(); ++i) {
    const std::vector<T> used = stepped;
    const reference::LloydRun step = reference::lloyd(rows, stepped, n, d, k, 1);
    double moved = 0;
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t j = 0; j < d; ++j) {
        const std::size_t at = std::size_t(step.labels[p]) * d + j;
        moved += 2 * std::fabs(double(rows[p * d + j]) - used[at]) * delta[at] + delta[at] * delta[at];
      }
    INFO("iteration " << i);
    CHECK(std::fabs(r.inertia[i] - step.inertia[0]) <= inertia_margin(r.plan, d, n, step.inertia[0], u) + moved);
    delta = apart(step.labels, stepped);
  }
  const std::vector<T> got = centroids.download();
  for (std::size_t i = 0; i < k * d; ++i) CHECK(std::fabs(double(got[i]) - double(host[i])) <= delta[i]);

  // Uniform points have no clusters to find: many iterations, each one's
  // inertia at most the one before, up to the rounding of both (the exact
  // inertia never rises: Lloyd's steps each lower it or keep it; the
  // centroids' own rounding moves it by far less, being second order at
  // the means).
  const std::vector<T> uniform = test::random_vector<T>(5000 * 4, 0.0, 1.0);
  Buffer<T> up(ctx, uniform), uc(ctx, 8 * 4);
  Buffer<int> ul(ctx, 5000);
  KmeansOptions uo;
  uo.seed = test::rng()();
  uo.max_iterations = 40;
  const KmeansResult ur = kmeans(ctx, up, 5000, 4, 8, uc, ul, uo);
  CHECK(ur.iterations > 3);
  for (std::size_t i = 1; i < ur.inertia.size(); ++i)
    CHECK(ur.inertia[i] <= ur.inertia[i - 1] + inertia_margin(ur.plan, 4, 5000, ur.inertia[i - 1], u) +
                               inertia_margin(ur.plan, 4, 5000, ur.inertia[i], u));
  // The tolerances stop earlier: at the first iteration that changes 50
  // labels or fewer. Uniform points may take more than 40 iterations to get
  // there (seed 4979954514363777557 took over 40), and Lloyd's iterations
  // always end, so the limit is far away here.
  uo.changed_tolerance = 50;
  uo.max_iterations = 100000;
  const KmeansResult early = kmeans(ctx, up, 5000, 4, 8, uc, ul, uo);
  CHECK(early.changed.back() <= 50);
  CHECK(early.converged);
  for (std::size_t i = 0; i + 1 < early.changed.size(); ++i) CHECK(early.changed[i] > 50);
}

TEMPLATE_TEST_CASE("k-means ties go to the lowest centroid index; an empty cluster keeps its centroid", "[kmeans]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // 1-D points exactly halfway between two centroids (exact in float and double).
  const std::vector<T> rows{1, 0, 2, 1, 3};
  Buffer<T> points(ctx, rows), centroids(ctx, std::vector<T>{2, 0, 4, 1e6});
  Buffer<int> labels(ctx, 5);
  KmeansOptions o;
  o.init = KmeansInit::given;
  o.max_iterations = 1;
  const KmeansResult r = kmeans(ctx, points, 5, 1, 4, centroids, labels, o);
  // 1 is 1 from centroids 0 (2) and 1 (0): label 0; 3 ties 0 (2) and 2 (4): label 0.
  CHECK(labels.download() == std::vector<int>{0, 1, 0, 0, 0});
  CHECK(r.cluster_sizes == std::vector<std::uint32_t>{4, 1, 0, 0});
  const std::vector<T> moved = centroids.download();
  CHECK(moved[0] == T(1.75));
  CHECK(moved[1] == T(0));
  CHECK(moved[2] == T(4));  // empty: kept
  CHECK(moved[3] == T(1e6));
}

TEST_CASE("k-means starts: a seed draws the same distinct points, k-means++ spreads them over the blobs", "[kmeans]") {
  Context& ctx = test::cpu_context();
  const std::size_t n = 3001, d = 3, k = 6;
  const std::vector<float> rows = reference::gaussian_blobs(n, d, k, 1000.0, 1.0, test::rng()());
  Buffer<float> points(ctx, rows);
  const std::uint64_t seed = test::rng()();
  for (KmeansInit init : {KmeansInit::random_points, KmeansInit::plus_plus}) {
    INFO((init == KmeansInit::plus_plus ? "k-means++" : "random points"));
    KmeansOptions o;
    o.init = init;
    o.seed = seed;
    Buffer<float> a(ctx, std::vector<float>(k * d, std::nanf(""))), b(ctx, std::vector<float>(k * d, 7.0f));
    kmeans_init(ctx, points, n, d, k, a, o);
    kmeans_init(ctx, points, n, d, k, b, o);
    const std::vector<float> ha = a.download();
    CHECK(ha == b.download());
    std::set<std::size_t> which, blobs;
    for (std::size_t c = 0; c < k; ++c)
      for (std::size_t p = 0; p < n; ++p)
        if (std::equal(rows.begin() + p * d, rows.begin() + (p + 1) * d, ha.begin() + c * d)) {
          which.insert(p);
          blobs.insert(p % k);
          break;
        }
    CHECK(which.size() == k);  // k distinct points of the set
    // Blobs 1000 apart with unit spread: k-means++ draws a second point of
    // a blob with probability about 1e-6.
    if (init == KmeansInit::plus_plus) CHECK(blobs.size() == k);
    // kmeans from the drawn centroids runs exactly as kmeans that draws them.
    Buffer<int> la(ctx, n), lb(ctx, n);
    Buffer<float> drawn(ctx, k * d);
    KmeansOptions given = o;
    given.init = KmeansInit::given;
    const KmeansResult ra = kmeans(ctx, points, n, d, k, a, la, given);
    const KmeansResult rb = kmeans(ctx, points, n, d, k, drawn, lb, o);
    CHECK(ra.inertia == rb.inertia);
    CHECK(la.download() == lb.download());
    CHECK(a.download() == drawn.download());
  }
  // Fewer distinct points than k: k-means++ still draws k different points.
  Buffer<float> twins(ctx, std::vector<float>{1, 1, 1, 1, 2, 2});
  Buffer<float> c3(ctx, 3);
  KmeansOptions o;
  o.seed = seed;
  kmeans_init(ctx, twins, 6, 1, 3, c3, o);
  std::vector<float> got = c3.download();
  std::sort(got.begin(), got.end());
  CHECK((got == std::vector<float>{1, 1, 2} || got == std::vector<float>{1, 2, 2}));
}

TEMPLATE_TEST_CASE("k-means repeats bit for bit, and reads either layout alike", "[kmeans]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const std::size_t n = 2500, d = 7, k = 9;
  const std::vector<T> rows = reference::gaussian_blobs<T>(n, d, k, 3.0, 1.0, test::rng()());
  Buffer<T> by_rows(ctx, rows), by_columns(ctx, transposed(rows, n, d));
  KmeansOptions o;
  o.seed = test::rng()();
  o.max_iterations = 15;
  std::vector<std::vector<T>> centroids;
  std::vector<std::vector<int>> labels;
  for (int run = 0; run < 3; ++run) {
    o.layout = run == 2 ? PointLayout::columns : PointLayout::rows;
    Buffer<T> c(ctx, k * d);
    Buffer<int> l(ctx, n);
    kmeans(ctx, run == 2 ? by_columns : by_rows, n, d, k, c, l, o);
    centroids.push_back(c.download());
    labels.push_back(l.download());
  }
  CHECK(centroids[0] == centroids[1]);
  CHECK(labels[0] == labels[1]);
  CHECK(centroids[0] == centroids[2]);
  CHECK(labels[0] == labels[2]);
}

TEST_CASE("k-means refuses what it cannot compute, naming the problem", "[kmeans]") {
  Context& ctx = test::cpu_context();
  Buffer<float> points(ctx, 20), centroids(ctx, 6);
  Buffer<int> labels(ctx, 10);
  KmeansOptions o;
  CHECK_THROWS_WITH(kmeans(ctx, points, 10, 2, 0, centroids, labels, o), Catch::Contains("k is 0"));
  CHECK_THROWS_WITH(kmeans(ctx, points, 10, 0, 3, centroids, labels, o), Catch::Contains("d is 0"));
  CHECK_THROWS_WITH(kmeans(ctx, points, 0, 2, 3, centroids, labels, o), Catch::Contains("n is 0"));
  CHECK_THROWS_WITH(kmeans(ctx, points, 2, 2, 3, centroids, labels, o),
                    Catch::Contains("k 3 is more than the 2 points"));
  CHECK_THROWS_WITH(kmeans(ctx, points, 11, 2, 3, centroids, labels, o), Catch::Contains("points has 20 elements"));
  CHECK_THROWS_WITH(kmeans(ctx, points, 10, 2, 4, centroids, labels, o), Catch::Contains("centroids has 6 elements"));
  Buffer<int> short_labels(ctx, 9);
  CHECK_THROWS_WITH(kmeans(ctx, points, 10, 2, 3, centroids, short_labels, o),
                    Catch::Contains("labels has 9 elements"));
  o.max_iterations = 0;
  CHECK_THROWS_WITH(kmeans(ctx, points, 10, 2, 3, centroids, labels, o), Catch::Contains("max_iterations is 0"));
  o.max_iterations = 5;
  o.inertia_tolerance = -1;
  CHECK_THROWS_WITH(kmeans(ctx, points, 10, 2, 3, centroids, labels, o), Catch::Contains("inertia_tolerance"));
  o.inertia_tolerance = 0;
  Context& other = test::another_context();
  Buffer<float> foreign(other, 20);
  CHECK_THROWS_WITH(kmeans(ctx, foreign, 10, 2, 3, centroids, labels, o), Catch::Contains("another context"));
  // A NaN coordinate: the inertia turns NaN and the run stops, saying why.
  std::vector<float> bad(20, 1.0f);
  bad[7] = std::nanf("");
  Buffer<float> nan_points(ctx, bad);
  o.init = KmeansInit::given;
  Buffer<float> start(ctx, std::vector<float>{0, 0, 1, 1, 2, 2});
  CHECK_THROWS_WITH(kmeans(ctx, nan_points, 10, 2, 3, start, labels, o), Catch::Contains("not finite"));
}
