// SPDX-License-Identifier: Apache-2.0
// The k-means operation: one Lloyd iteration (assignment and update) on
// the book's shape, d = 35 coordinates and k = 10 clusters, of
// 300000 n / 2^23 points (2^23: the book's 300,000), Gaussian blobs. The
// points are handed over in the layout the plan reads (rule kmeans.layout),
// as a user who keeps them so would, so the timed call is the iteration
// alone; its centroids move on from run to run, which leaves the work the
// same. Counted: the points read once (140 bytes) and 3 k d flops a point.
// Checked from fresh start centroids: every label the nearest centroid (or
// a float near-tie) and every centroid its members' double mean.
#include <cmath>

#include "../host_reference.hpp"
#include "../ml_kmeans_reference.hpp"
#include "../family.hpp"
#include "kernels/ml/kmeans_tunables.hpp"
#include "portacl/ml.hpp"

namespace portacl {
namespace {

constexpr std::size_t kDims = 35, kClusters = 10;
constexpr double kPointsPerElement = 300000.0 / double(1u << 23);

template <class T>
struct KmeansCase {
  KmeansCase(Context& ctx, std::size_t points)
      : n(points),
        rows(reference::gaussian_blobs<T>(points, kDims, kClusters, 2.0, 1.0, 0x6d65616eull ^ points)),
        start(rows.begin(), rows.begin() + kClusters * kDims),
        by_rows(ctx, rows),
        by_columns(ctx, points * kDims),
        centroids(ctx, start),
        labels(ctx, points) {
    std::vector<T> columns(rows.size());
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t j = 0; j < kDims; ++j) columns[j * n + p] = rows[p * kDims + j];
    by_columns.upload(columns);
  }
  std::size_t n;
  std::vector<T> rows, start;
  Buffer<T> by_rows, by_columns, centroids;
  Buffer<int> labels;
};

template <class T>
KmeansCase<T>& kmeans_case(Workload& w) {
  auto& slot = w.derived[sizeof(T) == 8 ? "kmeans double" : "kmeans"];
  if (!slot) {
    const auto points = static_cast<std::size_t>(std::llround(kPointsPerElement * double(w.n)));
    slot = std::make_shared<KmeansCase<T>>(w.ctx, std::max<std::size_t>(points, kClusters));
  }
  return *std::static_pointer_cast<KmeansCase<T>>(slot);
}

template <class T>
LaunchPlan run(Workload& w, const PlanOptions& o) {
  KmeansCase<T>& c = kmeans_case<T>(w);
  KmeansOptions options;
  options.init = KmeansInit::given;
  options.max_iterations = 1;
  options.plan = o;
  const bool columns = plan_kmeans(live_planner(w.ctx, o), c.n, kDims, kClusters, element_of<T>::value).shape.columns;
  options.layout = columns ? PointLayout::columns : PointLayout::rows;
  return kmeans(w.ctx, columns ? c.by_columns : c.by_rows, c.n, kDims, kClusters, c.centroids, c.labels, options).plan;
}

template <class T>
std::string check(Workload& w, const PlanOptions& o) {
  KmeansCase<T>& c = kmeans_case<T>(w);
  c.centroids.upload(c.start);
  c.labels.upload(std::vector<int>(c.n, 0x7eadbeef));
  run<T>(w, o);
  const std::vector<int> labels = c.labels.download();
  for (std::size_t p = 0; p < c.n; ++p) {
    const std::string wrong = reference::check_label(c.rows, c.start, kDims, kClusters, p, labels[p]);
    if (!wrong.empty()) return wrong;
  }
  const std::vector<T> want = reference::cluster_means(c.rows, labels, c.start, kDims, kClusters);
  const std::vector<T> got = c.centroids.download();
  // 1e-4 in float is about 1700 of its unit roundoffs; as many in double.
  const double margin = 1e-4 * reference::unit_roundoff<T>() / reference::kFloatU;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(std::fabs(double(got[i]) - double(want[i])) <= margin * (std::fabs(double(want[i])) + 1)))
      return "centroid " + std::to_string(i / kDims) + " coordinate " + std::to_string(i % kDims) + ": " +
             std::to_string(got[i]) + ", want " + std::to_string(want[i]);
  return "";
}

std::vector<Operation> kmeans_operations() {
  // In double too ("kmeans double"): twice the bytes, the tuned records
  // kept apart by element.
  return {Operation{"kmeans", 4.0 * kDims * kPointsPerElement, 3.0 * kDims * kClusters * kPointsPerElement,
                    &kmeans_tunables(), run<float>, check<float>},
          Operation{"kmeans double", 8.0 * kDims * kPointsPerElement, 3.0 * kDims * kClusters * kPointsPerElement,
                    &kmeans_tunables(), run<double>, check<double>}};
}

const FamilyRegistration kmeans_family({"kmeans", 42, kmeans_operations});

}  // namespace
}  // namespace portacl
