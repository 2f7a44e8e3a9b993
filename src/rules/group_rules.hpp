// SPDX-License-Identifier: Apache-2.0
// How work is shared between the members of a device group
// (include/portacl/runtime/device_group.hpp carries it out).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace portacl {

/// Contiguous shares of n items, member i's from first[i] to first[i + 1].
struct GroupSplit {
  std::vector<std::size_t> first;  ///< members + 1 offsets, first[0] = 0, last = n
  std::string why;                 ///< the decision in words, for plans and portacl-query
  std::size_t begin(std::size_t member) const { return first.at(member); }
  std::size_t count(std::size_t member) const { return first.at(member + 1) - first.at(member); }
  std::size_t members() const { return first.empty() ? 0 : first.size() - 1; }
};

/// n items in proportion to each member's weight (its measured speed, or 1
/// each): member i gets floor(n w_i / W) and the items left over go one
/// each to the members with the largest remainders, ties to the lower
/// index; a member of weight 0 gets none (rule group.split). Throws
/// portacl::Error for no members, a weight that is negative or not finite,
/// or weights that are all 0.
GroupSplit split_by_weight(std::size_t n, const std::vector<double>& weights);

}  // namespace portacl

namespace portacl {

/// Ghost rows a stencil slab keeps on each side that has a neighbour, and
/// so the steps between two halo exchanges (rule group.halo-width): the
/// thinnest slab's rows / 64, from 1 to 8, and never more than that slab
/// holds (a neighbour's ghosts come from one member). The slabs recompute
/// 8 ghost-and-band rows a step for each exchange they save: at most 1/8
/// of the thinnest slab's rows.
struct HaloWidth {
  std::size_t rows = 1;
  std::string why;
};
HaloWidth stencil_halo_width(std::size_t thinnest_slab_rows);

}  // namespace portacl
