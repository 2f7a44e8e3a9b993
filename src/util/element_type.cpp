// SPDX-License-Identifier: Apache-2.0
#include "portacl/element_type.hpp"

namespace portacl {

std::string to_string(ElementType t) { return cl_type_name(t); }

std::string cl_type_name(ElementType t) {
  switch (t) {
    case ElementType::i8: return "char";
    case ElementType::i16: return "short";
    case ElementType::i32: return "int";
    case ElementType::i64: return "long";
    case ElementType::f16: return "half";
    case ElementType::f32: return "float";
    case ElementType::f64: return "double";
    case ElementType::u32: return "uint";
    case ElementType::u64: return "ulong";
  }
  return "?";
}

std::size_t size_of(ElementType t) {
  switch (t) {
    case ElementType::i8: return 1;
    case ElementType::i16:
    case ElementType::f16: return 2;
    case ElementType::i32:
    case ElementType::u32:
    case ElementType::f32: return 4;
    case ElementType::i64:
    case ElementType::u64:
    case ElementType::f64: return 8;
  }
  return 0;
}

}  // namespace portacl
