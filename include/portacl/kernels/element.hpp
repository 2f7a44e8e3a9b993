// SPDX-License-Identifier: Apache-2.0
/// \file
/// The ElementType of a host type, for the typed kernel APIs.
#pragma once

#include <type_traits>

#include "portacl/device/device_info.hpp"

namespace portacl {

template <class T>
struct element_of;
template <>
struct element_of<float> {
  static constexpr ElementType value = ElementType::f32;
};
template <>
struct element_of<double> {
  static constexpr ElementType value = ElementType::f64;
};
template <>
struct element_of<int> {
  static constexpr ElementType value = ElementType::i32;
};

/// The element types an operation is built for (its template's second
/// parameter, defaulted): a call with another type stops at compile time
/// here, naming the type and the list, instead of failing to link.
template <class T, class... Built>
struct built_for {
  static_assert((std::is_same<T, Built>::value || ...),
                "portacl: this operation is not built for this element type; the error's context shows "
                "built_for<your type, the types it is built for>");
  using type = void;
};
template <class T, class... Built>
using only_for = typename built_for<T, Built...>::type;

}  // namespace portacl
