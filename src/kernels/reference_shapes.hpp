// SPDX-License-Identifier: Apache-2.0
/// \file
/// Kernel shapes that stand for the families the rules distinguish: a
/// memory-bound stream, a reduction (tiled on GPUs, barrier-free on CPUs) and
/// a compute-bound 2D tiled kernel. portacl-query shows their plans and the
/// tests check every class's rules on them; kernels that exist declare their
/// own traits (e.g. axpy_traits) and are used here directly.
#pragma once

#include <string>
#include <vector>

#include "portacl/plan.hpp"
#include "kernels/stream_tunables.hpp"

namespace portacl {

struct ReferenceShape {
  std::string label;
  KernelTraits traits;
  ProblemSize size;
};

/// AXPY (float, and double where `with_fp64`), a float sum, a 2D tiled kernel.
std::vector<ReferenceShape> reference_shapes(bool with_fp64);

}  // namespace portacl
