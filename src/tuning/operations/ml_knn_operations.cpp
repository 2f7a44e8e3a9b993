// SPDX-License-Identifier: Apache-2.0
// The KNN operations: classify sqrt(n) queries against sqrt(n) training
// points (2^24: the book's 4096 x 4096, so n counts the pairs), k = 64,
// 16 classes, cosine similarity, at d = 3 (the book's) and d = 64.
// Counted: 2 d flops a pair (the dot product); the bytes are noise beside
// the pairs. Checked on 64 queries spread over the set against the double
// brute force, and their votes against the host vote of the same rows.
// No OpenCL library has a KNN; tools/gpu/torch_ml.py times PyTorch's.
#include <cmath>
#include <random>

#include "../ml_knn_reference.hpp"
#include "../family.hpp"
#include "kernels/ml/knn_tunables.hpp"
#include "portacl/ml.hpp"

namespace portacl {
namespace {

constexpr std::size_t kNeighbours = 64;
constexpr int kClasses = 16;

template <class T>
struct KnnCase {
  KnnCase(Context& ctx, std::size_t points, std::size_t dims)
      : n(points),
        d(dims),
        train(draw(points * dims, 0x6b6e6e31ull ^ points ^ (dims << 40))),
        queries(draw(points * dims, 0x6b6e6e32ull ^ points ^ (dims << 40))),
        labels(points),
        dtrain(ctx, train),
        dqueries(ctx, queries),
        dlabels(ctx, points),
        indices(ctx, points * kNeighbours),
        scores(ctx, points * kNeighbours),
        predicted(ctx, points) {
    std::mt19937_64 g(points);
    for (int& l : labels) l = int(g() % kClasses);
    dlabels.upload(labels);
  }
  static std::vector<T> draw(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 g(seed);
    std::normal_distribution<T> x(T(0), T(1));  // (float: the same draw as before double came)
    std::vector<T> v(count);
    for (T& e : v) e = x(g);
    return v;
  }
  std::size_t n, d;
  std::vector<T> train, queries;
  std::vector<int> labels;
  Buffer<T> dtrain, dqueries;
  Buffer<int> dlabels, indices;
  Buffer<T> scores;
  Buffer<int> predicted;
};

template <class T>
KnnCase<T>& knn_case(Workload& w, std::size_t d) {
  auto& slot = w.derived["knn" + std::to_string(d) + (sizeof(T) == 8 ? " double" : "")];
  if (!slot) {
    const auto points = static_cast<std::size_t>(std::llround(std::sqrt(double(w.n))));
    slot = std::make_shared<KnnCase<T>>(w.ctx, std::max(points, kNeighbours), d);
  }
  return *std::static_pointer_cast<KnnCase<T>>(slot);
}

template <class T>
Operation knn_operation(std::size_t d) {
  const auto run = [d](Workload& w, const PlanOptions& o) {
    KnnCase<T>& c = knn_case<T>(w, d);
    KnnOptions options;
    options.plan = o;
    return knn_classify(w.ctx, c.dtrain, c.dlabels, c.n, c.dqueries, c.n, c.d, kNeighbours, c.predicted, c.indices,
                        c.scores, options);
  };
  const auto check = [d, run](Workload& w, const PlanOptions& o) -> std::string {
    KnnCase<T>& c = knn_case<T>(w, d);
    c.indices.upload(std::vector<int>(c.n * kNeighbours, -1));
    c.predicted.upload(std::vector<int>(c.n, -1));
    run(w, o);
    const std::vector<int> got = c.indices.download(), votes = c.predicted.download();
    const std::vector<T> scores = c.scores.download();
    for (std::size_t s = 0; s < 64; ++s) {
      const std::size_t q = s * (c.n - 1) / 63;
      const std::string wrong = reference::check_knn_row(c.train, c.queries, c.n, c.d, kNeighbours, q, true,
                                                         &got[q * kNeighbours], &scores[q * kNeighbours]);
      if (!wrong.empty()) return wrong;
      const std::vector<int> row(got.begin() + q * kNeighbours, got.begin() + (q + 1) * kNeighbours);
      if (votes[q] != reference::knn_vote(row, c.labels))
        return "query " + std::to_string(q) + " voted " + std::to_string(votes[q]);
    }
    return "";
  };
  return Operation{"knn d=" + std::to_string(d) + (sizeof(T) == 8 ? " double" : ""),
                   0,
                   2.0 * double(d),
                   &knn_tunables(),
                   run,
                   check};
}

// In double too ("knn d=64 double"), the tuned records kept apart by element.
std::vector<Operation> knn_operations() {
  return {knn_operation<float>(3), knn_operation<float>(64), knn_operation<double>(64)};
}

const FamilyRegistration knn_family({"knn", 43, knn_operations});

}  // namespace
}  // namespace portacl
