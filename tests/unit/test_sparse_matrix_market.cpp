// SPDX-License-Identifier: Apache-2.0
// Matrix Market files: every format, field and symmetry round-trips
// exactly, symmetric storage expands to the matrix it means, and every kind
// of malformed file is refused naming the file and line.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <utility>

#include "portacl/error.hpp"
#include "portacl/sparse.hpp"
#include "test_support.hpp"

using namespace portacl;
using Format = MatrixMarket::Format;
using Field = MatrixMarket::Field;
using Symmetry = MatrixMarket::Symmetry;

namespace {

// A random matrix stored as `format`, `field` and `symmetry` would store it.
MatrixMarket random_matrix(Format format, Field field, Symmetry symmetry, std::size_t rows, std::size_t cols,
                           std::mt19937_64& rng) {
  MatrixMarket m{format, field, symmetry, rows, cols, {}, {}, {}};
  std::uniform_real_distribution<double> real(-1e3, 1e3);
  std::uniform_int_distribution<long long> integer(-(1LL << 53), 1LL << 53);
  auto value = [&] {
    return field == Field::pattern ? 1.0 : field == Field::integer ? double(integer(rng)) : real(rng);
  };
  auto stored = [&](std::size_t i, std::size_t j) {
    return symmetry == Symmetry::general || (symmetry == Symmetry::symmetric ? i >= j : i > j);
  };
  auto add = [&](std::size_t i, std::size_t j) {
    m.row.push_back(std::uint32_t(i));
    m.col.push_back(std::uint32_t(j));
    m.value.push_back(value());
  };
  if (format == Format::array) {
    for (std::size_t j = 0; j < cols; ++j)
      for (std::size_t i = 0; i < rows; ++i)
        if (stored(i, j)) add(i, j);
  } else if (rows > 0 && cols > 0) {
    std::uniform_int_distribution<std::size_t> r(0, rows - 1), c(0, cols - 1);
    for (std::size_t k = 0; k < rows * cols / 3 + 2; ++k) {  // duplicates too
      const std::size_t i = r(rng), j = c(rng);
      if (stored(i, j)) add(i, j);
    }
  }
  return m;
}

// The dense matrix a file means, from the format's definition.
std::map<std::pair<std::size_t, std::size_t>, double> dense(const MatrixMarket& m) {
  std::map<std::pair<std::size_t, std::size_t>, double> a;
  for (std::size_t k = 0; k < m.stored(); ++k) {
    a[{m.row[k], m.col[k]}] += m.value[k];
    if (m.row[k] != m.col[k] && m.symmetry != Symmetry::general)
      a[{m.col[k], m.row[k]}] += m.symmetry == Symmetry::symmetric ? m.value[k] : -m.value[k];
  }
  return a;
}

std::map<std::pair<std::size_t, std::size_t>, double> dense(const CooEntries& e) {
  std::map<std::pair<std::size_t, std::size_t>, double> a;
  for (std::size_t k = 0; k < e.value.size(); ++k) a[{e.row[k], e.col[k]}] += e.value[k];
  return a;
}

void drop_zeros(std::map<std::pair<std::size_t, std::size_t>, double>& a) {
  for (auto it = a.begin(); it != a.end();) it = it->second == 0.0 ? a.erase(it) : std::next(it);
}

}  // namespace

TEST_CASE("Matrix Market files round-trip exactly and expand to the matrix they mean", "[sparse]") {
  std::mt19937_64& rng = test::rng();  // its seed is printed at the start
  const std::string dir = test::scratch_dir("matrix-market");
  int written = 0;
  for (Format format : {Format::coordinate, Format::array})
    for (Field field : {Field::real, Field::integer, Field::pattern})
      for (Symmetry symmetry : {Symmetry::general, Symmetry::symmetric, Symmetry::skew_symmetric}) {
        if (field == Field::pattern && (format == Format::array || symmetry == Symmetry::skew_symmetric)) continue;
        for (auto [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{
                 {0, 0}, {1, 1}, {2, 2}, {7, 5}, {13, 13}, {31, 17}, {64, 64}}) {
          if (symmetry != Symmetry::general && rows != cols) continue;
          const MatrixMarket m = random_matrix(format, field, symmetry, rows, cols, rng);
          INFO(format_matrix_market(m).substr(0, 60) << " " << rows << "x" << cols);
          const std::string text = format_matrix_market(m);
          CHECK(parse_matrix_market(text, "round-trip") == m);
          const std::string path = dir + "/m" + std::to_string(written++) + ".mtx";
          write_matrix_market(path, m);
          CHECK(read_matrix_market(path) == m);
          // The general entries hold the matrix the definition gives.
          const CooEntries e = general_entries(m);
          CHECK(e.rows == rows);
          CHECK(e.cols == cols);
          auto want = dense(m), got = dense(e);
          if (format == Format::array) drop_zeros(want);
          CHECK(got == want);
        }
      }
}

TEST_CASE("Matrix Market: comments, blank lines, CRLF, case and the 'double' field are read", "[sparse]") {
  const MatrixMarket m = parse_matrix_market(
      "%%MatrixMarket MATRIX Coordinate double Symmetric\r\n% a comment\r\n\r\n%another\n  3 3   3\n"
      "1 1 2.5\n\n3 1 -1e-3\r\n3\t3 +4\n",
      "t.mtx");
  CHECK(m.symmetry == Symmetry::symmetric);
  CHECK(m.field == Field::real);
  CHECK(m.value == std::vector<double>{2.5, -1e-3, 4});
  const CooEntries e = general_entries(m);
  CHECK(e.row == std::vector<std::uint32_t>{0, 2, 0, 2});  // each mirror after its original
  CHECK(e.col == std::vector<std::uint32_t>{0, 0, 2, 2});
  CHECK(e.value == std::vector<double>{2.5, -1e-3, -1e-3, 4});
  // An array: column by column; a skew-symmetric one holds the strict lower
  // triangle, negated above.
  const MatrixMarket a =
      parse_matrix_market("%%MatrixMarket matrix array integer skew-symmetric\n3 3\n1\n0\n-7\n", "a.mtx");
  CHECK(a.row == std::vector<std::uint32_t>{1, 2, 2});
  CHECK(a.col == std::vector<std::uint32_t>{0, 0, 1});
  const CooEntries ae = general_entries(a);  // the zero is dropped
  CHECK(ae.value == std::vector<double>{1, -1, -7, 7});
}

TEST_CASE("the fixture matrices (the fuzzer's seeds) read and mean what they say", "[sparse]") {
  const std::string dir = std::string(PORTACL_SOURCE_DIR) + "/tests/fixtures/matrices/";
  // name -> entries of the general matrix
  const std::map<std::string, std::size_t> expanded = {
      {"real_general", 6},    {"real_symmetric", 6},    {"real_skew", 4},
      {"integer_general", 3}, {"pattern_symmetric", 7}, {"array_general", 4},
      {"array_symmetric", 9}, {"array_skew", 6},        {"crlf", 1}};
  for (const auto& [name, entries] : expanded) {
    INFO(name);
    const MatrixMarket m = read_matrix_market(dir + name + ".mtx");
    CHECK(general_entries(m).value.size() == entries);
    CHECK(parse_matrix_market(format_matrix_market(m), name) == m);
  }
  const MatrixMarket g = read_matrix_market(dir + "real_general.mtx");
  CHECK(g.rows == 4);
  CHECK(g.cols == 5);
  CHECK(g.value == std::vector<double>{1.5, -2.25e-3, 3, 7, -0.5, 1e10});
  CHECK(read_matrix_market(dir + "integer_general.mtx").value[0] == -9007199254740992.0);
}

TEST_CASE("malformed Matrix Market files are refused naming the file and line", "[sparse][hostile]") {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "bad.mtx: is empty"},
      {"%MatrixMarket matrix coordinate real general\n1 1 0\n", "bad.mtx:1: does not start with the banner"},
      {"%%MatrixMarket matrix coordinate real\n1 1 0\n", "bad.mtx:1: the banner has 4 words, not 5"},
      {"%%MatrixMarket vector coordinate real general\n", "bad.mtx:1: object 'vector' is not supported"},
      {"%%MatrixMarket matrix coordinate complex general\n", "bad.mtx:1: complex matrices are not supported"},
      {"%%MatrixMarket matrix coordinate real hermitian\n", "bad.mtx:1: Hermitian matrices are complex"},
      {"%%MatrixMarket matrix sparse real general\n", "bad.mtx:1: format 'sparse' is neither"},
      {"%%MatrixMarket matrix array pattern general\n", "bad.mtx:1: an array file cannot have the pattern field"},
      {"%%MatrixMarket matrix coordinate pattern skew-symmetric\n", "bad.mtx:1: a pattern file cannot be skew"},
      {head, "bad.mtx: ends before its size line"},
      {head + "% c\n3 3\n", "bad.mtx:3: the size line has 2 numbers, not 3 (rows, columns, entries)"},
      {head + "3 x 1\n", "bad.mtx:2: column count 'x' is not a whole number"},
      {head + "-3 3 1\n", "bad.mtx:2: row count '-3' is not a whole number"},
      {head + "3 2147483648 1\n", "exceeds the largest dimension, 2147483647 (32-bit indices)"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 4 0\n", "bad.mtx:2: a symmetric matrix must be square"},
      {head + "3 3 1\n0 1 1.0\n", "bad.mtx:3: row index '0' is not a whole number from 1 to 3"},
      {head + "3 3 1\n1 4 1.0\n", "bad.mtx:3: column index '4' is not a whole number from 1 to 3"},
      {head + "3 3 1\n1 -1 1.0\n", "bad.mtx:3: column index '-1'"},
      {head + "3 3 1\n1 1\n", "bad.mtx:3: entry 1 has 2 numbers, not 3"},
      {head + "3 3 1\n1 1 1.5x\n", "bad.mtx:3: value '1.5x' is not a number"},
      {head + "3 3 1\n1 1 nan\n", "bad.mtx:3: value 'nan' is not a finite number"},
      {head + "3 3 1\n1 1 1e999\n", "bad.mtx:3: value '1e999' lies outside the range of double"},
      {head + "3 3 1\n1 1 0x1p3\n", "bad.mtx:3: value '0x1p3' is not a number"},
      {head + "3 3 2\n1 1 1\n", "bad.mtx: ends after 1 of the 2 entries its size line announces (line 3)"},
      {head + "3 3 1\n1 1 1\n2 2 2\n", "bad.mtx:4: holds more entries than the 1 its size line announces"},
      {std::string("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1") + '\0' + "\n",
       "bad.mtx:3: holds a NUL byte"},
      {"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n",
       "bad.mtx:3: integer value '1.5' is not a whole number of magnitude at most 2^53"},
      {"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 9007199254740993\n",
       "integer value '9007199254740993'"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n",
       "bad.mtx:3: entry (1, 2) lies above the diagonal; a symmetric file stores the lower triangle only"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n",
       "bad.mtx:3: entry (2, 2) is not below the diagonal"},
      {"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n",
       "bad.mtx: ends after 3 of the 4 entries its size line announces"},
      {"%%MatrixMarket matrix array real general\n2 2\n1\n2 3\n4\n", "bad.mtx:4: entry 2 has 2 numbers, not 1"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    CHECK_THROWS_WITH(parse_matrix_market(text, "bad.mtx"), Catch::Contains(message));
  }
  // Not a file, or no file: named, nothing read.
  const std::string dir = test::scratch_dir("matrix-market-bad");
  CHECK_THROWS_WITH(read_matrix_market(dir), Catch::Contains("'" + dir + "' is not a regular file"));
  CHECK_THROWS_WITH(read_matrix_market(dir + "/none.mtx"), Catch::Contains("cannot read Matrix Market file"));
  // A size line that promises more than the file holds costs no memory up
  // front: the entries are counted as they come.
  CHECK_THROWS_WITH(parse_matrix_market(head + "2147483647 2147483647 18446744073709551615\n1 1 1\n", "big.mtx"),
                    Catch::Contains("big.mtx: ends after 1 of the 18446744073709551615 entries"));
}

TEMPLATE_TEST_CASE("host CSR from entries: sorted, duplicates added, round trips", "[sparse]", float, double) {
  using T = TestType;
  std::mt19937_64& rng = test::rng();
  for (auto [rows, cols] : std::vector<std::pair<std::size_t, std::size_t>>{{0, 0}, {1, 1}, {7, 13}, {131, 67}}) {
    INFO(rows << " x " << cols);
    CooEntries e;
    e.rows = rows;
    e.cols = cols;
    std::map<std::pair<std::size_t, std::size_t>, double> want;
    if (rows > 0 && cols > 0) {
      std::uniform_int_distribution<std::size_t> r(0, rows - 1), c(0, cols - 1);
      std::uniform_int_distribution<int> v(-8, 8);             // small integers: sums are exact in float
      for (std::size_t k = 0; k < rows * cols / 2 + 3; ++k) {  // with duplicates, in random order
        e.row.push_back(std::uint32_t(r(rng)));
        e.col.push_back(std::uint32_t(c(rng)));
        e.value.push_back(v(rng));
        want[{e.row.back(), e.col.back()}] += e.value.back();
      }
    }
    const HostCsr<T> csr = csr_from_entries<T>(e);
    CHECK(csr_problem(csr) == "");
    CHECK(csr.nnz() == want.size());
    std::map<std::pair<std::size_t, std::size_t>, double> got;
    const CooEntries back = entries_of(csr);
    for (std::size_t k = 0; k < back.value.size(); ++k) got[{back.row[k], back.col[k]}] = back.value[k];
    CHECK(got == want);
    CHECK(csr_from_entries<T>(back).col == csr.col);  // already sorted and merged: unchanged
  }
  // A Matrix Market file all the way to CSR.
  const HostCsr<T> sym = csr_from_entries<T>(general_entries(
      read_matrix_market(std::string(PORTACL_SOURCE_DIR) + "/tests/fixtures/matrices/real_symmetric.mtx")));
  // (1,1) = 4, (2,1) = -1, (3,2) = -1, (3,3) = 4, mirrored; no (2,2).
  CHECK(sym.row_ptr == std::vector<std::uint64_t>{0, 2, 4, 6});
  CHECK(sym.col == std::vector<std::uint32_t>{0, 1, 0, 2, 1, 2});
  CHECK(sym.value == std::vector<T>{4, -1, -1, -1, -1, 4});
}

TEST_CASE("malformed CSR and entries are refused naming the problem", "[sparse][hostile]") {
  HostCsr<float> m;
  m.rows = 2;
  m.cols = 3;
  m.row_ptr = {0, 2, 3};
  m.col = {0, 2, 1};
  m.value = {1, 2, 3};
  CHECK(csr_problem(m) == "");
  HostCsr<float> bad = m;
  bad.row_ptr = {0, 100, 3};
  CHECK_THAT(csr_problem(bad), Catch::Contains("row_ptr[1] = 100 lies beyond the 3 entries"));
  bad = m;
  bad.col = {2, 0, 1};
  CHECK_THAT(csr_problem(bad), Catch::Contains("row 0's columns are not strictly ascending"));
  bad = m;
  bad.col = {0, 3, 1};
  CHECK_THAT(csr_problem(bad), Catch::Contains("row 0 has column 3, outside the 3 columns"));
  bad = m;
  bad.row_ptr = {0, 2};
  CHECK_THAT(csr_problem(bad), Catch::Contains("row_ptr has 2 offsets, rows + 1 = 3 are needed"));
  CooEntries e;
  e.rows = 2;
  e.cols = 2;
  e.row = {0, 2};
  e.col = {0, 0};
  e.value = {1, 1};
  CHECK_THROWS_WITH(csr_from_entries<float>(e), Catch::Contains("entry 1 at (2, 0) lies outside the 2 x 2 matrix"));
}
