// SPDX-License-Identifier: Apache-2.0
// ViennaCL's CSR SpMV and CG on portacl's own OpenCL context and queue,
// called as ViennaCL's users call them: the baseline of the sparse family's
// cases (src/tuning/sparse_cases.hpp), supplied here because ViennaCL is
// built into the bench, never into the library. Built only where ViennaCL's
// headers are installed (libviennacl-dev); elsewhere viennacl_missing()
// says so and no baseline is attached.
#pragma once

#include <string>

#include "tuning/bench_cases.hpp"

namespace bench {

/// "" when ViennaCL was built in, else why not.
std::string viennacl_missing();

/// Gives a sparse case ViennaCL's same computation as its baseline: y = A x
/// by `viennacl::linalg::prod` (also timed as 10 calls back to back), or CG
/// for the case's fixed iterations. The matrix and vectors are set up here,
/// outside every timed call. Does nothing where ViennaCL is missing.
void attach_viennacl(portacl::Context& ctx, portacl::BenchCase& c);

}  // namespace bench
