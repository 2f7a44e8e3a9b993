// SPDX-License-Identifier: Apache-2.0
// C = alpha A B + beta C with BLAS conventions (row-major here), checked
// entry by entry against a host product.
#include <cmath>
#include <cstdio>
#include <vector>

#include <portacl/portacl.hpp>

int main() {
  using portacl::Layout;
  using portacl::Transpose;
  portacl::Context ctx;
  const std::size_t m = 67, n = 45, k = 129;  // no tile divides these
  std::vector<float> a(m * k), b(k * n), c(m * n, 0.0f);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(i % 7) - 3.0f;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = float(i % 5) * 0.5f;

  portacl::Buffer<float> da(ctx, a), db(ctx, b), dc(ctx, c);
  using M = portacl::MatrixRef<float>;  // buffer, offset, leading dimension
  portacl::gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, m, n, k, 1.0f, M{da, 0, k}, M{db, 0, n}, 0.0f, dc,
                0, n);
  const std::vector<float> got = dc.download();

  double worst = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double want = 0;
      for (std::size_t p = 0; p < k; ++p) want += double(a[i * k + p]) * double(b[p * n + j]);
      worst = std::fmax(worst, std::fabs(got[i * n + j] - want));
    }
  std::printf("%zux%zux%zu GEMM: largest error %g\n", m, n, k, worst);
  return worst < 1e-3 ? 0 : 1;
}
