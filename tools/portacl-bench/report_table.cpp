// SPDX-License-Identifier: Apache-2.0
#include "report_table.hpp"

#include <cstdio>
#include <stdexcept>

namespace bench {

using portacl::Json;

namespace {

std::string fixed(double v, int precision) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", precision, v);
  return b;
}

std::string pad(const std::string& s, int width) {
  const std::size_t w = static_cast<std::size_t>(width < 0 ? -width : width);
  if (s.size() >= w) return s;
  return width < 0 ? s + std::string(w - s.size(), ' ') : std::string(w - s.size(), ' ') + s;
}

// The value at a dotted path of `row`, made on the way.
Json& at_path(Json& row, const std::string& path) {
  Json* node = &row;
  std::size_t from = 0;
  for (std::size_t dot; (dot = path.find('.', from)) != std::string::npos; from = dot + 1)
    node = &(*node)[path.substr(from, dot - from)];
  return (*node)[path.substr(from)];
}

// A value as one CSV cell: strings quoted (quotes doubled), objects as their JSON.
std::string csv_cell(const Json& v) {
  if (v.is_number()) return v.dump(0);
  std::string s = v.is_string() ? v.as_string() : v.dump(0), q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

Field text_field(std::string key, std::string header, int width) {
  return {std::move(key), std::move(header), width, [](const Json& v) { return v.as_string(); }};
}

Field number_field(std::string key, std::string header, int width, int precision) {
  return {std::move(key), std::move(header), width,
          [precision](const Json& v) { return fixed(v.as_number(), precision); }};
}

Field ratio_field(std::string key, std::string header, int width) {
  return {std::move(key), std::move(header), width, [](const Json& v) { return fixed(v.as_number(), 2) + "x"; }};
}

Field percent_field(std::string key, std::string header, int width) {
  return {std::move(key), std::move(header), width, [](const Json& v) { return fixed(100 * v.as_number(), 1) + "%"; }};
}

Field error_field(std::string key, std::string header, int width) {
  return {std::move(key), std::move(header), width, [](const Json& v) {
            char text[32];
            std::snprintf(text, sizeof text, "%.2e", v.as_number());
            return std::string(text);
          }};
}

Field size_field(std::string key, std::string header, int width) {
  return {std::move(key), std::move(header), width, [](const Json& v) {
            const std::uint64_t n = v.as_u64();
            for (unsigned k = 10; k < 40; ++k)
              if (n == (std::uint64_t{1} << k)) return "2^" + std::to_string(k);
            return std::to_string(n);
          }};
}

Field median_field(std::string key, std::string header, int width, int precision) {
  return {std::move(key), std::move(header), width,
          [precision](const Json& v) { return fixed(v.find("median_ms")->as_number(), precision); }};
}

Field spread_field(std::string header, int width) {
  return {"", std::move(header), width, [](const Json& v) {
            return fixed(v.find("min_ms")->as_number(), 4) + "-" + fixed(v.find("max_ms")->as_number(), 4);
          }};
}

Field separator_field() {
  return {"", "|", 1, [](const Json& v) { return v.as_string(); }};
}

const Json separator("|");

Json stats_value(const Stats& s) {
  Json j = portacl::to_json(s);  // min, median, max, repetitions
  Json times = Json::array();
  for (double t : s.times_ms) times.push_back(t);
  j["times_ms"] = std::move(times);  // every repetition in the order taken: any other statistic from these
  return j;
}

void Table::add(std::vector<Json> row) {
  if (row.size() != fields.size())
    throw std::logic_error("bench table " + name + ": a row of " + std::to_string(row.size()) + " values for " +
                           std::to_string(fields.size()) + " fields");
  rows.push_back(std::move(row));
}

void print_text(std::ostream& out, const Table& t) {
  if (t.rows.empty()) return;
  out << "\n" << t.heading << "\n ";
  for (const Field& f : t.fields)
    if (!f.header.empty()) out << ' ' << pad(f.header, f.width);
  out << "\n";
  for (const auto& row : t.rows) {
    out << ' ';
    for (std::size_t i = 0; i < t.fields.size(); ++i) {
      const Field& f = t.fields[i];
      if (f.header.empty()) continue;
      out << ' ' << pad(row[i].is_null() ? std::string() : f.text(row[i]), f.width);
    }
    out << "\n";
  }
}

Json to_json(const Table& t) {
  Json list = Json::array();
  for (const auto& row : t.rows) {
    Json e = Json::object();
    for (std::size_t i = 0; i < t.fields.size(); ++i)
      if (!t.fields[i].key.empty() && !row[i].is_null()) at_path(e, t.fields[i].key) = row[i];
    list.push_back(e);
  }
  return list;
}

void print_csv(std::ostream& out, const std::string& run, const Table& t) {
  for (std::size_t r = 0; r < t.rows.size(); ++r)
    for (std::size_t i = 0; i < t.fields.size(); ++i)
      if (!t.fields[i].key.empty() && !t.rows[r][i].is_null())
        out << run << ',' << t.name << ',' << r << ',' << t.fields[i].key << ',' << csv_cell(t.rows[r][i]) << "\n";
}

}  // namespace bench
