// SPDX-License-Identifier: Apache-2.0
// The host reference of neighbour lists, shared by the tests and the
// bench: every pair tested in double by the minimum image.
#pragma once

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace portacl::reference {

// The squared minimum-image distance of particles i and j (4 floats each).
inline double image_distance2(const std::vector<float>& p, std::size_t i, std::size_t j, const double box[3]) {
  double r2 = 0;
  for (int c = 0; c < 3; ++c) {
    double d = double(p[4 * j + c]) - double(p[4 * i + c]);
    d -= box[c] * std::nearbyint(d / box[c]);
    r2 += d * d;
  }
  return r2;
}

// Every (i, j), j != i, within `reach`; with `half` only j > i.
inline std::set<std::pair<std::uint32_t, std::uint32_t>> neighbour_pairs(const std::vector<float>& p,
                                                                         const double box[3], double reach, bool half) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> out;
  const std::size_t n = p.size() / 4;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = half ? i + 1 : 0; j < n; ++j)
      if (j != i && image_distance2(p, i, j, box) < reach * reach)
        out.emplace(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j));
  return out;
}

// "" when `got` holds each pair of `want` once and nothing else, pairs
// within a relative 1e-5 of the reach (float and double may round them
// either way) excepted; else the first difference.
inline std::string compare_pairs(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& got,
                                 const std::set<std::pair<std::uint32_t, std::uint32_t>>& want,
                                 const std::vector<float>& p, const double box[3], double reach) {
  const auto borderline = [&](const std::pair<std::uint32_t, std::uint32_t>& q) {
    return std::fabs(std::sqrt(image_distance2(p, q.first, q.second, box)) - reach) <= 1e-5 * reach;
  };
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
  for (const auto& q : got) {
    if (!seen.insert(q).second) return "pair (" + std::to_string(q.first) + ", " + std::to_string(q.second) + ") twice";
    if (!want.count(q) && !borderline(q))
      return "pair (" + std::to_string(q.first) + ", " + std::to_string(q.second) + ") is not within reach";
  }
  for (const auto& q : want)
    if (!seen.count(q) && !borderline(q))
      return "pair (" + std::to_string(q.first) + ", " + std::to_string(q.second) + ") is missing";
  return "";
}

// "" when the list's pairs of 64 particles spread over the range are those
// of the brute-force search (O(64 n), for lists too large to search whole);
// else the first difference.
inline std::string compare_sampled_pairs(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& got,
                                         const std::vector<float>& p, const double box[3], double reach, bool half) {
  const std::size_t n = p.size() / 4;
  std::set<std::uint32_t> sampled;
  for (std::size_t s = 0; s < 64 && s < n; ++s)
    sampled.insert(static_cast<std::uint32_t>(n > 1 ? s * (n - 1) / 63 : 0));
  std::set<std::pair<std::uint32_t, std::uint32_t>> want;
  for (std::uint32_t i : sampled)
    for (std::size_t j = half ? i + 1 : 0; j < n; ++j)
      if (j != i && image_distance2(p, i, j, box) < reach * reach) want.emplace(i, static_cast<std::uint32_t>(j));
  std::vector<std::pair<std::uint32_t, std::uint32_t>> of_sampled;
  for (const auto& q : got)
    if (sampled.count(q.first)) of_sampled.push_back(q);
  return compare_pairs(of_sampled, want, p, box, reach);
}

}  // namespace portacl::reference
