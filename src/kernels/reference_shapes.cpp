// SPDX-License-Identifier: Apache-2.0
#include "kernels/reference_shapes.hpp"

#include "portacl/vectors.hpp"
#include "portacl/blas.hpp"
#include "kernels/stream_tunables.hpp"
#include "kernels/reduce_tunables.hpp"
#include "kernels/gemm_tunables.hpp"

namespace portacl {

std::vector<ReferenceShape> reference_shapes(bool with_fp64) {
  const ProblemSize n24(std::size_t{1} << 24);
  std::vector<ReferenceShape> s;
  s.push_back({"axpy float, n=2^24", axpy_traits(ElementType::f32), n24});
  if (with_fp64) s.push_back({"axpy double, n=2^24", axpy_traits(ElementType::f64), n24});
  s.push_back({"sum float, n=2^24", reduce_traits("sum", ElementType::f32, 1, sizeof(float), true, 1), n24});
  s.push_back({"gemm float, 4096x4096", gemm_traits(ElementType::f32), ProblemSize(4096, 4096)});
  return s;
}

}  // namespace portacl
