// SPDX-License-Identifier: Apache-2.0
#include "sparse_cases.hpp"

#include <cstdint>
#include <limits>

#include "portacl/error.hpp"
#include "portacl/sparse.hpp"
#include "util/files.hpp"
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

namespace {

template <class V>
void append(std::string& bytes, const std::vector<V>& values) {
  bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(V));
}

void save_matrix(const std::string& folder, const portacl::BenchCase& c) {
  const portacl::SparseCaseInput in = portacl::sparse_case_input(c);
  const std::string& name = in.name;
  if (in.operation != portacl::SparseCaseInput::Operation::product) return;
  const portacl::HostCsr<float>& a = *in.matrix;
  if (a.nnz() > std::numeric_limits<std::int32_t>::max())
    throw portacl::Error("--save-matrices: " + name + " has more entries than 32-bit row pointers hold");
  const std::vector<std::int64_t> head{std::int64_t(a.rows), std::int64_t(a.cols), std::int64_t(a.nnz())};
  const std::vector<std::int32_t> ptr(a.row_ptr.begin(), a.row_ptr.end());
  std::string bytes;
  append(bytes, head);
  append(bytes, ptr);
  append(bytes, a.col);
  append(bytes, a.value);
  std::string file = name;
  for (char& ch : file)
    if (ch == ':' || ch == '/') ch = '_';
  const std::string path = folder + "/" + file + ".bin";
  if (const std::string failed = portacl::files::write_atomically(path, bytes); !failed.empty())
    throw portacl::Error("--save-matrices: " + failed);
}

}  // namespace

std::vector<CaseRow> run_sparse(portacl::Context& ctx, const std::vector<std::string>& specs,
                                const std::vector<MatrixFile>& files, unsigned long long seed, const CaseTiming& t,
                                const std::string& save_to) {
  const auto attach = [&ctx, &save_to, &t](portacl::BenchCase& c) {
    if (!save_to.empty()) save_matrix(save_to, c);
    if (t.baseline) attach_viennacl(ctx, c);
  };
  std::vector<CaseRow> rows = run_family(ctx, "sparse", specs, seed, t, attach);
  for (const MatrixFile& file : files)
    for (portacl::BenchCase& c : portacl::sparse_matrix_cases(ctx, file.name, file.csr, seed)) {
      attach(c);
      for (CaseRow& row : run_case(ctx, c, t)) rows.push_back(std::move(row));
    }
  return rows;
}

}  // namespace bench
