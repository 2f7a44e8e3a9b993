// SPDX-License-Identifier: Apache-2.0
// How the sparse kernels are named and built: a .cl file compiled with the
// macros of one storage choice (row-pointer width, ELL layout, ...), each
// combination its own program in the caches.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "portacl/context.hpp"

namespace portacl {
namespace sparse_kernels {

using Defines = std::vector<std::pair<std::string, std::string>>;

inline KernelRef kernel(const std::string& cl_file, const std::string& entry, const Defines& defines) {
  std::string name = cl_file.substr(0, cl_file.rfind('.')), text;
  for (const auto& [macro, value] : defines) {
    name += "_" + macro + "-" + value;
    text += "#define " + macro + " " + value + "\n";
  }
  return {name + ".cl", entry, text + "#include \"" + cl_file + "\"\n"};
}

// The OpenCL type of the matrix's row pointers.
inline std::string row_type(bool wide) { return wide ? "ulong" : "uint"; }

}  // namespace sparse_kernels
}  // namespace portacl
