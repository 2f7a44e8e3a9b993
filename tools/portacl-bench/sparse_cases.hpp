// SPDX-License-Identifier: Apache-2.0
// portacl-bench's sparse section: y = A x (float) by every SpMV method and
// by the automatic choice, on generated matrices (--sparse) and the user's
// own (--matrix), with CG's time per iteration, beside ViennaCL's SpMV and
// CG where it is built in.
#pragma once

#include <string>
#include <vector>

#include "portacl/kernels/sparse/host_csr.hpp"
#include "../common/ceilings.hpp"
#include "../common/measure.hpp"

namespace bench {

struct SparseRow {
  std::string matrix;  // "poisson2d:2048", a file name
  std::size_t rows = 0, nnz = 0;
  std::string method;  // "csr-vector", ..., or "auto (dia)"
  bool automatic = false;
  Stats ours, ours_wall;  // device clock; wall clock around the call and clFinish
  double gbs = 0;         // effective: values, column indices, row pointers, x and y, each once
  double gflops = 0;      // 2 nnz per product
  double fraction_of_copy = 0;
  std::string check;  // "ok", what was wrong, or "skipped: why"
  std::string plan;   // the automatic choice's reasons
};

struct SolverRow {
  std::string matrix, library;  // "portacl CG", "ViennaCL CG"
  std::size_t rows = 0, iterations = 0;
  Stats wall;                   // the whole fixed-iteration solve
  double us_per_iteration = 0;  // wall median / iterations
  std::string check;
};

struct SparseBaselineRow {
  std::string matrix;
  Stats wall;
  // The second method: 10 calls back to back and one wait, per call (no
  // per-call wait in it), beside portacl's automatic choice timed alike.
  double batched_ms = 0, ours_batched_ms = 0;
  double gbs = 0, speedup = 0;  // speedup: ViennaCL wall / portacl automatic wall
  std::string check;
};

struct SparseReport {
  std::vector<SparseRow> rows;
  std::vector<SparseBaselineRow> viennacl;
  std::vector<SolverRow> solvers;
  std::string viennacl_missing;  // "" when ViennaCL ran
};

// Matrices: "poisson2d:N", "poisson3d27:N", "powerlaw:ROWS:MEAN" and
// Matrix Market files. Throws std::invalid_argument for a bad spec.
void check_sparse_specs(const std::vector<std::string>& specs);

// A Matrix Market file named on the command line, read and checked before
// anything is measured.
struct MatrixFile {
  std::string name;  // the file's name, without its folder
  portacl::HostCsr<float> csr;
};
// Reads every file; a missing or malformed one throws portacl::Error naming
// the file and line.
std::vector<MatrixFile> read_matrix_files(const std::vector<std::string>& paths);

SparseReport run_sparse(portacl::Context& ctx, const std::vector<std::string>& specs,
                        const std::vector<MatrixFile>& files, int warmup, int reps, bool baseline,
                        unsigned long long seed, const Ceilings& ceilings);

}  // namespace bench
