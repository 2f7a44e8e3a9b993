// SPDX-License-Identifier: Apache-2.0
// The main job's tour: one call from each family of the library on one
// device, each checked against the double-precision host reference, timed
// as a user sees it (wall clock around the call and clFinish, median of a
// few runs) and set against the device's ceilings, measured first.
#pragma once

#include <iosfwd>

#include "portacl/context.hpp"

namespace tour {

// Prints the tour; true when every result was right.
bool run(portacl::Context& ctx, std::ostream& out);

}  // namespace tour
