// SPDX-License-Identifier: Apache-2.0
#include "portacl/json.hpp"

#include <cmath>
#include <cstdio>
#include <cctype>
#include <cstdlib>

#include "portacl/error.hpp"

namespace portacl {
namespace {

const char* kind_name(Json::Kind k) {
  switch (k) {
    case Json::Kind::null: return "null";
    case Json::Kind::boolean: return "boolean";
    case Json::Kind::number: return "number";
    case Json::Kind::string: return "string";
    case Json::Kind::array: return "array";
    case Json::Kind::object: return "object";
  }
  return "?";
}

[[noreturn]] void type_error(const char* what, const char* want, Json::Kind got) {
  throw Error(std::string("JSON: ") + what + " must be a " + want + ", found " + kind_name(got));
}

class Parser {
 public:
  explicit Parser(const std::string& t) : text_(t) {}

  Json document() {
    // A UTF-8 byte-order mark (editors on Windows write one) is not content.
    if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
    skip_ws();
    Json v = value(0);
    skip_ws();
    if (pos_ != text_.size()) fail("trailing characters after the document");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    // Report line:column as well as the offset: people fix JSON in editors.
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw Error("JSON parse error at line " + std::to_string(line) + ", column " + std::to_string(col) + ": " + why);
  }

  void skip_ws() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  Json value(int depth) {
    if (depth > 200) fail("nesting deeper than 200 levels");
    switch (peek()) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return Json(string());
      case 't': literal("true"); return Json(true);
      case 'f': literal("false"); return Json(false);
      case 'n': literal("null"); return Json();
      case '\0': fail("unexpected end of input");
      default: return number();
    }
  }

  void literal(const char* word) {
    for (const char* p = word; *p; ++p) {
      if (peek() != *p) fail(std::string("invalid literal, expected '") + word + "'");
      ++pos_;
    }
  }

  Json number() {
    size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("invalid value");
    while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    if (peek() == '.') {
      ++pos_;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("digit expected after '.'");
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("digit expected in exponent");
      while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
    }
    return Json(std::strtod(text_.c_str() + start, nullptr));
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  static std::string hex_text(unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04X", v);
    return buf;
  }

  unsigned hex4() {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = peek();
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= c - '0';
      else if (c >= 'a' && c <= 'f')
        v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        v |= c - 'A' + 10;
      else
        fail("invalid \\u escape");
      ++pos_;
    }
    return v;
  }

  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      if (pos_ >= text_.size()) fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      char e = peek();
      ++pos_;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          // UTF-16 surrogates come in pairs (high then low); a lone one is
          // no character and would become invalid UTF-8.
          if (cp >= 0xDC00 && cp < 0xE000) fail("lone low surrogate \\u" + hex_text(cp) + " in string");
          if (cp >= 0xD800 && cp < 0xDC00) {
            if (peek() != '\\' || pos_ + 1 >= text_.size() || text_[pos_ + 1] != 'u')
              fail("lone high surrogate \\u" + hex_text(cp) + " in string (no low surrogate follows)");
            pos_ += 2;
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo >= 0xE000)
              fail("high surrogate \\u" + hex_text(cp) + " followed by \\u" + hex_text(lo) + ", not a low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default: fail("invalid escape in string");
      }
    }
  }

  Json array(int depth) {
    expect('[');
    Json::Array a;
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      return Json(std::move(a));
    }
    for (;;) {
      skip_ws();
      a.push_back(value(depth + 1));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect(']');
      return Json(std::move(a));
    }
  }

  Json object(int depth) {
    expect('{');
    Json::Object o;
    skip_ws();
    if (peek() == '}') {
      ++pos_;
      return Json(std::move(o));
    }
    for (;;) {
      skip_ws();
      if (peek() != '"') fail("object key must be a string");
      std::string key = string();
      skip_ws();
      expect(':');
      skip_ws();
      o[key] = value(depth + 1);
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      return Json(std::move(o));
    }
  }

  const std::string& text_;
  size_t pos_ = 0;
};

void dump_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

}  // namespace

Json Json::parse(const std::string& text) { return Parser(text).document(); }

std::string Json::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

void Json::dump_to(std::string& out, int indent, int depth) const {
  auto newline = [&](int d) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * d), ' ');
  };
  // An array or an object: its items one a line (when indenting), comma
  // separated, the closing bracket back at this depth; empty stays "[]".
  auto container = [&](const auto& items, char open, char close, auto&& item) {
    out += open;
    bool first = true;
    for (const auto& x : items) {
      if (!first) out += ',';
      first = false;
      newline(depth + 1);
      item(x);
    }
    if (!items.empty()) newline(depth);
    out += close;
  };
  switch (kind_) {
    case Kind::null: out += "null"; break;
    case Kind::boolean: out += bool_ ? "true" : "false"; break;
    case Kind::number: {
      if (!std::isfinite(num_)) {
        out += "null";
        break;
      }
      char buf[32];
      // Integers (sizes, counts) print exactly; other values round-trip.
      if (num_ == std::floor(num_) && std::fabs(num_) < 9.007199254740992e15)
        std::snprintf(buf, sizeof buf, "%.0f", num_);
      else
        std::snprintf(buf, sizeof buf, "%.17g", num_);
      out += buf;
      break;
    }
    case Kind::string: dump_string(out, str_); break;
    case Kind::array: container(arr_, '[', ']', [&](const Json& v) { v.dump_to(out, indent, depth + 1); }); break;
    case Kind::object:
      container(obj_, '{', '}', [&](const auto& kv) {
        dump_string(out, kv.first);
        out += indent > 0 ? ": " : ":";
        kv.second.dump_to(out, indent, depth + 1);
      });
      break;
  }
}

bool Json::as_bool(const char* what) const {
  if (kind_ != Kind::boolean) type_error(what, "boolean", kind_);
  return bool_;
}
double Json::as_number(const char* what) const {
  if (kind_ != Kind::number) type_error(what, "number", kind_);
  return num_;
}
std::uint64_t Json::as_u64(const char* what) const {
  double v = as_number(what);
  // 2^64 itself is the first double out of range (the cast would be
  // undefined behaviour); numbers read as doubles are exact below 2^53.
  if (!(v >= 0) || v != std::floor(v) || v >= 18446744073709551616.0)
    throw Error(std::string("JSON: ") + what + " must be a whole number from 0 to below 2^64, not " + Json(v).dump());
  return static_cast<std::uint64_t>(v);
}
const std::string& Json::as_string(const char* what) const {
  if (kind_ != Kind::string) type_error(what, "string", kind_);
  return str_;
}
const Json::Array& Json::as_array(const char* what) const {
  if (kind_ != Kind::array) type_error(what, "array", kind_);
  return arr_;
}
const Json::Object& Json::as_object(const char* what) const {
  if (kind_ != Kind::object) type_error(what, "object", kind_);
  return obj_;
}

Json& Json::operator[](const std::string& key) {
  if (kind_ == Kind::null) kind_ = Kind::object;
  if (kind_ != Kind::object) type_error("indexed value", "object", kind_);
  return obj_[key];
}

const Json* Json::find(const std::string& key) const {
  if (kind_ != Kind::object) return nullptr;
  auto it = obj_.find(key);
  return it == obj_.end() ? nullptr : &it->second;
}

void Json::push_back(Json v) {
  if (kind_ == Kind::null) kind_ = Kind::array;
  if (kind_ != Kind::array) type_error("appended-to value", "array", kind_);
  arr_.push_back(std::move(v));
}

}  // namespace portacl
