// SPDX-License-Identifier: Apache-2.0
#include "portacl/sparse.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <cmath>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <utility>

#include "portacl/error.hpp"
#include "util/checked.hpp"
#include "../../util/files.hpp"
#include "../../util/text.hpp"

namespace portacl {

bool MatrixMarket::operator==(const MatrixMarket& o) const {
  return format == o.format && field == o.field && symmetry == o.symmetry && rows == o.rows && cols == o.cols &&
         row == o.row && col == o.col && value == o.value;
}

namespace {

using text::lower;

using Format = MatrixMarket::Format;
using Field = MatrixMarket::Field;
using Symmetry = MatrixMarket::Symmetry;

std::vector<std::string> tokens_of(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// Reads a file line by line, knowing where it is, and words every error as
// "<name>:<line>: ...".
class Reader {
 public:
  Reader(std::function<bool(std::string&)> next_line, std::string name)
      : next_line_(std::move(next_line)), name_(std::move(name)) {}

  // The next line that is neither blank nor a comment, split into tokens;
  // false at the end of the file.
  bool next_data(std::vector<std::string>& tokens) {
    std::string line;
    while (next_raw(line)) {
      if (!line.empty() && line[0] == '%') continue;
      tokens = tokens_of(line);
      if (!tokens.empty()) return true;
    }
    return false;
  }
  bool next_raw(std::string& line) {
    if (!next_line_(line)) return false;
    ++line_;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find('\0') != std::string::npos) fail("holds a NUL byte; Matrix Market files are text");
    return true;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(name_ + ":" + std::to_string(line_) + ": " + what);
  }
  [[noreturn]] void fail_at_end(const std::string& what) const { throw Error(name_ + ": " + what); }

  std::size_t index(const std::string& t, std::size_t limit, const char* what) const {
    const auto v = parse_unsigned(t, false, limit);
    if (!v || *v == 0)
      fail(std::string(what) + " '" + t + "' is not a whole number from 1 to " + std::to_string(limit));
    return static_cast<std::size_t>(*v - 1);
  }
  std::size_t count(const std::string& t, const char* what) const {
    const auto v = parse_unsigned(t);
    if (!v || *v > SIZE_MAX) fail(std::string(what) + " '" + t + "' is not a whole number");
    return static_cast<std::size_t>(*v);
  }
  double number(const std::string& t, Field field) const {
    if (field == Field::integer) {
      // Digits with an optional sign, held exactly as a double (2^53).
      const bool negative = t[0] == '-';
      const std::string digits = t[0] == '-' || t[0] == '+' ? t.substr(1) : t;
      const auto v = parse_unsigned(digits, false, 9007199254740992ull);
      if (!v) fail("integer value '" + t + "' is not a whole number of magnitude at most 2^53");
      const double d = static_cast<double>(*v);
      return negative ? -d : d;
    }
    // from_chars: the C locale whatever the program set (strtod would read
    // "1,5" under a German locale and stop at "1.5").
    const char* begin = t.c_str() + (t.size() > 1 && t[0] == '+' ? 1 : 0);
    const char* end = t.c_str() + t.size();
    double d = 0;
    const auto [stop, err] = std::from_chars(begin, end, d);
    if (err == std::errc::result_out_of_range) fail("value '" + t + "' lies outside the range of double");
    if (err != std::errc() || stop != end) fail("value '" + t + "' is not a number");
    if (!std::isfinite(d)) fail("value '" + t + "' is not a finite number");
    return d;
  }
  std::size_t line() const { return line_; }

 private:
  std::function<bool(std::string&)> next_line_;
  std::string name_;
  std::size_t line_ = 0;
};

// The banner's word `written` (any case) as one of `known`; a word the
// format defines but portacl does not take fails with its own reason
// (`refused`: the word, why), any other with `unknown`.
template <class E>
E banner_word(const Reader& in, const std::string& written, std::initializer_list<std::pair<const char*, E>> known,
              std::pair<const char*, const char*> refused, const std::string& unknown) {
  const std::string word = lower(written);
  for (const auto& [name, value] : known)
    if (word == name) return value;
  if (refused.first && word == refused.first) in.fail(refused.second);
  in.fail(unknown);
}

void read_banner(Reader& in, MatrixMarket& m) {
  std::string line;
  if (!in.next_raw(line)) in.fail_at_end("is empty; a Matrix Market file starts with '%%MatrixMarket matrix ...'");
  const std::vector<std::string> t = tokens_of(line);
  if (t.empty() || t[0] != "%%MatrixMarket")
    in.fail("does not start with the banner '%%MatrixMarket matrix <format> <field> <symmetry>'");
  if (t.size() != 5) in.fail("the banner has " + std::to_string(t.size()) + " words, not 5");
  if (lower(t[1]) != "matrix") in.fail("object '" + t[1] + "' is not supported (only 'matrix')");
  m.format = banner_word<Format>(in, t[2], {{"coordinate", Format::coordinate}, {"array", Format::array}}, {},
                                 "format '" + t[2] + "' is neither 'coordinate' nor 'array'");
  m.field = banner_word<Field>(
      in, t[3],
      {{"real", Field::real}, {"double", Field::real}, {"integer", Field::integer}, {"pattern", Field::pattern}},
      {"complex", "complex matrices are not supported (fields: real, integer, pattern)"},
      "field '" + t[3] + "' is not one of real, integer, pattern");
  m.symmetry = banner_word<Symmetry>(in, t[4],
                                     {{"general", Symmetry::general},
                                      {"symmetric", Symmetry::symmetric},
                                      {"skew-symmetric", Symmetry::skew_symmetric}},
                                     {"hermitian", "Hermitian matrices are complex, which is not supported"},
                                     "symmetry '" + t[4] + "' is not one of general, symmetric, skew-symmetric");
  if (m.field == Field::pattern && m.format == Format::array) in.fail("an array file cannot have the pattern field");
  if (m.field == Field::pattern && m.symmetry == Symmetry::skew_symmetric)
    in.fail("a pattern file cannot be skew-symmetric (its values are all 1)");
}

// The number of stored entries the size line announces (or implies).
std::size_t read_size_line(Reader& in, MatrixMarket& m) {
  std::vector<std::string> t;
  if (!in.next_data(t)) in.fail_at_end("ends before its size line");
  const std::size_t words = m.format == Format::coordinate ? 3 : 2;
  if (t.size() != words)
    in.fail("the size line has " + std::to_string(t.size()) + " numbers, not " + std::to_string(words) +
            (m.format == Format::coordinate ? " (rows, columns, entries)" : " (rows, columns)"));
  m.rows = in.count(t[0], "row count");
  m.cols = in.count(t[1], "column count");
  if (m.rows > kMaxSparseDimension || m.cols > kMaxSparseDimension)
    in.fail(std::to_string(m.rows) + " x " + std::to_string(m.cols) + " exceeds the largest dimension, " +
            std::to_string(kMaxSparseDimension) + " (32-bit indices)");
  if (m.symmetry != Symmetry::general && m.rows != m.cols)
    in.fail("a " + std::string(m.symmetry == Symmetry::symmetric ? "symmetric" : "skew-symmetric") +
            " matrix must be square, not " + std::to_string(m.rows) + " x " + std::to_string(m.cols));
  if (m.format == Format::array) {
    // Every element, or the (strict) lower triangle.
    const std::size_t n = m.cols;
    if (m.symmetry == Symmetry::symmetric) return n % 2 == 0 ? (n / 2) * (n + 1) : n * ((n + 1) / 2);
    if (m.symmetry == Symmetry::skew_symmetric)
      return n == 0 ? 0 : (n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2));
    return checked_product(m.rows, m.cols, "Matrix Market array");
  }
  // Duplicates are legal (they add), so the count is not bounded by the
  // matrix's places; memory is bounded by the file instead (parse).
  return in.count(t[2], "entry count");
}

void check_triangle(const Reader& in, const MatrixMarket& m, std::size_t i, std::size_t j) {
  if (m.symmetry == Symmetry::symmetric && i < j)
    in.fail("entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
            ") lies above the diagonal; a symmetric file stores the lower triangle only");
  if (m.symmetry == Symmetry::skew_symmetric && i <= j)
    in.fail("entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
            ") is not below the diagonal; a skew-symmetric file stores the strict lower triangle only");
}

MatrixMarket parse(Reader& in, std::size_t bytes_hint) {
  MatrixMarket m;
  read_banner(in, m);
  const std::size_t entries = read_size_line(in, m);
  // The size line is not trusted with memory: reserve no more than the
  // file's bytes could hold (an entry takes at least two).
  const std::size_t reserve = std::min(entries, bytes_hint / 2 + 1);
  m.row.reserve(reserve);
  m.col.reserve(reserve);
  m.value.reserve(reserve);
  const std::size_t words = m.format == Format::array ? 1 : (m.field == Field::pattern ? 2 : 3);
  std::size_t next_row = 0, next_col = 0;  // an array's place, column by column
  if (m.format == Format::array && m.symmetry == Symmetry::skew_symmetric) next_row = 1;
  std::vector<std::string> t;
  for (std::size_t k = 0; k < entries; ++k) {
    if (!in.next_data(t))
      in.fail_at_end("ends after " + std::to_string(k) + " of the " + std::to_string(entries) +
                     " entries its size line announces (line " + std::to_string(in.line()) + ")");
    if (t.size() != words)
      in.fail("entry " + std::to_string(k + 1) + " has " + std::to_string(t.size()) + " numbers, not " +
              std::to_string(words));
    std::size_t i, j;
    if (m.format == Format::array) {
      i = next_row;
      j = next_col;
      // Column by column: the lower triangle of symmetric matrices, the
      // strict lower one of skew-symmetric ones.
      if (++next_row == m.rows) {
        ++next_col;
        next_row = m.symmetry == Symmetry::general ? 0 : next_col + (m.symmetry == Symmetry::skew_symmetric ? 1 : 0);
      }
    } else {
      i = in.index(t[0], m.rows, "row index");
      j = in.index(t[1], m.cols, "column index");
      check_triangle(in, m, i, j);
    }
    m.row.push_back(static_cast<std::uint32_t>(i));
    m.col.push_back(static_cast<std::uint32_t>(j));
    m.value.push_back(m.field == Field::pattern ? 1.0 : in.number(t[words - 1], m.field));
  }
  if (in.next_data(t)) in.fail("holds more entries than the " + std::to_string(entries) + " its size line announces");
  return m;
}

// The shortest text that reads back as exactly `v` (to_chars: no locale);
// integers without an exponent.
std::string number_text(double v, Field field) {
  char buf[40];
  const auto [end, err] = field == Field::integer ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                                                  : std::to_chars(buf, buf + sizeof buf, v);
  return err == std::errc() ? std::string(buf, end) : std::string("nan");
}

}  // namespace

CooEntries general_entries(const MatrixMarket& m) {
  CooEntries e;
  e.rows = m.rows;
  e.cols = m.cols;
  const bool mirrored = m.symmetry != Symmetry::general;
  const std::size_t most = mirrored ? checked_product(m.stored(), 2, "Matrix Market entries") : m.stored();
  e.row.reserve(most);
  e.col.reserve(most);
  e.value.reserve(most);
  for (std::size_t k = 0; k < m.stored(); ++k) {
    const double v = m.value[k];
    if (m.format == Format::array && v == 0.0) continue;
    e.row.push_back(m.row[k]);
    e.col.push_back(m.col[k]);
    e.value.push_back(v);
    if (mirrored && m.row[k] != m.col[k]) {
      e.row.push_back(m.col[k]);
      e.col.push_back(m.row[k]);
      e.value.push_back(m.symmetry == Symmetry::skew_symmetric ? -v : v);
    }
  }
  return e;
}

MatrixMarket parse_matrix_market(const std::string& text, const std::string& name) {
  std::istringstream stream(text);
  Reader in([&](std::string& line) { return static_cast<bool>(std::getline(stream, line)); }, name);
  return parse(in, text.size());
}

MatrixMarket read_matrix_market(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw Error("cannot read Matrix Market file '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw Error("Matrix Market file '" + path + "' is not a regular file");
  std::ifstream file(path);
  if (!file) throw Error("cannot open Matrix Market file '" + path + "': " + std::strerror(errno));
  Reader in([&](std::string& line) { return static_cast<bool>(std::getline(file, line)); }, path);
  MatrixMarket m = parse(in, static_cast<std::size_t>(st.st_size));
  if (file.bad()) throw Error("reading Matrix Market file '" + path + "' failed: " + std::strerror(errno));
  return m;
}

std::string format_matrix_market(const MatrixMarket& m) {
  static const char* formats[] = {"coordinate", "array"};
  static const char* fields[] = {"real", "integer", "pattern"};
  static const char* symmetries[] = {"general", "symmetric", "skew-symmetric"};
  std::string out = std::string("%%MatrixMarket matrix ") + formats[int(m.format)] + " " + fields[int(m.field)] + " " +
                    symmetries[int(m.symmetry)] + "\n% written by portacl\n";
  out += std::to_string(m.rows) + " " + std::to_string(m.cols);
  if (m.format == Format::coordinate) out += " " + std::to_string(m.stored());
  out += "\n";
  for (std::size_t k = 0; k < m.stored(); ++k) {
    if (m.format == Format::coordinate) {
      out += std::to_string(m.row[k] + std::uint64_t{1}) + " " + std::to_string(m.col[k] + std::uint64_t{1});
      if (m.field != Field::pattern) out += " ";
    }
    if (m.field != Field::pattern) out += number_text(m.value[k], m.field);
    out += "\n";
  }
  return out;
}

void write_matrix_market(const std::string& path, const MatrixMarket& m) {
  const std::string why = files::write_atomically(path, format_matrix_market(m));
  if (!why.empty()) throw Error("cannot write Matrix Market file '" + path + "': " + why);
}

}  // namespace portacl
