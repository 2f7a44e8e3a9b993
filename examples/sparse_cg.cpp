// SPDX-License-Identifier: Apache-2.0
// A Matrix Market file through conjugate gradients: read, solve A x = 1,
// check the residual on the host. With no argument it writes (and reads) a
// 2D Poisson matrix first: sparse_cg [matrix.mtx]
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <portacl/portacl.hpp>

int main(int argc, char** argv) try {
  std::string path = argc > 1 ? argv[1] : "poisson_30x30.mtx";
  if (argc == 1) {  // 5-point Laplacian on a 30 x 30 grid, lower triangle (symmetric)
    portacl::MatrixMarket m;
    m.symmetry = portacl::MatrixMarket::Symmetry::symmetric;
    m.rows = m.cols = 900;
    for (std::uint32_t i = 0; i < 900; ++i) {
      auto add = [&](std::uint32_t col, double v) { m.row.push_back(i), m.col.push_back(col), m.value.push_back(v); };
      if (i % 30) add(i - 1, -1);
      if (i >= 30) add(i - 30, -1);
      add(i, 4);
    }
    portacl::write_matrix_market(path, m);
  }
  const portacl::HostCsr<double> a =
      portacl::csr_from_entries<double>(portacl::general_entries(portacl::read_matrix_market(path)));
  portacl::Context ctx;
  const portacl::SparseMatrix<double> matrix(ctx, a);
  const std::vector<double> ones(a.rows, 1.0);
  portacl::Buffer<double> b(ctx, ones), x(ctx, std::vector<double>(a.rows, 0.0));
  portacl::SolverOptions options;
  options.tolerance = 1e-10;
  const portacl::SolverResult r = portacl::cg(ctx, matrix, b, x, options);
  // The true residual ||1 - A x|| / ||1||, on the host.
  const std::vector<double> hx = x.download();
  double rr = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    double ax = 0;
    for (std::uint64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) ax += a.value[k] * hx[a.col[k]];
    rr += (1 - ax) * (1 - ax);
  }
  const double residual = std::sqrt(rr / double(a.rows));
  std::printf("%s: %zu x %zu, %zu entries, %s after %zu iterations, true residual %.2e\n", path.c_str(), a.rows, a.cols,
              a.nnz(), r.stop_reason.c_str(), r.iterations, residual);
  return r.converged && residual < 1e-8 ? 0 : 1;
} catch (const portacl::Error& e) {
  std::fprintf(stderr, "sparse_cg: %s\n", e.what());
  return 2;
}
