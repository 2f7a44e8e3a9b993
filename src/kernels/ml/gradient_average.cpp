// SPDX-License-Identifier: Apache-2.0
// Replicas' gradients packed, weighted and unpacked (see the header).
#include "kernels/ml/gradient_average.hpp"

#include <algorithm>

namespace portacl {

std::vector<ParameterSegment> parameter_segments(const SmallCnn& net) {
  return {net.conv_filters(), net.conv_bias(), net.dense_weights(), net.dense_bias()};
}

void add_packed_gradients(const std::vector<ParameterSegment>& segments, const float* gradients, double share,
                          std::vector<double>& packed) {
  std::size_t total = 0;
  for (const ParameterSegment& s : segments) total += s.count;
  packed.resize(total, 0.0);
  std::size_t at = 0;
  for (const ParameterSegment& s : segments)
    for (std::size_t i = 0; i < s.count; ++i) packed[at++] += share * double(gradients[s.offset + i]);
}

void unpack_gradients(const std::vector<ParameterSegment>& segments, const std::vector<double>& packed,
                      float* gradients, std::size_t size) {
  std::fill(gradients, gradients + size, 0.0f);
  std::size_t at = 0;
  for (const ParameterSegment& s : segments)
    for (std::size_t i = 0; i < s.count; ++i) gradients[s.offset + i] = float(packed[at++]);
}

}  // namespace portacl
