#include "portacl/rules/reference_shapes.hpp"

#include "portacl/kernels/axpy.hpp"
#include "portacl/kernels/reduce.hpp"

namespace portacl {

KernelTraits tiled_2d_shape_traits(ElementType element) {
  KernelTraits t;
  t.name = "tiled-2d";
  t.element = element;
  t.dimensions = 2;
  t.benefits_from_local_tiling = true;
  t.needs_barriers = true;
  t.has_barrier_free_variant = false;
  t.vectorizable = false;
  t.bytes_per_item = 2.0 * static_cast<double>(size_of(element));
  t.flops_per_item = 64;
  t.local_bytes_per_work_item = 2 * size_of(element);
  return t;
}

std::vector<ReferenceShape> reference_shapes(bool with_fp64) {
  const ProblemSize n24(std::size_t{1} << 24);
  std::vector<ReferenceShape> s;
  s.push_back({"axpy float, n=2^24", axpy_traits(ElementType::f32), n24});
  if (with_fp64) s.push_back({"axpy double, n=2^24", axpy_traits(ElementType::f64), n24});
  s.push_back({"sum float, n=2^24", reduce_traits("sum", ElementType::f32, 1, sizeof(float), true, 1), n24});
  s.push_back({"tiled 2D float, 4096x4096", tiled_2d_shape_traits(ElementType::f32), ProblemSize(4096, 4096)});
  return s;
}

}  // namespace portacl
