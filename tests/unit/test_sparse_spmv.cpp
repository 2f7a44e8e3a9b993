// SPDX-License-Identifier: Apache-2.0
// SpMV on a device sparse matrix (CSR): against the double-precision host
// reference on rows of every awkward length, under every device class's
// plan, with BLAS's rules for alpha = 0 and beta = 0; the matrix round
// trips exactly; bad operands are refused before any launch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "portacl/kernels/sparse_matrix.hpp"
#include "portacl/kernels/sparsity.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

// Rows of 0, 1, 7, 8, 31, 32, 128, 129 entries in turn (every bin edge), one
// of 5000 when `long_row` (each at most `cols`), on distinct random columns,
// with random values.
template <class T>
HostCsr<T> awkward_matrix(std::size_t rows, std::size_t cols, bool long_row) {
  static const std::size_t lengths[] = {0, 1, 7, 8, 31, 32, 128, 129};
  CooEntries e;
  e.rows = rows;
  e.cols = cols;
  std::vector<std::uint32_t> columns(cols);
  for (std::size_t c = 0; c < cols; ++c) columns[c] = static_cast<std::uint32_t>(c);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t len = std::min(cols, long_row && r == rows / 2 ? std::size_t{5000} : lengths[r % 8]);
    std::shuffle(columns.begin(), columns.end(), test::rng());
    const std::vector<T> v = test::random_vector<T>(len);
    for (std::size_t k = 0; k < len; ++k) {
      e.row.push_back(static_cast<std::uint32_t>(r));
      e.col.push_back(columns[k]);
      e.value.push_back(v[k]);
    }
  }
  return csr_from_entries<T>(e);
}

template <class T>
void check_spmv(Context& ctx, const HostCsr<T>& csr, T alpha, T beta, const PlanOptions& opt, bool nan_in_x = false) {
  INFO(csr.rows << " x " << csr.cols << ", " << csr.nnz() << " entries, alpha " << alpha << " beta " << beta);
  const SparseMatrix<T> a(ctx, csr);
  std::vector<T> x = test::random_vector<T>(csr.cols), y0 = test::random_vector<T>(csr.rows);
  if (nan_in_x)
    for (auto& v : x) v = std::numeric_limits<T>::quiet_NaN();
  if (beta == T(0))
    for (auto& v : y0) v = std::numeric_limits<T>::quiet_NaN();  // never read
  Buffer<T> dx(ctx, x), dy(ctx, y0);
  spmv(ctx, alpha, a, dx, beta, dy, opt);
  std::vector<reference::Exact> product(csr.rows);
  std::size_t longest = 0;
  for (std::size_t r = 0; r < csr.rows; ++r) {
    const std::size_t first = csr.row_ptr[r], len = csr.row_ptr[r + 1] - first;
    longest = std::max(longest, len);
    product[r] = alpha == T(0) ? reference::Exact{} : reference::sum_of(len, [&](std::size_t k) {
      return double(csr.value[first + k]) * double(x[csr.col[first + k]]);
    });
  }
  CHECK(reference::compare_update(
            dy.download(), y0, [](std::size_t i) { return i; }, alpha, beta, longest, product) == "");
}

}  // namespace

TEMPLATE_TEST_CASE("CSR SpMV matches the host on rows of every awkward length", "[sparse]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  for (auto [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {9, 13}, {257, 6007}, {1031, 97}}) {
    const HostCsr<T> csr = awkward_matrix<T>(rows, cols, rows > 100);
    check_spmv<T>(ctx, csr, T(1), T(0), {});
    check_spmv<T>(ctx, csr, T(-0.75), T(1.5), {});
    check_spmv<T>(ctx, csr, T(0), T(2), {}, true);  // alpha = 0 reads neither A nor x (NaN there)
    check_spmv<T>(ctx, csr, T(0), T(0), {}, true);
  }
  // No rows, no entries, and rows that are all empty.
  check_spmv<T>(ctx, csr_from_entries<T>(CooEntries{0, 0, {}, {}, {}}), T(1), T(0), {});
  check_spmv<T>(ctx, csr_from_entries<T>(CooEntries{17, 5, {}, {}, {}}), T(1), T(0.5), {});
}

TEMPLATE_TEST_CASE("CSR SpMV runs under every device class's plan", "[sparse]", float, double) {
  Context& ctx = test::cpu_context();
  const HostCsr<TestType> csr = awkward_matrix<TestType>(523, 331, true);
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    check_spmv<TestType>(ctx, csr, TestType(1.25), TestType(-0.5), opt);
  }
}

TEST_CASE("a sparse matrix round trips, and bad operands are refused before any launch", "[sparse]") {
  Context& ctx = test::cpu_context();
  const HostCsr<double> csr = awkward_matrix<double>(61, 29, false);
  const SparseMatrix<double> a(ctx, csr);
  CHECK(a.rows() == 61);
  CHECK(a.cols() == 29);
  CHECK(a.nnz() == csr.nnz());
  CHECK_FALSE(a.wide_row_pointers());
  const HostCsr<double> back = a.download();
  CHECK(back.row_ptr == csr.row_ptr);
  CHECK(back.col == csr.col);
  CHECK(back.value == csr.value);
  const SparseMatrix<float> from_file = SparseMatrix<float>::from_file(
      ctx, std::string(PORTACL_SOURCE_DIR) + "/tests/fixtures/matrices/real_general.mtx");
  CHECK(from_file.nnz() == 5);  // (4,4) twice: added
  Buffer<double> x(ctx, 29), y(ctx, 61), short_x(ctx, 28), short_y(ctx, 60);
  CHECK_THROWS_WITH(spmv(ctx, 1.0, a, short_x, 0.0, y),
                    Catch::Contains("spmv: x has 28 elements but A has 29 columns"));
  CHECK_THROWS_WITH(spmv(ctx, 1.0, a, x, 0.0, short_y), Catch::Contains("spmv: y has 60 elements but A has 61 rows"));
  ContextOptions opt;
  opt.cache_directory = "";
  Context other(ctx.device(), opt);
  Buffer<double> foreign(other, 29);
  CHECK_THROWS_WITH(spmv(ctx, 1.0, a, foreign, 0.0, y), Catch::Contains("buffer x belongs to another context"));
  CHECK_THROWS_WITH(spmv(other, 1.0, a, foreign, 0.0, y), Catch::Contains("the sparse matrix A belongs to another"));
  HostCsr<double> bad = csr;
  bad.col[0] = 29;
  CHECK_THROWS_WITH(SparseMatrix<double>(ctx, bad),
                    Catch::Contains("SparseMatrix from CSR: row") && Catch::Contains("outside the 29 columns"));
}

TEST_CASE("the sparsity profile counts every row once, in its length bin", "[sparse]") {
  // Rows of 0, 1, 7, 8, 31, 32, 128, 129 entries in turn, and one of 5000.
  const HostCsr<float> csr = awkward_matrix<float>(257, 6007, true);
  const SparsityProfile p = profile_rows(csr.row_ptr);
  CHECK(p.rows == 257);
  CHECK(p.nnz == csr.nnz());
  CHECK(p.shortest_row == 0);
  CHECK(p.longest_row == 5000);
  std::array<std::size_t, kRowLengthBins> want{};
  double sum = 0, sum_sq = 0;
  for (std::size_t r = 0; r < p.rows; ++r) {
    const std::uint64_t len = csr.row_ptr[r + 1] - csr.row_ptr[r];
    ++want[len == 0 ? 0 : len <= 7 ? 1 : len <= 31 ? 2 : len <= 128 ? 3 : 4];
    sum += double(len);
    sum_sq += double(len) * double(len);
  }
  CHECK(p.rows_in_bin == want);
  CHECK(p.mean_row == Approx(sum / 257));
  CHECK(p.row_stddev == Approx(std::sqrt(sum_sq / 257 - (sum / 257) * (sum / 257))));
  CHECK(row_length_bin(7) == 1);
  CHECK(row_length_bin(8) == 2);
  CHECK(row_length_bin(128) == 3);
  CHECK(row_length_bin(129) == 4);
  CHECK(profile_rows({0}).rows == 0);
  CHECK_THROWS_WITH(profile_rows({0, 3, 2}), Catch::Contains("row pointers decrease at row 1"));
}

TEST_CASE("equal-entry row blocks cover every row once and stay within the target", "[sparse]") {
  const HostCsr<float> csr = awkward_matrix<float>(1031, 97, true);
  for (std::uint64_t target : {0u, 1u, 8u, 100u, 4999u, 100000u}) {
    INFO("target " << target);
    const std::vector<std::size_t> b = equal_nnz_row_blocks(csr.row_ptr, target);
    REQUIRE(b.size() >= 2);
    CHECK(b.front() == 0);
    CHECK(b.back() == 1031);
    for (std::size_t k = 0; k + 1 < b.size(); ++k) {
      REQUIRE(b[k + 1] > b[k]);  // no empty block
      const std::uint64_t entries = csr.row_ptr[b[k + 1]] - csr.row_ptr[b[k]];
      // Within the target, unless the block is one row longer than it.
      CHECK((entries <= std::max<std::uint64_t>(target, 1) || b[k + 1] == b[k] + 1));
      // Maximal: the next row would not have fit (greedy blocks).
      if (b[k + 1] < 1031) CHECK(csr.row_ptr[b[k + 1] + 1] - csr.row_ptr[b[k]] > std::max<std::uint64_t>(target, 1));
    }
  }
  CHECK(equal_nnz_row_blocks({0}, 10) == std::vector<std::size_t>{0});
}
