// SPDX-License-Identifier: Apache-2.0
// csr-merge: the merge path's tiles against a merge done item by item on
// the host, and the product on rows shorter and longer than a work-item's
// and a tile's share, in one pass and two, repeatable bit for bit.
#include <catch2/catch.hpp>

#include <cstring>

#include "portacl/sparse.hpp"
#include "sparse_checks.hpp"
#include "test_support.hpp"

using namespace portacl;
using test::awkward_matrix;
using test::check_spmv;

namespace {

const SpmvMethod kMerge{SparseFormat::csr, CsrVariant::merge};

// Rows taken from `row_ptr` one merge item at a time: how many rows have
// ended before each item d (entries first, a row's end after them).
std::vector<std::size_t> rows_before_each_item(const std::vector<std::uint64_t>& row_ptr) {
  const std::size_t rows = row_ptr.size() - 1;
  std::vector<std::size_t> before;
  std::size_t r = 0;
  for (std::uint64_t k = 0;;) {
    before.push_back(r);
    if (r < rows && k < row_ptr[r + 1])
      ++k;  // an entry of row r
    else if (r < rows)
      ++r;  // row r ends
    else
      break;
  }
  return before;  // rows + nnz + 1 values: the last is after every item
}

PlanOptions merge_shape(std::size_t work_group, std::size_t items, unsigned passes) {
  PlanOverride o;
  o.work_group_size = work_group;
  o.passes = passes;
  o.macros["IPT"] = std::to_string(items);
  PlanOptions opt;
  opt.override_values = o;
  return opt;
}

}  // namespace

TEST_CASE("the merge path's tiles start where an item-by-item merge is", "[sparse]") {
  for (const HostCsr<float>& csr : {awkward_matrix<float>(1031, 97, true), awkward_matrix<float>(9, 13, false)}) {
    const std::vector<std::size_t> before = rows_before_each_item(csr.row_ptr);
    for (std::uint64_t items : {1u, 2u, 7u, 64u, 1792u, 1000000u}) {
      INFO(csr.rows << " rows, " << csr.nnz() << " entries, tiles of " << items);
      const std::vector<std::size_t> tiles = merge_path_tile_rows(csr.row_ptr, items);
      const std::size_t length = csr.rows + csr.nnz();
      REQUIRE(tiles.size() == (length + items - 1) / items + 1);
      for (std::size_t t = 0; t + 1 < tiles.size(); ++t) CHECK(tiles[t] == before[t * items]);
      CHECK(tiles.back() == csr.rows);
    }
  }
  CHECK(merge_path_tile_rows({0}, 5) == std::vector<std::size_t>{0});
  CHECK(merge_path_tile_rows({0, 0, 0}, 1) == std::vector<std::size_t>{0, 1, 2});
  CHECK_THROWS_WITH(merge_path_tile_rows({0, 3}, 0), Catch::Contains("at least one item"));
  CHECK_THROWS_WITH(merge_path_tile_rows({0, 3, 2}, 4), Catch::Contains("ascend"));
  CHECK_THROWS_WITH(merge_path_tile_rows({}, 4), Catch::Contains("rows + 1"));
}

TEMPLATE_TEST_CASE("csr-merge matches the host with rows across work-items and tiles, in one pass or two", "[sparse]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // Rows of 0-129 entries and of 1000, 3073 and 20000: a row spans many
  // work-items and many tiles at every shape below.
  const HostCsr<T> csr = awkward_matrix<T>(523, 20011, true);
  const SparseMatrix<T> a(ctx, csr);
  for (std::size_t wg : {32, 64})
    for (std::size_t items : {1, 3, 7})
      for (unsigned passes : {1u, 2u}) {
        const PlanOptions opt = merge_shape(wg, items, passes);
        INFO("work-group " << wg << ", " << items << " items each, " << passes << " passes");
        check_spmv<T>(ctx, a, csr, T(1), T(0), opt, kMerge);
        check_spmv<T>(ctx, a, csr, T(-0.75), T(1.5), opt, kMerge);
      }
  // The tiles' carries are added in a fixed order: the same product twice is
  // the same bit for bit (each run's count is back at 0 after each).
  Buffer<T> x(ctx, test::random_vector<T>(csr.cols)), y(ctx, csr.rows);
  const PlanOptions opt = merge_shape(32, 3, 1);
  spmv(ctx, T(1), a, x, T(0), y, kMerge, opt);
  const std::vector<T> first = y.download();
  for (int repeat = 0; repeat < 3; ++repeat) {
    y.upload(std::vector<T>(csr.rows, T(7)));
    spmv(ctx, T(1), a, x, T(0), y, kMerge, opt);
    const std::vector<T> again = y.download();
    CHECK(std::memcmp(first.data(), again.data(), first.size() * sizeof(T)) == 0);
  }
}

TEST_CASE("csr-merge says how it cut the work and finishes the rows cut between tiles", "[sparse]") {
  Context& ctx = test::cpu_context();
  const HostCsr<float> csr = awkward_matrix<float>(307, 20011, true);
  const SparseMatrix<float> a(ctx, csr);
  Buffer<float> x(ctx, test::random_vector<float>(csr.cols)), y(ctx, csr.rows);
  const LaunchPlan plan = spmv(ctx, 1.0f, a, x, 0.0f, y, kMerge);
  INFO(plan.explain());
  const Decision* items = plan.decision("IPT");
  const Decision* tiles = plan.decision("merge_tiles");
  REQUIRE(items);
  REQUIRE(tiles);
  CHECK(items->rule == "sparse.merge-path-tiles");
  const std::size_t tile = plan.local[0] * std::stoul(items->value);
  CHECK(tiles->value ==
        std::to_string((csr.rows + csr.nnz() + tile - 1) / tile) + " of " + std::to_string(tile) + " items");
  CHECK_THAT(tiles->why, Catch::Contains("last of their tiles"));
  CHECK(plan.passes == 1);
  const LaunchPlan two = spmv(ctx, 1.0f, a, x, 0.0f, y, kMerge, merge_shape(64, 5, 2));
  CHECK(two.passes == 2);
  CHECK_THAT(two.decision("merge_tiles")->why, Catch::Contains("second launch"));
  // A tile that does not fit local memory is refused by name.
  CHECK_THROWS_WITH(spmv(ctx, 1.0f, a, x, 0.0f, y, kMerge, merge_shape(64, 1000000, 1)),
                    Catch::Contains("csr-merge") && Catch::Contains("local memory"));
}
