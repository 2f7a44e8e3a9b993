// SPDX-License-Identifier: Apache-2.0
/// \file
/// What a stencil or a convolution reads beyond the edge of its input.
#pragma once

#include <string>

namespace portacl {

/// - `valid`: nothing beyond the edge is read. The input carries its own
///   halo (a pre-padded grid, or a textbook "valid" convolution), so the
///   output is smaller than the input by the halo on each side.
/// - `zero`: cells beyond the edge read as 0; the output has the input's size.
/// - `clamp`: cells beyond the edge read as the nearest edge cell; the
///   output has the input's size.
enum class Boundary { valid, zero, clamp };

std::string to_string(Boundary b);

}  // namespace portacl
