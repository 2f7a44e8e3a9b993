// SPDX-License-Identifier: Apache-2.0
// A section of portacl-bench's report, written once: its fields say what
// each value is called in JSON and how it reads in the text table, and the
// three renderings (text, JSON, CSV) all walk the same rows. A new section
// or column is one place, not three.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "../common/measure.hpp"
#include "portacl/json.hpp"

namespace bench {

struct Field {
  std::string key;     ///< JSON key; a dotted path nests ("clblast.gbs"); "": text only
  std::string header;  ///< the text table's column header; "": JSON and CSV only
  int width = 0;       ///< text width; negative: left-aligned
  std::function<std::string(const portacl::Json&)> text;  ///< the text of a value (never called on null)
};

// Fields of the usual kinds.
Field text_field(std::string key, std::string header, int width);
Field number_field(std::string key, std::string header, int width, int precision);
Field ratio_field(std::string key, std::string header, int width);                  ///< a speed-up: "1.25x"
Field percent_field(std::string key, std::string header, int width);                ///< a fraction, shown as percent
Field error_field(std::string key, std::string header, int width);                  ///< a relative error: "1.87e-07"
Field size_field(std::string key, std::string header, int width);                   ///< a count, 2^k where it is one
Field median_field(std::string key, std::string header, int width, int precision);  ///< Stats: its median
Field spread_field(std::string header, int width);                                  ///< Stats: min-max, text only
Field separator_field();  ///< " | " in the text table; its rows hold `separator`
extern const portacl::Json separator;

struct Table {
  std::string name;     ///< the JSON array's key: "kernels", "gemm", ...
  std::string heading;  ///< what the text table says above its rows
  std::vector<Field> fields;
  std::vector<std::vector<portacl::Json>> rows = {};  ///< one value per field; null: an empty cell, no key
  void add(std::vector<portacl::Json> row);
};

portacl::Json stats_value(const Stats& s);  ///< how every table stores a Stats

void print_text(std::ostream& out, const Table& t);
portacl::Json to_json(const Table& t);
/// Long format, one line per value: `run` (the run's own columns), the
/// table, the row, the field, the value.
void print_csv(std::ostream& out, const std::string& run, const Table& t);

}  // namespace bench
