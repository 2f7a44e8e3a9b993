// SPDX-License-Identifier: Apache-2.0
// portacl-bench's sparse section: the sparse family's cases (src/tuning/
// operations/sparse_cases.cpp) on generated matrices (--sparse) and on the
// user's Matrix Market files (--matrix), with ViennaCL beside them where it
// is built in.
#pragma once

#include <string>
#include <vector>

#include "case_runner.hpp"
#include "portacl/sparse.hpp"

namespace bench {

// A Matrix Market file named on the command line, read and checked before
// anything is measured.
struct MatrixFile {
  std::string name;  // the file's name, without its folder
  portacl::HostCsr<float> csr;
};
// Reads every file; a missing or malformed one throws portacl::Error naming
// the file and line.
std::vector<MatrixFile> read_matrix_files(const std::vector<std::string>& paths);

// Runs the cases; where `save_to` is not empty, first writes each matrix
// there as SPEC.bin (':' as '_'), the binary CSR that tools/gpu/cusparse_direct.cu
// and tools/gpu/cusparse.py read, so other libraries run on the very same matrix:
// int64 rows, cols, entries; int32 row pointers; int32 columns; float values.
std::vector<CaseRow> run_sparse(portacl::Context& ctx, const std::vector<std::string>& specs,
                                const std::vector<MatrixFile>& files, unsigned long long seed, const CaseTiming& t,
                                const std::string& save_to = "");

}  // namespace bench
