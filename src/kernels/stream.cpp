// SPDX-License-Identifier: Apache-2.0
#include "portacl/vectors.hpp"

#include "kernel_call.hpp"
#include "kernels/stream_tunables.hpp"

namespace portacl {

KernelRef stream_kernel(const std::string& entry) { return KernelRef{"stream.cl", entry, ""}; }

KernelRef map_kernel(const std::string& expression, ElementType element) {
  // The expression becomes a macro in front of stream.cl; the source hash
  // (and so the binary cache key) includes it.
  return KernelRef{"map.cl", "map", "#define MAP_EXPR(x) (" + expression + ")\n#include \"stream.cl\"\n",
                   kernel_call::expression_flags(element)};
}

// The two-operand map: y an array, or one value (`scalar`).
KernelRef map2_kernel(const std::string& expression, ElementType element, bool scalar) {
  return KernelRef{"map2.cl", "map2",
                   "#define MAP2_EXPR(x, y) (" + expression + ")\n#define MAP2_SCALAR " + (scalar ? "1" : "0") +
                       "\n#include \"stream.cl\"\n",
                   kernel_call::expression_flags(element)};
}

using kernel_call::launch_1d;

template <class T, class>
LaunchPlan copy(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& o) {
  kernel_call::same_context(ctx, x, "copy", "x");
  kernel_call::same_context(ctx, y, "copy", "y");
  kernel_call::same_length("copy", "x", x.size(), "y", y.size());
  aliasing::refuse_shifted_overlap("copy", aliasing::whole(y), "y", aliasing::whole(x), "x");
  return launch_1d(ctx, stream_kernel("copy"), stream_traits("copy", element_of<T>::value, 2, 0), x.size(), o, x, y);
}

template <class T, class>
LaunchPlan fill(Context& ctx, Buffer<T>& y, T value, const PlanOptions& o) {
  kernel_call::same_context(ctx, y, "fill", "y");
  return launch_1d(ctx, stream_kernel("fill"), stream_traits("fill", element_of<T>::value, 1, 0), y.size(), o, value,
                   y);
}

template <class T, class>
LaunchPlan scale(Context& ctx, T a, Buffer<T>& y, const PlanOptions& o) {
  kernel_call::same_context(ctx, y, "scale", "y");
  return launch_1d(ctx, stream_kernel("scale"), stream_traits("scale", element_of<T>::value, 2, 1), y.size(), o, a, y);
}

template <class T, class>
LaunchPlan axpby(Context& ctx, T a, const Buffer<T>& x, T b, Buffer<T>& y, const PlanOptions& o) {
  kernel_call::same_context(ctx, x, "axpby", "x");
  kernel_call::same_context(ctx, y, "axpby", "y");
  kernel_call::same_length("axpby", "x", x.size(), "y", y.size());
  aliasing::refuse_shifted_overlap("axpby", aliasing::whole(y), "y", aliasing::whole(x), "x");
  return launch_1d(ctx, stream_kernel("axpby"), stream_traits("axpby", element_of<T>::value, 3, 3), x.size(), o, a, x,
                   b, y);
}

template <class T, class>
LaunchPlan map(Context& ctx, const std::string& expression, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& o) {
  kernel_call::same_context(ctx, x, "map", "x");
  kernel_call::same_context(ctx, y, "map", "y");
  kernel_call::same_length("map", "x", x.size(), "y", y.size());
  aliasing::refuse_shifted_overlap("map", aliasing::whole(y), "y", aliasing::whole(x), "x");
  kernel_call::check_expression("map", "expression", expression);
  return launch_1d(ctx, map_kernel(expression, element_of<T>::value), stream_traits("map", element_of<T>::value, 2, 1),
                   x.size(), o, x, y);
}

template <class T, class>
LaunchPlan map(Context& ctx, const std::string& expression, const Buffer<T>& x, const Buffer<T>& y, Buffer<T>& z,
               const PlanOptions& o) {
  kernel_call::same_context(ctx, x, "map", "x");
  kernel_call::same_context(ctx, y, "map", "y");
  kernel_call::same_context(ctx, z, "map", "z");
  kernel_call::same_length("map", "x", x.size(), "y", y.size());
  kernel_call::same_length("map", "x", x.size(), "z", z.size());
  aliasing::refuse_shifted_overlap("map", aliasing::whole(z), "z", aliasing::whole(x), "x");
  aliasing::refuse_shifted_overlap("map", aliasing::whole(z), "z", aliasing::whole(y), "y");
  kernel_call::check_expression("map", "expression", expression);
  return launch_1d(ctx, map2_kernel(expression, element_of<T>::value, false),
                   stream_traits("map2", element_of<T>::value, 3, 1), x.size(), o, x, y, z);
}

template <class T, class>
LaunchPlan map(Context& ctx, const std::string& expression, const Buffer<T>& x, T y, Buffer<T>& z,
               const PlanOptions& o) {
  kernel_call::same_context(ctx, x, "map", "x");
  kernel_call::same_context(ctx, z, "map", "z");
  kernel_call::same_length("map", "x", x.size(), "z", z.size());
  aliasing::refuse_shifted_overlap("map", aliasing::whole(z), "z", aliasing::whole(x), "x");
  kernel_call::check_expression("map", "expression", expression);
  return launch_1d(ctx, map2_kernel(expression, element_of<T>::value, true),
                   stream_traits("map2", element_of<T>::value, 2, 1), x.size(), o, x, y, z);
}

#define PORTACL_STREAM_ANY_INSTANTIATE(T)                                                                     \
  template LaunchPlan copy<T>(Context&, const Buffer<T>&, Buffer<T>&, const PlanOptions&);                    \
  template LaunchPlan fill<T>(Context&, Buffer<T>&, T, const PlanOptions&);                                   \
  template LaunchPlan map<T>(Context&, const std::string&, const Buffer<T>&, Buffer<T>&, const PlanOptions&); \
  template LaunchPlan map<T>(Context&, const std::string&, const Buffer<T>&, const Buffer<T>&, Buffer<T>&,    \
                             const PlanOptions&);                                                             \
  template LaunchPlan map<T>(Context&, const std::string&, const Buffer<T>&, T, Buffer<T>&, const PlanOptions&);
#define PORTACL_STREAM_REAL_INSTANTIATE(T)                                   \
  template LaunchPlan scale<T>(Context&, T, Buffer<T>&, const PlanOptions&); \
  template LaunchPlan axpby<T>(Context&, T, const Buffer<T>&, T, Buffer<T>&, const PlanOptions&);
PORTACL_STREAM_ANY_INSTANTIATE(float)
PORTACL_STREAM_ANY_INSTANTIATE(double)
PORTACL_STREAM_ANY_INSTANTIATE(int)
PORTACL_STREAM_ANY_INSTANTIATE(std::int64_t)
PORTACL_STREAM_ANY_INSTANTIATE(std::uint32_t)
PORTACL_STREAM_ANY_INSTANTIATE(std::uint64_t)
PORTACL_STREAM_REAL_INSTANTIATE(float)
PORTACL_STREAM_REAL_INSTANTIATE(double)

}  // namespace portacl
