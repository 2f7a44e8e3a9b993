// SPDX-License-Identifier: Apache-2.0
// SpMV on a device sparse matrix (CSR): against the double-precision host
// reference on rows of every awkward length, under every device class's
// plan, with BLAS's rules for alpha = 0 and beta = 0; the matrix round
// trips exactly; bad operands are refused before any launch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "portacl/sparse.hpp"
#include "portacl/plan.hpp"
#include "kernels/sparse/spmv_call.hpp"
#include "kernels/sparse/tunables.hpp"
#include "rules/sparse_rules.hpp"
#include "rules/tuning_database.hpp"
#include "sparse_checks.hpp"
#include "test_support.hpp"

using namespace portacl;
using test::awkward_matrix;
using test::check_spmv;

namespace {

// Every method, and the automatic choice, on one matrix.
template <class T>
void check_every_method(Context& ctx, const HostCsr<T>& csr, T alpha, T beta, const PlanOptions& opt) {
  const SparseMatrix<T> a(ctx, csr);
  check_spmv<T>(ctx, a, csr, alpha, beta, opt);
  for (const SpmvMethod& m : spmv_methods()) check_spmv<T>(ctx, a, csr, alpha, beta, opt, m);
}

// The entries of an n x n tridiagonal matrix, value(d) on diagonal d
// (-1, 0, 1).
template <class Value>
CooEntries tridiagonal_entries(std::uint32_t n, Value value) {
  CooEntries band{n, n, {}, {}, {}};
  for (std::uint32_t i = 0; i < n; ++i)
    for (int d = -1; d <= 1; ++d)
      if (int(i) + d >= 0 && int(i) + d < int(n)) {
        band.row.push_back(i);
        band.col.push_back(std::uint32_t(int(i) + d));
        band.value.push_back(value(d));
      }
  return band;
}

// The special shapes: a single dense row, a diagonal, 1 x 1, all rows
// empty, no rows, wide and tall, and coordinates with duplicates.
template <class T>
std::vector<HostCsr<T>> special_matrices() {
  std::vector<HostCsr<T>> out;
  auto from = [](std::size_t rows, std::size_t cols, std::vector<std::array<std::size_t, 2>> at) {
    CooEntries e;
    e.rows = rows;
    e.cols = cols;
    const std::vector<T> v = test::random_vector<T>(at.size());
    for (std::size_t k = 0; k < at.size(); ++k) {
      e.row.push_back(static_cast<std::uint32_t>(at[k][0]));
      e.col.push_back(static_cast<std::uint32_t>(at[k][1]));
      e.value.push_back(v[k]);
    }
    return csr_from_entries<T>(e);
  };
  std::vector<std::array<std::size_t, 2>> dense_row, diagonal, duplicates;
  for (std::size_t j = 0; j < 3001; ++j) dense_row.push_back({37, j});
  for (std::size_t i = 0; i < 1009; ++i) diagonal.push_back({i, i});
  for (std::size_t k = 0; k < 400; ++k) duplicates.push_back({k % 13, (k * 7) % 11});  // each (i, j) many times
  out.push_back(from(101, 3001, dense_row));
  out.push_back(from(1009, 1009, diagonal));
  out.push_back(from(1, 1, {{0, 0}}));
  out.push_back(from(17, 5, {}));
  out.push_back(from(0, 0, {}));
  out.push_back(from(3, 2003, {{0, 2002}, {2, 0}, {2, 1000}}));
  out.push_back(from(2003, 3, {{2002, 2}, {0, 0}, {1000, 1}}));
  out.push_back(from(13, 11, duplicates));
  return out;
}

}  // namespace

TEMPLATE_TEST_CASE("every SpMV method matches the host on rows of every awkward length", "[sparse]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  for (auto [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {9, 13}, {257, 6007}, {1031, 97}}) {
    const HostCsr<T> csr = awkward_matrix<T>(rows, cols, rows > 100);
    check_every_method<T>(ctx, csr, T(1), T(0), {});
    check_every_method<T>(ctx, csr, T(-0.75), T(1.5), {});
    check_spmv<T>(ctx, csr, T(0), T(2), {}, std::nullopt, true);  // alpha = 0 reads neither A nor x (NaN there)
    check_spmv<T>(ctx, csr, T(0), T(0), {}, std::nullopt, true);
  }
  for (const HostCsr<T>& csr : special_matrices<T>()) check_every_method<T>(ctx, csr, T(0.5), T(-2), {});
}

TEMPLATE_TEST_CASE("every SpMV method runs under every device class's plan", "[sparse_plans]", float, double) {
  Context& ctx = test::cpu_context();
  const HostCsr<TestType> csr = awkward_matrix<TestType>(523, 20011, true);
  for (const auto& [f, opt] : test::class_plans(element_of<TestType>::value)) {
    INFO(f);
    check_every_method<TestType>(ctx, csr, TestType(1.25), TestType(-0.5), opt);
  }
}

TEST_CASE("csr-block cuts rows longer than its unit into pieces, adds them in one pass or two, and says so",
          "[sparse]") {
  Context& ctx = test::cpu_context();
  const HostCsr<float> csr = awkward_matrix<float>(307, 20011, true);
  const SparseMatrix<float> a(ctx, csr);
  Buffer<float> x(ctx, test::random_vector<float>(csr.cols)), y(ctx, csr.rows);
  const LaunchPlan plan = spmv(ctx, 1.0f, a, x, 0.0f, y, SpmvMethod{SparseFormat::csr, CsrVariant::block});
  INFO(plan.explain());
  const Decision* unit = plan.decision("block_entries");
  const Decision* long_rows = plan.decision("long_rows");
  REQUIRE(unit);
  REQUIRE(long_rows);
  const std::size_t entries = std::stoul(unit->value), piece = std::stoul(plan.macros.at("SEGMENT_ENTRIES"));
  // Every row longer than the unit, in ceil(length / piece) pieces.
  std::size_t rows = 0, pieces = 0;
  for (std::size_t r = 0; r < csr.rows; ++r)
    if (const std::size_t len = csr.row_ptr[r + 1] - csr.row_ptr[r]; len > entries) {
      ++rows;
      pieces += (len + piece - 1) / piece;
    }
  REQUIRE(rows >= 1);
  CHECK(long_rows->value == std::to_string(rows) + " in " + std::to_string(pieces) + " segments");
  CHECK(long_rows->rule == "sparse.long-row-segments");
  // PoCL has global atomics: the group finishing a row's last piece adds
  // them up, no second launch.
  const Decision* passes = plan.decision("passes");
  REQUIRE(passes);
  CHECK(passes->rule == "general.single-pass-combine");
  CHECK(plan.passes == 1);
  // Two passes, as on a device without global atomics: the second launch
  // (csr_long_rows) adds the pieces up, with the same result.
  PlanOverride two;
  two.passes = 2;
  PlanOptions forced;
  forced.override_values = two;
  for (int repeat = 0; repeat < 2; ++repeat) {
    const LaunchPlan second = spmv(ctx, 1.0f, a, x, 0.0f, y, SpmvMethod{SparseFormat::csr, CsrVariant::block}, forced);
    CHECK(second.passes == 2);
  }
  check_spmv<float>(ctx, a, csr, 0.5f, -1.5f, forced, SpmvMethod{SparseFormat::csr, CsrVariant::block});
  check_spmv<float>(ctx, a, csr, 2.0f, 0.0f, forced, SpmvMethod{SparseFormat::csr, CsrVariant::block});
}

TEST_CASE("csr-block's pieces spread long rows over the compute units; NVIDIA GPUs take groups of 128", "[sparse]") {
  LaunchPlan plan;
  // 8 units while the long rows make 2 pieces per compute unit or more.
  CHECK(long_row_piece(plan, csr_block_tunables(), 1024, 8192 * 264, 132) == 8192);
  CHECK(long_row_piece(plan, csr_block_tunables(), 1024, 8192 * 263, 132) == 4096);
  // 16 rows of 62505 entries on 132 compute units: 244 pieces of 4096
  // would be too few, 488 of 2048 are not.
  CHECK(long_row_piece(plan, csr_block_tunables(), 512, 16 * 62505, 132) == 2048);
  CHECK(long_row_piece(plan, csr_block_tunables(), 512, 0, 132) == 1024);  // never below 2 units
  plan.macros["SEGMENT_UNITS"] = "16";                                     // a tuned piece wins
  CHECK(long_row_piece(plan, csr_block_tunables(), 512, 0, 132) == 8192);

  for (const auto& [device_class, want] : std::vector<std::pair<DeviceClass, std::size_t>>{
           {DeviceClass::nvidia_gpu, 128}, {DeviceClass::amd_gcn_gpu, 256}, {DeviceClass::cpu, 256}}) {
    LaunchPlan p;
    p.device_class = device_class;
    p.local = {{256, 1, 1}};
    csr_block_work_group(p);
    CHECK(p.local[0] == want);
    if (want == 128) CHECK(p.decision("work_group_size")->rule == "nvidia.csr-block-groups");
  }
  LaunchPlan tuned;
  tuned.device_class = DeviceClass::nvidia_gpu;
  tuned.local = {{256, 1, 1}};
  tuned.decide("work_group_size", "256", "tuning.override", "a record");
  csr_block_work_group(tuned);
  CHECK(tuned.local[0] == 256);
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
  Context& other = test::another_context();
  Buffer<double> foreign(other, 29);
  CHECK_THROWS_WITH(spmv(ctx, 1.0, a, foreign, 0.0, y), Catch::Contains("buffer x belongs to another context"));
  CHECK_THROWS_WITH(spmv(other, 1.0, a, foreign, 0.0, y), Catch::Contains("the sparse matrix A belongs to another"));
  HostCsr<double> bad = csr;
  bad.col[0] = 29;
  CHECK_THROWS_WITH(SparseMatrix<double>(ctx, bad),
                    Catch::Contains("SparseMatrix from CSR: row") && Catch::Contains("outside the 29 columns"));
}

TEST_CASE("the sparsity profile counts every row once, in its length bin", "[sparse]") {
  // Rows of 0, 1, 7, 8, 31, 32, 33, 128, 129 entries in turn, and long
  // ones: the longest all 6007 columns.
  const HostCsr<float> csr = awkward_matrix<float>(257, 6007, true);
  const SparsityProfile p = profile_rows(csr.row_ptr);
  CHECK(p.rows == 257);
  CHECK(p.nnz == csr.nnz());
  CHECK(p.shortest_row == 0);
  CHECK(p.longest_row == 6007);
  std::array<std::size_t, kRowLengthBins> want{};
  double sum = 0, sum_sq = 0;
  for (std::size_t r = 0; r < p.rows; ++r) {
    const std::uint64_t len = csr.row_ptr[r + 1] - csr.row_ptr[r];
    ++want[len == 0 ? 0 : len <= 7 ? 1 : len <= 31 ? 2 : len <= 128 ? 3 : 4];
    sum += double(len);
    sum_sq += double(len) * double(len);
  }
  CHECK(p.rows_in_bin == want);
  // Integer sums (exact in double); the mean one division; the variance
  // sum_sq / 257 - mean^2 four roundings (the division, the mean's, its
  // square, the subtraction) of at most sum_sq / 257 each, which the square
  // root halves over the deviation, and its own rounding.
  const double mean = sum / 257, mean_sq = sum_sq / 257, spread = std::sqrt(mean_sq - mean * mean);
  CHECK(std::fabs(p.mean_row - mean) <= 2 * test::kDoubleU * mean);
  CHECK(std::fabs(p.row_stddev - spread) <= 4 * test::kDoubleU * mean_sq / (2 * spread) + 2 * test::kDoubleU * spread);
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
  // Rows capped: 1000 empty rows around 3 entries make blocks of at most 64
  // rows (a work-group walks a block's rows), still covering every row once.
  std::vector<std::uint64_t> sparse_rows(1001, 0);
  for (std::size_t r = 500; r < 1001; ++r) sparse_rows[r] = 3;
  for (std::size_t most : {std::size_t(0), std::size_t(1), std::size_t(64)}) {
    const std::vector<std::size_t> b = equal_nnz_row_blocks(sparse_rows, 1024, most);
    CHECK(b.front() == 0);
    CHECK(b.back() == 1000);
    for (std::size_t k = 0; k + 1 < b.size(); ++k) {
      REQUIRE(b[k + 1] > b[k]);
      CHECK(b[k + 1] - b[k] <= std::max<std::size_t>(most, 1));
    }
    CHECK(b.size() - 1 == (1000 + std::max<std::size_t>(most, 1) - 1) / std::max<std::size_t>(most, 1));
  }
}

TEMPLATE_TEST_CASE("every format round trips exactly through its device conversion", "[sparse]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  std::vector<HostCsr<T>> matrices = special_matrices<T>();
  matrices.push_back(awkward_matrix<T>(257, 6007, true));
  matrices.push_back(awkward_matrix<T>(1031, 97, false));
  for (const HostCsr<T>& csr : matrices) {
    const SparseMatrix<T> a(ctx, csr);
    for (SparseFormat f : {SparseFormat::csr, SparseFormat::coo, SparseFormat::ell, SparseFormat::ell_r,
                           SparseFormat::hyb, SparseFormat::dia}) {
      INFO(csr.rows << " x " << csr.cols << ", " << csr.nnz() << " entries, " << SpmvMethod{f}.name());
      const HostCsr<T> back = a.download(f);
      CHECK(back.rows == csr.rows);
      CHECK(back.cols == csr.cols);
      CHECK(back.row_ptr == csr.row_ptr);  // random values are never exactly 0, so DIA keeps them all
      CHECK(back.col == csr.col);
      CHECK(back.value == csr.value);
    }
  }
}

TEST_CASE("the SpMV choice follows the structure and the device class, and explains itself", "[sparse]") {
  Context& ctx = test::cpu_context();
  auto choice_for = [&](const HostCsr<float>& csr, const char* fixture) {
    PlanOptions opt;
    for (const auto& [f, o] : test::class_plans(ElementType::f32))
      if (f.find(fixture) != std::string::npos) opt = o;
    REQUIRE(opt.plan_as);
    return spmv_choice(ctx, SparseMatrix<float>(ctx, csr), opt);
  };
  // A tridiagonal matrix is banded: DIA on GPUs and MIC.
  const HostCsr<float> tridiagonal = csr_from_entries<float>(tridiagonal_entries(500, [](int) { return 1.0f; }));
  CHECK(choice_for(tridiagonal, "intel_cpu").method.name() == "ell-r");  // regular rows: no DIA on CPUs
  for (const char* f : {"nvidia_h100", "amd_gfx902", "xeon_phi"}) {
    const SpmvChoice c = choice_for(tridiagonal, f);
    CHECK(c.method.format == SparseFormat::dia);
    REQUIRE(c.decisions.size() == 1);
    CHECK(c.decisions[0].rule == "sparse.dia-banded");
    CHECK_NOTHROW(rule(c.decisions[0].rule));
  }
  // Irregular rows (0 to 6007 entries): binned on GPUs, chunks on CPUs.
  const HostCsr<float> irregular = awkward_matrix<float>(2000, 6007, true);
  CHECK(choice_for(irregular, "nvidia_h100").method.name() == "csr-adaptive");
  CHECK(choice_for(irregular, "intel_cpu").method.name() == "csr-cpu");
  // The plan of an automatic call names the choice's rule (on the test
  // device's own class).
  const SparseMatrix<float> a(ctx, tridiagonal);
  Buffer<float> x(ctx, std::vector<float>(500, 1.0f)), y(ctx, 500);
  const LaunchPlan plan = spmv(ctx, 1.0f, a, x, 0.0f, y);
  CHECK_THAT(plan.explain(), Catch::Contains(spmv_choice(ctx, a).decisions.at(0).rule));
  CHECK_THAT(spmv(ctx, 1.0f, a, x, 0.0f, y, spmv_method_from_string("csr-vector")).explain(),
             Catch::Contains("caller.choice"));
  // Row sums of the tridiagonal matrix of ones: 2 at the ends, 3 inside.
  const std::vector<float> sums = y.download();
  CHECK(sums.front() == 2.0f);
  CHECK(sums[250] == 3.0f);
  CHECK(sums.back() == 2.0f);
  CHECK_THROWS_WITH(spmv_method_from_string("csr-warp"),
                    Catch::Contains("unknown SpMV method 'csr-warp'") && Catch::Contains("csr-adaptive"));
  for (const SpmvMethod& m : spmv_methods()) CHECK(spmv_method_from_string(m.name()) == m);
}

TEST_CASE("a tuning record for a class of matrix statistics replaces the rules' SpMV method", "[sparse]") {
  Context& ctx = test::cpu_context();
  // A tridiagonal matrix: class "banded", 1498 entries (bucket 2^11).
  const SparseMatrix<float> a =
      SparseMatrix<float>::from_entries(ctx, tridiagonal_entries(500, [](int d) { return float(d + 2); }));
  CHECK(spmv_statistics_class(a.shape()) == "banded");
  CHECK(spmv_method_traits(a.shape(), ElementType::f32).name == "spmv_method.banded");
  const SpmvMethod rules = spmv_choice(ctx, a).method;
  const long forced = rules.name() == "csr-vector" ? 0 : 1;  // csr-scalar or csr-vector: not the rules' pick
  const std::string path = test::scratch_dir("sparse-tuning") + "/db.json";
  TuningDatabase::merge_into_file(path, {test::record_for(ctx.info(), "spmv_method.banded", 11, {{"METHOD", forced}})});
  test::TuningDbScope scope(path);
  const SpmvChoice tuned = spmv_choice(ctx, a);
  CHECK(tuned.method == spmv_method_of_value(forced));
  CHECK(tuned.method.name() == (forced ? "csr-vector" : "csr-scalar"));  // the values records stored before names
  CHECK(tuned.decisions.back().rule == "tuning.override");
  CHECK_THAT(tuned.plan.provenance, Catch::StartsWith("tuning database " + path));
  // The tuned method computes the same product.
  Buffer<float> x(ctx, std::vector<float>(500, 1.0f)), y(ctx, 500);
  CHECK_THAT(spmv(ctx, 1.0f, a, x, 0.0f, y).explain(), Catch::Contains("tuning.override"));
  const std::vector<float> sums = y.download();
  CHECK(sums.front() == 5.0f);  // 2 + 3
  CHECK(sums[250] == 6.0f);     // 1 + 2 + 3
  CHECK(sums.back() == 3.0f);   // 1 + 2
  // Another class of statistics has no record: the rules decide.
  CHECK(spmv_choice(ctx, SparseMatrix<float>(ctx, awkward_matrix<float>(300, 400, false))).plan.provenance == "rules");
}

TEST_CASE("a tuned SpMV method is stored by its name, and a name the library does not know is refused", "[sparse]") {
  Context& ctx = test::cpu_context();
  const SparseMatrix<float> a =
      SparseMatrix<float>::from_entries(ctx, tridiagonal_entries(500, [](int d) { return float(d + 2); }));
  const std::string rules = spmv_choice(ctx, a).method.name();
  const std::string wanted = rules == "dia" ? "csr-scalar" : "dia";
  // The tuner's record stores the name, not a number.
  Configuration numbers;
  NamedValues named;
  split_named_values(spmv_method_tunables(), {{"METHOD", spmv_method_tunables().at("METHOD").values.back()}}, numbers,
                     named);
  CHECK(numbers.empty());
  CHECK(named == NamedValues{{"METHOD", spmv_methods().back().name()}});
  TuningRecord record = test::record_for(ctx.info(), "spmv_method.banded", 11, {});
  record.named = {{"METHOD", wanted}};
  const std::string path = test::scratch_dir("sparse-named") + "/db.json";
  TuningDatabase::merge_into_file(path, {record});
  CHECK_THAT(test::read_file(path), Catch::Contains("\"METHOD\": \"" + wanted + "\""));
  {
    test::TuningDbScope scope(path);
    const SpmvChoice tuned = spmv_choice(ctx, a);
    CHECK(tuned.method.name() == wanted);
    CHECK_THAT(tuned.plan.provenance, Catch::Contains("METHOD=" + wanted));
  }
  // A name no method has: the record is set aside with the names it could
  // have used, and the rules decide.
  record.named = {{"METHOD", "csr-warp"}};
  const std::string unknown = test::scratch_dir("sparse-named") + "/unknown.json";
  TuningDatabase::merge_into_file(unknown, {record});
  test::TuningDbScope scope(unknown);
  const SpmvChoice refused = spmv_choice(ctx, a);
  CHECK(refused.method.name() == rules);
  CHECK_THAT(refused.plan.provenance,
             Catch::Contains("METHOD 'csr-warp' is not one of its values") && Catch::Contains("csr-adaptive"));
}

TEST_CASE("timing the adaptive SpMV, whose row bins run on several queues, waits for every bin", "[sparse]") {
  // The last bin launched may finish before the first: the record's span
  // must wait for all of them, or their profiling times are not yet there.
  Context& ctx = test::cpu_context();
  for (auto [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{{9, 13}, {1031, 2003}}) {
    const HostCsr<float> csr = awkward_matrix<float>(rows, cols, rows > 100);
    const SparseMatrix<float> a(ctx, csr);
    Buffer<float> dx(ctx, test::random_vector<float>(csr.cols)), dy(ctx, test::random_vector<float>(csr.rows));
    const auto adaptive = std::find_if(spmv_methods().begin(), spmv_methods().end(),
                                       [](const SpmvMethod& m) { return m.name() == "csr-adaptive"; });
    REQUIRE(adaptive != spmv_methods().end());
    for (int run = 0; run < 20; ++run) {
      ctx.finish();
      LaunchRecorder record(ctx);
      spmv(ctx, 1.0f, a, dx, 0.0f, dy, *adaptive, {});
      REQUIRE(record.events().size() >= 2);  // bins on two queues at least
      const double span = record.span_ms();
      for (const cl::Event& e : record.events()) {
        CHECK(e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE);
        CHECK(span >= Context::elapsed_ms(e) - 1e-9);
      }
    }
  }
}

TEST_CASE("a kept SpMV preparation serves repeated calls with other vectors and scalars", "[sparse]") {
  Context& ctx = test::cpu_context();
  const HostCsr<float> csr = awkward_matrix<float>(307, 20011, true);
  const SparseMatrix<float> a(ctx, csr);
  for (const char* name : {"csr-block", "ell-r", "dia"}) {
    const SpmvMethod method = spmv_method_from_string(name);
    REQUIRE(spmv_keeps_preparation(method));
    // The second and third calls run on this thread's kept kernels, with
    // new buffers and scalars each time.
    check_spmv<float>(ctx, a, csr, 1.0f, 0.0f, {}, method);
    check_spmv<float>(ctx, a, csr, -0.5f, 2.0f, {}, method);
    check_spmv<float>(ctx, a, csr, 3.0f, 0.0f, {}, method);
  }
}
