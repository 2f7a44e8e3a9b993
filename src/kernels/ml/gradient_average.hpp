// SPDX-License-Identifier: Apache-2.0
// The weighted average of replicas' gradients, packed segment by segment
// (replicas on devices of different kinds may align their segments
// differently), for the device groups and the MPI layer alike.
#pragma once

#include <cstddef>
#include <vector>

#include "portacl/ml.hpp"

namespace portacl {

std::vector<ParameterSegment> parameter_segments(const SmallCnn& net);
/// Adds `share` times a replica's gradients (read back, in its own layout)
/// to `packed` (every segment's floats one after another; sized here).
void add_packed_gradients(const std::vector<ParameterSegment>& segments, const float* gradients, double share,
                          std::vector<double>& packed);
/// `packed` back into a replica's layout of `size` floats (the gaps 0).
void unpack_gradients(const std::vector<ParameterSegment>& segments, const std::vector<double>& packed,
                      float* gradients, std::size_t size);

}  // namespace portacl
