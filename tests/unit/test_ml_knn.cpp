// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <limits>
#include <tuple>
#include <type_traits>

#include "test_support.hpp"
#include "tuning/ml_knn_reference.hpp"

using namespace portacl;

namespace {

constexpr int kPoisonIndex = -7;

template <class T>
struct KnnData {
  std::vector<T> train, queries;
  std::vector<int> labels;
};

// Random points with duplicates among them: every 7th training point
// repeats an earlier one, and every 5th query is a training point.
template <class T>
KnnData<T> random_data(std::size_t train_count, std::size_t query_count, std::size_t d) {
  KnnData<T> data;
  data.train = test::random_vector<T>(train_count * d);
  data.queries = test::random_vector<T>(query_count * d);
  for (std::size_t t = 7; t < train_count; t += 7)
    std::copy_n(data.train.begin() + (t / 3) * d, d, data.train.begin() + t * d);
  for (std::size_t q = 0; q < query_count && train_count > 0; q += 5)
    std::copy_n(data.train.begin() + ((q * 13) % train_count) * d, d, data.queries.begin() + q * d);
  std::uniform_int_distribution<int> label(0, 4);
  data.labels.resize(train_count);
  for (int& l : data.labels) l = label(test::rng());
  return data;
}

// Classifies with poisoned outputs and checks every query's row against
// the host ranking and its vote against the host vote of the device's own
// row (the vote is exact given the row). Returns the plan.
template <class T>
LaunchPlan check_knn(Context& ctx, std::size_t train_count, std::size_t query_count, std::size_t d, std::size_t k,
                     Similarity similarity, const PlanOptions& plan = {}) {
  const bool cosine = similarity == Similarity::cosine;
  INFO("train " << train_count << ", queries " << query_count << ", d " << d << ", k " << k
                << (cosine ? ", cosine" : ", squared distance"));
  const KnnData<T> data = random_data<T>(train_count, query_count, d);
  Buffer<T> train(ctx, data.train), queries(ctx, data.queries.empty() ? std::vector<T>{0} : data.queries);
  Buffer<int> labels(ctx, data.labels);
  const std::size_t results = std::max<std::size_t>(query_count * k, 1);
  Buffer<int> indices(ctx, std::vector<int>(results + 2, kPoisonIndex));
  Buffer<T> scores(ctx, std::vector<T>(results + 2, std::numeric_limits<T>::quiet_NaN()));
  Buffer<int> predicted(ctx, std::vector<int>(query_count + 2, kPoisonIndex));
  KnnOptions o;
  o.similarity = similarity;
  o.plan = plan;
  const LaunchPlan p =
      knn_classify(ctx, train, labels, train_count, queries, query_count, d, k, predicted, indices, scores, o);
  const std::vector<int> got = indices.download(), votes = predicted.download();
  const std::vector<T> got_scores = scores.download();
  std::string wrong;
  for (std::size_t q = 0; q < query_count && wrong.empty(); ++q) {
    wrong = reference::check_knn_row(data.train, data.queries, train_count, d, k, q, cosine, &got[q * k],
                                     &got_scores[q * k]);
    const std::vector<int> row(got.begin() + q * k, got.begin() + (q + 1) * k);
    if (wrong.empty() && votes[q] != reference::knn_vote(row, data.labels))
      wrong = "query " + std::to_string(q) + " voted " + std::to_string(votes[q]);
  }
  CHECK(wrong == "");
  // The margins see a planted error: 1e-2 (float) or 1e-8 (double) of 1 +
  // the best score, far above d roundings of the squared norms (at most
  // (1e-5 + 4e-7 d) (|q|^2 + |t|^2) in float, that in double's units in double).
  if (query_count > 0) {
    std::vector<T> planted(got_scores.begin(), got_scores.begin() + k);
    planted[0] += T((std::is_same<T, float>::value ? 1e-2 : 1e-8) * (1 + std::fabs(double(planted[0]))));
    CHECK(reference::check_knn_row(data.train, data.queries, train_count, d, k, 0, cosine, &got[0], planted.data()) !=
          "");
  }
  CHECK(got[query_count * k] == kPoisonIndex);  // nothing past the results
  CHECK(votes[query_count] == kPoisonIndex);
  return p;
}

}  // namespace

TEMPLATE_TEST_CASE("KNN: every query's k best and its vote are the host brute force's, at awkward sizes", "[knn]",
                   float, double) {
  Context& ctx = test::cpu_context();
  for (Similarity similarity : {Similarity::cosine, Similarity::squared_distance})
    for (const auto& [train, queries, d, k] : std::vector<std::array<std::size_t, 4>>{{1, 1, 1, 1},
                                                                                      {7, 3, 3, 5},
                                                                                      {97, 13, 1, 5},
                                                                                      {301, 29, 3, 64},
                                                                                      {1000, 37, 35, 5},
                                                                                      {513, 11, 64, 64},
                                                                                      {130, 17, 64, 130},
                                                                                      {64, 0, 3, 1}})
      check_knn<TestType>(ctx, train, queries, d, k, similarity);
}

TEMPLATE_TEST_CASE("KNN runs right under every device class's plan, by both methods", "[knn]", float, double) {
  Context& ctx = test::cpu_context();
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    const LaunchPlan p = check_knn<TestType>(ctx, 777, 41, 12, 5, Similarity::cosine, opt);
    const DeviceClass c = classify(*opt.plan_as).device_class;
    REQUIRE(p.decision("method"));
    CHECK(p.decision("method")->value == (gpu_class(c) ? "matrix product + radix select" : "a sorted list a query"));
    for (long method : {0L, 1L}) {
      INFO("METHOD " << method);
      PlanOptions tuned = opt;
      PlanOverride ov;
      ov.macros = {{"METHOD", std::to_string(method)}};
      tuned.override_values = ov;
      check_knn<TestType>(ctx, 300, 19, 3, 64, Similarity::squared_distance, tuned);
      check_knn<TestType>(ctx, 91, 7, 64, 17, Similarity::cosine, tuned);
    }
  }
}

TEMPLATE_TEST_CASE(
    "KNN invariants: a query that is a training point finds it first; duplicates rank by index; cosine ignores "
    "scale",
    "[knn]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const double u = test::unit_roundoff<T>();
  const std::size_t train_count = 200, d = 6, k = 8;
  std::vector<T> train = test::random_vector<T>(train_count * d);
  // Points 10, 50 and 150 are the same; the query is that point.
  for (std::size_t t : {50, 150}) std::copy_n(train.begin() + 10 * d, d, train.begin() + t * d);
  std::vector<T> query(train.begin() + 10 * d, train.begin() + 11 * d), scaled = query;
  for (T& x : scaled) x *= T(3.5);
  Buffer<T> dt(ctx, train), dq(ctx, query), ds(ctx, scaled);
  for (Similarity similarity : {Similarity::cosine, Similarity::squared_distance})
    for (long method : {0L, 1L}) {
      INFO((similarity == Similarity::cosine ? "cosine" : "squared distance") << ", METHOD " << method);
      KnnOptions o;
      o.similarity = similarity;
      PlanOverride ov;
      ov.macros = {{"METHOD", std::to_string(method)}};
      o.plan.override_values = ov;
      Buffer<int> indices(ctx, k);
      Buffer<T> scores(ctx, k);
      knn_search(ctx, dt, train_count, dq, 1, d, k, indices, scores, o);
      const std::vector<int> got = indices.download();
      CHECK(std::vector<int>(got.begin(), got.begin() + 3) == std::vector<int>{10, 50, 150});
      const std::vector<T> s = scores.download();
      CHECK(s[0] == s[1]);
      CHECK(s[1] == s[2]);
      // The query's score with itself, from a dot product and norms of d
      // terms (d roundings each, of their sum S = |x|^2): the cosine
      // dot / (sqrt(s) sqrt(s)) within d + 2 (d / 2 + sqrt) + a product + a
      // division roundings of 1; the distance s + s - 2 dot within 2 d
      // roundings of each norm, d of the dot and one of the norms' sum, of S.
      double squares = 0;
      for (T x : query) squares += double(x) * double(x);
      const double dd = double(d);
      if (similarity == Similarity::cosine) {
        CHECK(std::fabs(s[0] - 1.0) <= (dd + 2 * (dd / 2 + test::kSqrtU) + 1 + test::kDivisionU) * u);
        for (T v : s) CHECK((v >= T(-1) && v <= T(1)));
        knn_search(ctx, dt, train_count, ds, 1, d, k, indices, scores, o);
        CHECK(indices.download() == got);
      } else {
        CHECK(std::fabs(s[0]) <= (2 * dd + 2 * dd + 2) * u * squares);
      }
    }
  // A zero vector has cosine 0 with everything: every score 0, indices in order.
  Buffer<T> zero(ctx, std::vector<T>(d, T(0)));
  Buffer<int> indices(ctx, k);
  Buffer<T> scores(ctx, k);
  knn_search(ctx, dt, train_count, zero, 1, d, k, indices, scores);
  CHECK(indices.download() == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(scores.download() == std::vector<T>(k, T(0)));
}

TEMPLATE_TEST_CASE("KNN votes: the majority, a tie to the best-ranked neighbour's label", "[knn]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // 1-D points at 1..6 with labels; the query at 0 ranks them 1, 2, ... by distance.
  Buffer<T> train(ctx, std::vector<T>{1, 2, 3, 4, 5, 6}), query(ctx, std::vector<T>{0});
  Buffer<int> labels(ctx, std::vector<int>{7, 9, 9, 7, 3, 3}), predicted(ctx, 1), indices(ctx, 6);
  Buffer<T> scores(ctx, 6);
  KnnOptions o;
  o.similarity = Similarity::squared_distance;
  const std::vector<std::pair<std::size_t, int>> cases{{1, 7}, {2, 7}, {3, 9}, {4, 7}, {6, 7}};
  for (const auto& [k, want] : cases) {
    INFO("k " << k);  // k 2: 7 and 9 tie, 7 ranks first; k 4: 7 7 9 9 tie, 7 first; k 6: three-way tie
    knn_classify(ctx, train, labels, 6, query, 1, 1, k, predicted, indices, scores, o);
    CHECK(predicted.download()[0] == want);
  }
}

TEST_CASE("KNN refuses what it cannot compute, naming the problem", "[knn]") {
  Context& ctx = test::cpu_context();
  Buffer<float> train(ctx, 30), queries(ctx, 6), scores(ctx, 8);
  Buffer<int> indices(ctx, 8), labels(ctx, 10), predicted(ctx, 2);
  CHECK_THROWS_WITH(knn_search(ctx, train, 10, queries, 2, 3, 0, indices, scores), Catch::Contains("k is 0"));
  CHECK_THROWS_WITH(knn_search(ctx, train, 10, queries, 2, 3, 11, indices, scores),
                    Catch::Contains("k 11 is more than the 10 training points"));
  CHECK_THROWS_WITH(knn_search(ctx, train, 10, queries, 2, 0, 1, indices, scores), Catch::Contains("d is 0"));
  CHECK_THROWS_WITH(knn_search(ctx, train, 11, queries, 2, 3, 1, indices, scores),
                    Catch::Contains("train has 30 elements"));
  CHECK_THROWS_WITH(knn_search(ctx, train, 10, queries, 3, 3, 1, indices, scores),
                    Catch::Contains("queries has 6 elements"));
  CHECK_THROWS_WITH(knn_search(ctx, train, 10, queries, 2, 3, 5, indices, scores),
                    Catch::Contains("indices has 8 elements"));
  Buffer<int> short_labels(ctx, 9);
  CHECK_THROWS_WITH(knn_classify(ctx, train, short_labels, 10, queries, 2, 3, 4, predicted, indices, scores),
                    Catch::Contains("train_labels has 9 elements"));
  Context& other = test::another_context();
  Buffer<float> foreign(other, 30);
  CHECK_THROWS_WITH(knn_search(ctx, foreign, 10, queries, 2, 3, 1, indices, scores),
                    Catch::Contains("another context"));
  // No queries: nothing launched, nothing written.
  Buffer<int> untouched(ctx, std::vector<int>(8, kPoisonIndex));
  knn_search(ctx, train, 10, queries, 0, 3, 4, untouched, scores);
  CHECK(untouched.download() == std::vector<int>(8, kPoisonIndex));
}
