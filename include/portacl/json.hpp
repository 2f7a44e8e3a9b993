// SPDX-License-Identifier: Apache-2.0
/// \file
/// A small JSON value, the form of device descriptions, plans and tuning records.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

// ---- json --------------------------------------------------------------------
/// A small JSON value: enough for device descriptions, plans and (later) the
/// tuning database. Kept in-house because the dependency list is fixed to
/// Debian's OpenCL/CLBlast/Catch2 packages.
namespace portacl {

class Json {
 public:
  enum class Kind { null, boolean, number, string, array, object };
  using Array = std::vector<Json>;
  /// std::map keeps keys sorted, so dumps are deterministic and diff-friendly.
  using Object = std::map<std::string, Json>;

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : kind_(Kind::boolean), bool_(b) {}
  Json(int v) : kind_(Kind::number), num_(v) {}
  Json(unsigned v) : kind_(Kind::number), num_(v) {}
  Json(long v) : kind_(Kind::number), num_(static_cast<double>(v)) {}
  Json(unsigned long v) : kind_(Kind::number), num_(static_cast<double>(v)) {}
  Json(long long v) : kind_(Kind::number), num_(static_cast<double>(v)) {}
  Json(unsigned long long v) : kind_(Kind::number), num_(static_cast<double>(v)) {}
  Json(double v) : kind_(Kind::number), num_(v) {}
  Json(const char* s) : kind_(Kind::string), str_(s) {}
  Json(std::string s) : kind_(Kind::string), str_(std::move(s)) {}
  Json(Array a) : kind_(Kind::array), arr_(std::move(a)) {}
  Json(Object o) : kind_(Kind::object), obj_(std::move(o)) {}

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }

  /// Throws portacl::Error naming the offset and the problem.
  static Json parse(const std::string& text);
  std::string dump(int indent = 2) const;

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::null; }
  bool is_object() const { return kind_ == Kind::object; }
  bool is_array() const { return kind_ == Kind::array; }
  bool is_string() const { return kind_ == Kind::string; }
  bool is_number() const { return kind_ == Kind::number; }
  bool is_bool() const { return kind_ == Kind::boolean; }

  /// Typed accessors throw portacl::Error with `what` in the message when the
  /// kind does not match, so a malformed description names the bad field.
  bool as_bool(const char* what = "value") const;
  double as_number(const char* what = "value") const;
  std::uint64_t as_u64(const char* what = "value") const;
  const std::string& as_string(const char* what = "value") const;
  const Array& as_array(const char* what = "value") const;
  const Object& as_object(const char* what = "value") const;

  /// Object access; operator[] on a null value turns it into an object.
  Json& operator[](const std::string& key);
  const Json* find(const std::string& key) const;
  bool contains(const std::string& key) const { return find(key) != nullptr; }
  void push_back(Json v);

 private:
  void dump_to(std::string& out, int indent, int depth) const;

  Kind kind_ = Kind::null;
  bool bool_ = false;
  double num_ = 0;
  std::string str_;
  /// Value members (libstdc++ allows containers of the incomplete type), so a
  /// copied Json never aliases the original.
  Array arr_;
  Object obj_;
};

}  // namespace portacl
