// SPDX-License-Identifier: Apache-2.0
// The sparse family's benchmark cases beyond its case list: the user's own
// matrices (portacl-bench --matrix), and what a baseline the bench supplies
// needs to run the same problem (ViennaCL is built into the bench, never
// into the library).
#pragma once

#include <string>
#include <vector>

#include "bench_cases.hpp"
#include "portacl/sparse.hpp"

namespace portacl {

/// The operation of a sparse case and the problem it runs on.
struct SparseCaseInput {
  enum class Operation { product, cg } operation = Operation::product;
  std::string name;                        ///< the matrix: its spec ("web:1000000") or file name
  const HostCsr<float>* matrix = nullptr;  ///< A
  const std::vector<float>* x = nullptr;   ///< x of y = A x; CG's right-hand side b
};

/// Throws portacl::Error when `c` is not one of the sparse family's cases.
SparseCaseInput sparse_case_input(const BenchCase& c);

/// The cases of a matrix named `name` (a Matrix Market file's name): y = A x
/// by every method and the rules' choice; x drawn from `seed`.
std::vector<BenchCase> sparse_matrix_cases(Context& ctx, const std::string& name, HostCsr<float> a,
                                           unsigned long long seed);

}  // namespace portacl
