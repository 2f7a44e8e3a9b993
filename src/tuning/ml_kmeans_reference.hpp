// SPDX-License-Identifier: Apache-2.0
// The host reference of k-means, shared by the tests, the tuner and
// portacl-bench: Lloyd's steps in double (the nearest centroid, the lowest
// index on a tie; the means, an empty cluster keeping its centroid), and
// the clustered points they run on.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace portacl::reference {

// n points of d coordinates, row per point: k blob centres uniform in
// [-scale, scale)^d, each point a centre (chosen in turn) plus a normal
// offset of standard deviation `spread` a coordinate, rounded to T.
template <class T = float>
std::vector<T> gaussian_blobs(std::size_t n, std::size_t d, std::size_t k, double scale, double spread,
                              std::uint64_t seed) {
  std::mt19937_64 draw(seed);
  std::uniform_real_distribution<double> centre(-scale, scale);
  std::normal_distribution<double> offset(0.0, spread);
  std::vector<double> centres(k * d);
  for (double& c : centres) c = centre(draw);
  std::vector<T> points(n * d);
  for (std::size_t p = 0; p < n; ++p)
    for (std::size_t j = 0; j < d; ++j) points[p * d + j] = T(centres[(p % k) * d + j] + offset(draw));
  return points;
}

// The squared distance in double of point p (row per point) to centroid c.
template <class T>
double squared_distance(const std::vector<T>& points, const std::vector<T>& centroids, std::size_t d, std::size_t p,
                        std::size_t c) {
  double s = 0;
  for (std::size_t j = 0; j < d; ++j) {
    const double t = double(points[p * d + j]) - double(centroids[c * d + j]);
    s += t * t;
  }
  return s;
}

// The nearest centroid of point p, the lowest index on a tie.
template <class T>
int nearest_centroid(const std::vector<T>& points, const std::vector<T>& centroids, std::size_t d, std::size_t k,
                     std::size_t p) {
  int best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < k; ++c) {
    const double s = squared_distance(points, centroids, d, p, c);
    if (s < best_distance) {
      best_distance = s;
      best = int(c);
    }
  }
  return best;
}

// The centroids Lloyd's update step moves `before` to: each cluster's mean
// in double (rounded to T), an empty cluster's centroid unchanged.
template <class T>
std::vector<T> cluster_means(const std::vector<T>& points, const std::vector<int>& labels, const std::vector<T>& before,
                             std::size_t d, std::size_t k) {
  std::vector<double> sums(k * d, 0.0);
  std::vector<std::size_t> counts(k, 0);
  for (std::size_t p = 0; p < labels.size(); ++p) {
    ++counts[labels[p]];
    for (std::size_t j = 0; j < d; ++j) sums[labels[p] * d + j] += points[p * d + j];
  }
  std::vector<T> after = before;
  for (std::size_t c = 0; c < k; ++c)
    if (counts[c])
      for (std::size_t j = 0; j < d; ++j) after[c * d + j] = T(sums[c * d + j] / double(counts[c]));
  return after;
}

// Lloyd's iterations from `centroids` (updated in place) until no label
// changes or `max_iterations`: the labels, and the inertia of each
// assignment.
struct LloydRun {
  std::vector<int> labels;
  std::vector<double> inertia;
};
template <class T>
LloydRun lloyd(const std::vector<T>& points, std::vector<T>& centroids, std::size_t n, std::size_t d, std::size_t k,
               std::size_t max_iterations) {
  LloydRun r;
  r.labels.assign(n, -1);
  for (std::size_t it = 0; it < max_iterations; ++it) {
    std::size_t moved = 0;
    double inertia = 0;
    for (std::size_t p = 0; p < n; ++p) {
      const int c = nearest_centroid(points, centroids, d, k, p);
      moved += c != r.labels[p];
      r.labels[p] = c;
      inertia += squared_distance(points, centroids, d, p, std::size_t(c));
    }
    r.inertia.push_back(inertia);
    centroids = cluster_means(points, r.labels, centroids, d, k);
    if (moved == 0) break;
  }
  return r;
}

// "" when the device's label of point p is the host's nearest centroid, or
// differs from it only by a near-tie in T's rounding: distances within
// (d + 2) u_T (1e-5 in float) of the squared magnitudes involved.
template <class T>
std::string check_label(const std::vector<T>& points, const std::vector<T>& centroids, std::size_t d, std::size_t k,
                        std::size_t p, int got) {
  if (got < 0 || std::size_t(got) >= k) return "point " + std::to_string(p) + " has label " + std::to_string(got);
  const int want = nearest_centroid(points, centroids, d, k, p);
  if (got == want) return "";
  double scale = 0;
  for (std::size_t j = 0; j < d; ++j) {
    const double t = std::fabs(points[p * d + j]) + std::fabs(centroids[std::size_t(want) * d + j]);
    scale += t * t;
  }
  const double gap = squared_distance(points, centroids, d, p, std::size_t(got)) -
                     squared_distance(points, centroids, d, p, std::size_t(want));
  const double near = std::is_same<T, float>::value ? 1e-5 : double(d + 2) * std::numeric_limits<double>::epsilon();
  if (gap <= near * scale) return "";
  return "point " + std::to_string(p) + ": label " + std::to_string(got) + ", nearest " + std::to_string(want) +
         " (closer by " + std::to_string(gap) + ")";
}

}  // namespace portacl::reference
