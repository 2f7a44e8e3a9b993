// SPDX-License-Identifier: Apache-2.0
// y[i] = x[index[i]] for i < y.size(): a library-internal call (the
// indices come from the library, in range; a user's could read anywhere).
#pragma once

#include <cstdint>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"

namespace portacl {

template <class T>
void gather(Context& ctx, const Buffer<std::uint32_t>& index, const Buffer<T>& x, Buffer<T>& y);

}  // namespace portacl
