// Dense matrix multiply: C = alpha * op(A) * op(B) + beta * C, float and
// double, row- or column-major, either operand transposed, leading
// dimensions and element offsets as in BLAS, any size (0 and 1 included).
// op(A) is m x k, op(B) k x n, C m x n. Errors, before any launch: a leading
// dimension shorter than a stored row (row-major) or column (column-major),
// a buffer too small for the stated shape, a buffer of another context.
#pragma once

#include <cstddef>

#include "portacl/kernels/element.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"
#include "portacl/tuning/tuning_space.hpp"

namespace portacl {

enum class Layout { row_major, column_major };
enum class Transpose { no, yes };

// A matrix operand as BLAS passes it: the buffer, the first element's
// offset and the leading dimension.
template <class T>
struct MatrixRef {
  const Buffer<T>& buffer;
  std::size_t offset;
  std::size_t ld;
};

// The family's declaration: what the rules see, and what may be tuned
// (register block WPT_M x WPT_N per work-item, TS_K-deep slices, local
// memory or not; the work-group shape comes from the rules).
KernelTraits gemm_traits(ElementType element);
const TuningSpace& gemm_tunables();

template <class T>
LaunchPlan gemm(Context& ctx, Layout layout, Transpose ta, Transpose tb, std::size_t m, std::size_t n,
                std::size_t k, T alpha, MatrixRef<T> a, MatrixRef<T> b, T beta, Buffer<T>& c, std::size_t offc,
                std::size_t ldc, const PlanOptions& options = {});

}  // namespace portacl
