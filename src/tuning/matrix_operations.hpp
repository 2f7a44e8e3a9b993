// The matrix-vector entries of the shared operations list (GEMV both ways,
// packed SYMV, TRSV), each checked against a double-precision host
// reference on the workload's own data.
#pragma once

#include <vector>

#include "operations.hpp"

namespace portacl {

std::vector<Operation> matrix_vector_operations();

}  // namespace portacl
