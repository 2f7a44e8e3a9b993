// SPDX-License-Identifier: Apache-2.0
#include "rules/group_rules.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "portacl/error.hpp"

namespace portacl {

GroupSplit split_by_weight(std::size_t n, const std::vector<double>& weights) {
  if (weights.empty()) throw Error("splitting work over a device group: the group has no members");
  double total = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i]) || weights[i] < 0)
      throw Error("splitting work over a device group: member " + std::to_string(i) + "'s weight is " +
                  std::to_string(weights[i]) + "; weights must be finite and >= 0");
    total += weights[i];
  }
  if (!(total > 0)) throw Error("splitting work over a device group: every member's weight is 0");
  // Whole shares first, then the remainder by largest fractional part.
  std::vector<std::size_t> share(weights.size());
  std::vector<double> fraction(weights.size());
  std::size_t given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double exact = double(n) * (weights[i] / total);
    share[i] = std::min<std::size_t>(static_cast<std::size_t>(std::floor(exact)), n - given);
    fraction[i] = weights[i] > 0 ? exact - double(share[i]) : -1.0;  // weight 0: never a leftover item
    given += share[i];
  }
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return fraction[a] > fraction[b]; });
  for (std::size_t k = 0; given < n; k = (k + 1) % order.size()) {
    if (fraction[order[k]] < 0) continue;  // a member of weight 0
    ++share[order[k]];
    ++given;
  }
  GroupSplit split;
  split.first.assign(1, 0);
  for (std::size_t s : share) split.first.push_back(split.first.back() + s);
  split.why = std::to_string(n) + " items by weight (";
  for (std::size_t i = 0; i < weights.size(); ++i) {
    char w[32];
    std::snprintf(w, sizeof w, "%.3g", weights[i]);
    split.why += std::string(i ? ", " : "") + w;
  }
  split.why += "): ";
  for (std::size_t i = 0; i < share.size(); ++i) split.why += std::string(i ? ", " : "") + std::to_string(share[i]);
  return split;
}

}  // namespace portacl

namespace portacl {

HaloWidth stencil_halo_width(std::size_t thinnest) {
  HaloWidth h;
  h.rows = std::max<std::size_t>(1, std::min<std::size_t>({8, thinnest / 64, thinnest}));
  h.why = std::to_string(h.rows) + " ghost rows a side, an exchange every " + std::to_string(h.rows) +
          " steps: the thinnest slab has " + std::to_string(thinnest) +
          " rows; 1 per 64 rows, 1 to 8, keeps the rows recomputed under 1/8 of a slab";
  return h;
}

}  // namespace portacl
