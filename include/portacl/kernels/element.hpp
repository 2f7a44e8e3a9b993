// SPDX-License-Identifier: Apache-2.0
// The ElementType of a host type, for the typed kernel APIs.
#pragma once

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

}  // namespace portacl
