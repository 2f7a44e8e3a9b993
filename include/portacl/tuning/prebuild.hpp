// SPDX-License-Identifier: Apache-2.0
/// \file
/// Ahead-of-time compilation: runs the library's operations once on small
/// problems so that every program and kernel object they use is compiled
/// and written to the on-disk binary cache now. A later process's first call
/// then loads binaries instead of compiling (the idea of CLBlast's
/// FillCache). Plans depend on the problem size, so pass the sizes the
/// program will use; kernels whose build options do not change with size
/// are covered by any one of them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "portacl/runtime/context.hpp"

namespace portacl {

struct PrebuildOptions {
  std::vector<std::string> operations;  ///< names as in operations(); empty: all
  std::vector<std::size_t> sizes = {std::size_t{1} << 12, std::size_t{1} << 20};
};

struct PrebuildStep {
  std::string operation;
  std::size_t n = 0;
  double ms = 0;  ///< wall time of the first call: compile or cache load, plus the run
};

/// The names PrebuildOptions::operations may hold.
std::vector<std::string> prebuild_operation_names();

/// Throws portacl::Error for an unknown operation name (listing the names).
std::vector<PrebuildStep> prebuild(Context& ctx, const PrebuildOptions& options = {});

}  // namespace portacl
