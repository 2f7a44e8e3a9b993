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

/// A JSON value (above): null, a boolean, a number (a double), a string, an
/// array or an object.
class Json {
 public:
  /// What the value holds.
  enum class Kind { null, boolean, number, string, array, object };
  using Array = std::vector<Json>;  ///< an array's elements
  /// std::map keeps keys sorted, so dumps are deterministic and diff-friendly.
  using Object = std::map<std::string, Json>;

  Json() = default;                                                                  ///< null
  Json(std::nullptr_t) {}                                                            ///< null
  Json(bool b) : kind_(Kind::boolean), bool_(b) {}                                   ///< a boolean
  Json(int v) : kind_(Kind::number), num_(v) {}                                      ///< a number
  Json(unsigned v) : kind_(Kind::number), num_(v) {}                                 ///< a number
  Json(long v) : kind_(Kind::number), num_(static_cast<double>(v)) {}                ///< a number (exact to 2^53)
  Json(unsigned long v) : kind_(Kind::number), num_(static_cast<double>(v)) {}       ///< a number (exact to 2^53)
  Json(long long v) : kind_(Kind::number), num_(static_cast<double>(v)) {}           ///< a number (exact to 2^53)
  Json(unsigned long long v) : kind_(Kind::number), num_(static_cast<double>(v)) {}  ///< a number (exact to 2^53)
  Json(double v) : kind_(Kind::number), num_(v) {}                                   ///< a number
  Json(const char* s) : kind_(Kind::string), str_(s) {}                              ///< a string
  Json(std::string s) : kind_(Kind::string), str_(std::move(s)) {}                   ///< a string
  Json(Array a) : kind_(Kind::array), arr_(std::move(a)) {}                          ///< an array
  Json(Object o) : kind_(Kind::object), obj_(std::move(o)) {}                        ///< an object

  static Json array() { return Json(Array{}); }    ///< an empty array
  static Json object() { return Json(Object{}); }  ///< an empty object

  /// Throws portacl::Error naming the offset and the problem.
  static Json parse(const std::string& text);
  /// The text, `indent` spaces a level (0: one line).
  std::string dump(int indent = 2) const;

  Kind kind() const { return kind_; }                       ///< what it holds
  bool is_null() const { return kind_ == Kind::null; }      ///< null
  bool is_object() const { return kind_ == Kind::object; }  ///< an object
  bool is_array() const { return kind_ == Kind::array; }    ///< an array
  bool is_string() const { return kind_ == Kind::string; }  ///< a string
  bool is_number() const { return kind_ == Kind::number; }  ///< a number
  bool is_bool() const { return kind_ == Kind::boolean; }   ///< a boolean

  /// Typed accessors throw portacl::Error with `what` in the message when the
  /// kind does not match, so a malformed description names the bad field.
  bool as_bool(const char* what = "value") const;
  double as_number(const char* what = "value") const;  ///< the number
  /// The number as an unsigned integer: an error where it is negative,
  /// fractional or past 2^64.
  std::uint64_t as_u64(const char* what = "value") const;
  const std::string& as_string(const char* what = "value") const;  ///< the string
  const Array& as_array(const char* what = "value") const;         ///< the array's elements
  const Object& as_object(const char* what = "value") const;       ///< the object's members

  /// Object access; operator[] on a null value turns it into an object.
  Json& operator[](const std::string& key);
  /// The member `key` of an object, or nullptr (also for another kind).
  const Json* find(const std::string& key) const;
  bool contains(const std::string& key) const { return find(key) != nullptr; }  ///< whether find(key) is set
  /// Appends to an array (a null value becomes one).
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
