// SPDX-License-Identifier: Apache-2.0
// The host reference of the radial distribution function's shell counts,
// shared by the tests and the bench: every pair's minimum-image distance
// in double.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "particles_neighbour_reference.hpp"

namespace portacl::reference {

// Each shell's pairs, and how many of them lie so near a shell's edge that
// float distances (a few parts in 10^7 of r_max) may put them on either
// side.
struct RdfCounts {
  std::vector<long> want, slack;
};

inline RdfCounts rdf_counts(const std::vector<float>& p, const double box[3], double r_max, std::size_t shells) {
  RdfCounts c;
  c.want.assign(shells, 0);
  c.slack.assign(shells, 0);
  const double width = r_max / shells, delta = 2e-6 * r_max;
  const std::size_t n = p.size() / 4;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const double r = std::sqrt(image_distance2(p, i, j, box));
      const std::size_t s = static_cast<std::size_t>(r / width);
      if (s < shells) ++c.want[s];
      const std::size_t low = static_cast<std::size_t>(std::max(0.0, r - delta) / width),
                        high = static_cast<std::size_t>((r + delta) / width);
      if (low != high) {
        if (low < shells) ++c.slack[low];
        if (high < shells) ++c.slack[high];
      }
    }
  return c;
}

// "" when every shell's count is the reference's within its slack; else the
// first shell that is not.
inline std::string compare_rdf_counts(const std::vector<std::uint32_t>& got, const RdfCounts& ref) {
  if (got.size() != ref.want.size())
    return std::to_string(got.size()) + " shells, want " + std::to_string(ref.want.size());
  for (std::size_t s = 0; s < got.size(); ++s)
    if (std::labs(long(got[s]) - ref.want[s]) > ref.slack[s])
      return "shell " + std::to_string(s) + ": " + std::to_string(got[s]) + ", want " + std::to_string(ref.want[s]);
  return "";
}

}  // namespace portacl::reference
