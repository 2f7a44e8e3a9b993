// SPDX-License-Identifier: Apache-2.0
// The host reference of k-nearest neighbours, shared by the tests, the
// tuner and portacl-bench: every score in double, the ranking by score and
// then by index, the vote with its tie rule, and a check of a device's
// ranked row against them that allows for the element's rounding only
// where two scores are that close.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace portacl::reference {

// The score of training point t for query q (rows of d elements): the
// cosine (0 where either vector is zero) or the squared distance.
template <class T>
double knn_score(const std::vector<T>& train, const std::vector<T>& queries, std::size_t d, std::size_t q,
                 std::size_t t, bool cosine) {
  double dot = 0, qq = 0, tt = 0, dist = 0;
  for (std::size_t j = 0; j < d; ++j) {
    const double a = queries[q * d + j], b = train[t * d + j];
    dot += a * b;
    qq += a * a;
    tt += b * b;
    dist += (a - b) * (a - b);
  }
  if (!cosine) return dist;
  return qq > 0 && tt > 0 ? dot / std::sqrt(qq * tt) : 0.0;
}

// How far a score in T may stand from the double one: d roundings of the
// products' magnitudes (the squared norms for a distance, whose value in T
// comes from |q|^2 + |t|^2 - 2 q.t): 1e-5 + 4e-7 d in float (168 + 6.7 d
// units of its rounding), the same units of double's rounding in double.
template <class T>
double knn_margin(const std::vector<T>& train, const std::vector<T>& queries, std::size_t d, std::size_t q,
                  std::size_t t, bool cosine) {
  const double units = std::is_same<T, float>::value ? 1.0
                                                     : double(std::numeric_limits<double>::epsilon()) /
                                                           double(std::numeric_limits<float>::epsilon());
  const double rounding = (1e-5 + 4e-7 * double(d)) * units;
  if (cosine) return rounding;
  double qq = 0, tt = 0;
  for (std::size_t j = 0; j < d; ++j) {
    qq += double(queries[q * d + j]) * double(queries[q * d + j]);
    tt += double(train[t * d + j]) * double(train[t * d + j]);
  }
  return rounding * (qq + tt);
}

// Query q's k best training indices: larger cosine or smaller distance
// first, the lower index first among equal scores.
template <class T>
std::vector<int> knn_top(const std::vector<T>& train, const std::vector<T>& queries, std::size_t train_count,
                         std::size_t d, std::size_t k, std::size_t q, bool cosine) {
  std::vector<double> score(train_count);
  for (std::size_t t = 0; t < train_count; ++t) score[t] = knn_score(train, queries, d, q, t, cosine);
  std::vector<int> order(train_count);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return cosine ? score[a] > score[b] : score[a] < score[b]; });
  order.resize(k);
  return order;
}

// The majority label of a ranked list; a tie goes to the label whose
// best-ranked neighbour comes first.
inline int knn_vote(const std::vector<int>& ranked, const std::vector<int>& labels) {
  int best = labels[ranked[0]];
  std::size_t best_votes = 0;
  for (int r : ranked) {
    const std::size_t votes =
        std::size_t(std::count_if(ranked.begin(), ranked.end(), [&](int s) { return labels[s] == labels[r]; }));
    if (votes > best_votes) {
      best_votes = votes;
      best = labels[r];
    }
  }
  return best;
}

// "" when a device's ranked row (k indices and scores) is query q's k best:
// each score its pair's within the margin, the row ranked (equal scores by
// index), and the same set as the host's except where the k-th best ties
// with the next within the margins.
template <class T>
std::string check_knn_row(const std::vector<T>& train, const std::vector<T>& queries, std::size_t train_count,
                          std::size_t d, std::size_t k, std::size_t q, bool cosine, const int* got,
                          const T* got_scores) {
  const std::string where = "query " + std::to_string(q) + ": ";
  const std::vector<int> want = knn_top(train, queries, train_count, d, k, q, cosine);
  const auto better = [&](double a, double b) { return cosine ? a > b : a < b; };
  const double kth = knn_score(train, queries, d, q, std::size_t(want.back()), cosine);
  std::vector<bool> seen(train_count, false);
  for (std::size_t r = 0; r < k; ++r) {
    const int t = got[r];
    if (t < 0 || std::size_t(t) >= train_count || seen[t])
      return where + "rank " + std::to_string(r) + " holds index " + std::to_string(t);
    seen[t] = true;
    const double exact = knn_score(train, queries, d, q, std::size_t(t), cosine);
    const double margin = knn_margin(train, queries, d, q, std::size_t(t), cosine);
    if (!(std::fabs(got_scores[r] - exact) <= margin))
      return where + "rank " + std::to_string(r) + " (index " + std::to_string(t) + ") scores " +
             std::to_string(got_scores[r]) + ", exactly " + std::to_string(exact);
    if (better(kth, exact) && std::fabs(kth - exact) > 2 * margin)
      return where + "index " + std::to_string(t) + " (" + std::to_string(exact) + ") is not among the best " +
             std::to_string(k) + " (the k-th: " + std::to_string(kth) + ")";
    if (r > 0 &&
        (better(got_scores[r], got_scores[r - 1]) || (got_scores[r] == got_scores[r - 1] && got[r] < got[r - 1])))
      return where + "ranks " + std::to_string(r - 1) + " and " + std::to_string(r) + " are out of order";
  }
  for (int t : want) {
    const double exact = knn_score(train, queries, d, q, std::size_t(t), cosine);
    if (!seen[t] && std::fabs(kth - exact) > 2 * knn_margin(train, queries, d, q, std::size_t(t), cosine))
      return where + "index " + std::to_string(t) + " (" + std::to_string(exact) + ") is missing";
  }
  return "";
}

}  // namespace portacl::reference
