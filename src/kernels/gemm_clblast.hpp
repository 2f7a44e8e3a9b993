// SPDX-License-Identifier: Apache-2.0
// GEMM's second backend: CLBlast's Xgemm on the context's queue, with the
// library's own argument checks already done by the caller.
#pragma once

#include <cstddef>

#include "portacl/blas.hpp"

namespace portacl {
namespace clblast_backend {

template <class T>
void gemm(Context& ctx, Layout layout, Transpose ta, Transpose tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
          MatrixRef<T> a, MatrixRef<T> b, T beta, Buffer<T>& c, std::size_t offc, std::size_t ldc);

}  // namespace clblast_backend
}  // namespace portacl
