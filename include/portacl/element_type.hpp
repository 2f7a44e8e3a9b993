// SPDX-License-Identifier: Apache-2.0
/// \file
/// The element types kernels compute in, with their OpenCL C names and
/// sizes: the lowest layer, so that device descriptions, traits, plans and
/// buffers all speak of the same types.
#pragma once

#include <cstddef>
#include <string>

namespace portacl {

/// The element types kernels are planned for: signed integers of 8 to 64
/// bits, floats of 16, 32 and 64 bits, and unsigned integers of 32 and 64
/// bits (after the others, so that the first seven keep their values).
enum class ElementType { i8, i16, i32, i64, f16, f32, f64, u32, u64 };
/// "i8" ... "f64", as tuning records and tools print it.
std::string to_string(ElementType t);
std::string cl_type_name(ElementType t);  ///< "float", "double", ...
/// Bytes an element takes.
std::size_t size_of(ElementType t);

}  // namespace portacl
