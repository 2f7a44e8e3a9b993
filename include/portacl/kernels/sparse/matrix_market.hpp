// SPDX-License-Identifier: Apache-2.0
/// \file
/// Matrix Market files (NIST's exchange format, the one SuiteSparse ships):
/// the matrix exactly as a file stores it, and the general entries it means.
/// Read: "coordinate" (real, integer, pattern) and "array" (real, integer),
/// each general, symmetric or skew-symmetric. Complex and Hermitian
/// matrices, and vectors, are refused. A malformed file gives
/// portacl::Error naming the file and line, and no partial matrix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace portacl {

/// The largest row or column count: indices are 32-bit signed on the device,
/// with -1 free to mark padding (ELL).
constexpr std::size_t kMaxSparseDimension = 0x7fffffff;

struct MatrixMarket {
  enum class Format { coordinate, array };
  enum class Field { real, integer, pattern };
  enum class Symmetry { general, symmetric, skew_symmetric };
  Format format = Format::coordinate;
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
  std::size_t rows = 0, cols = 0;
  /// The stored entries in file order, 0-based: for symmetric files the
  /// lower triangle, for skew-symmetric ones the strict lower triangle, for
  /// arrays every stored element (column by column). Pattern entries are 1;
  /// integers are held exactly (|v| <= 2^53).
  std::vector<std::uint32_t> row, col;
  std::vector<double> value;

  std::size_t stored() const { return value.size(); }
  bool operator==(const MatrixMarket& o) const;
  bool operator!=(const MatrixMarket& o) const { return !(*this == o); }
};

/// The matrix a file means as general coordinate entries: symmetric entries
/// mirrored, skew-symmetric ones mirrored negated, an array's zeros dropped
/// (a coordinate file's explicit zeros stay). Entries keep the file's order,
/// each mirror right after its original; duplicates stay (whoever builds a
/// matrix from them decides: portacl's sparse formats add them).
struct CooEntries {
  std::size_t rows = 0, cols = 0;
  std::vector<std::uint32_t> row, col;
  std::vector<double> value;
};
CooEntries general_entries(const MatrixMarket& m);

/// `text` as a Matrix Market file; `name` (a path) prefixes every error.
MatrixMarket parse_matrix_market(const std::string& text, const std::string& name);
/// The regular file at `path`, streamed (files of several GB are common).
MatrixMarket read_matrix_market(const std::string& path);

/// The file text for `m`: values with 17 significant digits, so reading it
/// back gives `m` exactly.
std::string format_matrix_market(const MatrixMarket& m);
/// Written atomically: a reader never sees half a file. Throws portacl::Error.
void write_matrix_market(const std::string& path, const MatrixMarket& m);

}  // namespace portacl
