// SPDX-License-Identifier: Apache-2.0
// The positions a periodic-box call accepts (neighbour lists, the RDF):
// finite, each coordinate within two box lengths of the box, [-2L, 3L).
// Past that the minimum image of a float difference of two coordinates
// loses the digits that place a particle (at x = 3e7 in a box of 10 a
// particle lost half its real neighbours and gained false ones). Checked
// on the device, one small read.
#pragma once

#include "portacl/particles.hpp"

namespace portacl {

/// Throws "<op>: particle i at (x, y, z) ..." naming the first particle
/// that is not finite or lies outside [-2L, 3L) in some dimension.
void refuse_positions_outside(Context& ctx, const Buffer<float>& positions, const PeriodicBox& box,
                              const PlanOptions& options, const char* op);

}  // namespace portacl
