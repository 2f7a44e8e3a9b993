// SPDX-License-Identifier: Apache-2.0
#include "sparse_cases.hpp"

#include "portacl/kernels/sparse/matrix_market.hpp"
#include "tuning/sparse_cases.hpp"
#include "viennacl_baseline.hpp"

namespace bench {

std::vector<MatrixFile> read_matrix_files(const std::vector<std::string>& paths) {
  std::vector<MatrixFile> files;
  for (const std::string& path : paths)
    files.push_back(
        MatrixFile{path.substr(path.find_last_of('/') + 1),
                   portacl::csr_from_entries<float>(portacl::general_entries(portacl::read_matrix_market(path)))});
  return files;
}

std::vector<CaseRow> run_sparse(portacl::Context& ctx, const std::vector<std::string>& specs,
                                const std::vector<MatrixFile>& files, unsigned long long seed, const CaseTiming& t) {
  const auto attach = [&ctx](portacl::BenchCase& c) { attach_viennacl(ctx, c); };
  std::vector<CaseRow> rows = run_family(ctx, "sparse", specs, seed, t, attach);
  for (const MatrixFile& file : files)
    for (portacl::BenchCase& c : portacl::sparse_matrix_cases(ctx, file.name, file.csr, seed)) {
      if (t.baseline) attach(c);
      for (CaseRow& row : run_case(ctx, c, t)) rows.push_back(std::move(row));
    }
  return rows;
}

}  // namespace bench
