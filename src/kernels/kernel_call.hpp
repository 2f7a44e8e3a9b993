// SPDX-License-Identifier: Apache-2.0
// What every typed kernel call does before and at launch: check operands
// (same context, matching lengths) and set arguments in order.
#pragma once

#include <string>
#include <type_traits>

#include "portacl/error.hpp"
#include "rules/coverage_rules.hpp"
#include "util/checked.hpp"
#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "aliasing.hpp"

namespace portacl {
namespace kernel_call {

// Launch geometry: groups to cover `a` items in units of `b`, and `a`
// rounded up to a multiple of `b`.
// Neither wraps: sizes come from users (quirk-free arithmetic, issue 12).
inline std::size_t ceil_div(std::size_t a, std::size_t b) { return a / b + (a % b != 0); }
inline std::size_t round_up(std::size_t a, std::size_t b) { return checked_product(ceil_div(a, b), b, "padding"); }

// Work-items sharing one row (GEMV's TEAM, TRSV's TPR) combine in a
// power-of-two tree within the work-group: refused otherwise.
inline void check_row_team(const char* op, const char* knob, std::size_t team, std::size_t work_group) {
  if (team == 0 || team > work_group || work_group % team || (team & (team - 1)))
    throw Error(std::string(op) + ": " + knob + " " + std::to_string(team) +
                " must be a power of two dividing the work-group size " + std::to_string(work_group));
}

// A buffer holding fewer elements than a call needs: "op: name has 10
// elements; 3 x 4 signs needs 12".
inline void need_elements(const char* op, const char* name, std::size_t have, std::size_t need,
                          const std::string& why) {
  if (have < need)
    throw Error(std::string(op) + ": " + name + " has " + std::to_string(have) + " elements; " + why + " needs " +
                std::to_string(need));
}

inline void same_context(const Context& ctx, const BufferStorage& b, const char* op, const char* name) {
  if (&b.context() != &ctx) throw Error(std::string(op) + ": buffer " + name + " belongs to another context");
}

inline void same_length(const char* op, const char* a, std::size_t na, const char* b, std::size_t nb) {
  if (na != nb)
    throw Error(std::string(op) + ": " + a + " has " + std::to_string(na) + " elements but " + b + " has " +
                std::to_string(nb));
}

// A user's OpenCL C expression becomes a one-line macro in the kernel source.
inline void check_expression(const char* op, const char* what, const std::string& text) {
  if (text.find_first_not_of(" \t") == std::string::npos) throw Error(std::string(op) + ": the " + what + " is empty");
  if (text.find('\n') != std::string::npos || text.find('\r') != std::string::npos)
    throw Error(std::string(op) + ": the " + what + " must be one line");
}

inline void set(const PreparedKernel& k, unsigned i, const cl::Buffer& b) {
  detail::set_arg(k.kernel, k.name, i, sizeof(cl_mem), &b());
}
inline void set(const PreparedKernel& k, unsigned i, const BufferStorage& b) {
  detail::set_arg(k.kernel, k.name, i, sizeof(cl_mem), &b.cl_buffer()());
}
template <class S, class = std::enable_if_t<std::is_arithmetic<S>::value>>
void set(const PreparedKernel& k, unsigned i, const S& v) {
  detail::set_arg(k.kernel, k.name, i, sizeof v, &v);
}
// A __local pointer argument of `bytes` bytes, sized at launch (a
// run-time length, where a macro would build a program per length).
struct LocalBytes {
  std::size_t bytes;
};
inline void set(const PreparedKernel& k, unsigned i, const LocalBytes& l) {
  detail::set_arg(k.kernel, k.name, i, l.bytes, nullptr);
}
// OpenCL vector arguments (a box's lengths, a grid's extents).
inline void set(const PreparedKernel& k, unsigned i, const cl_float4& v) {
  detail::set_arg(k.kernel, k.name, i, sizeof v, &v);
}
inline void set(const PreparedKernel& k, unsigned i, const cl_int4& v) {
  detail::set_arg(k.kernel, k.name, i, sizeof v, &v);
}
inline void set(const PreparedKernel& k, unsigned i, const cl_double4& v) {
  detail::set_arg(k.kernel, k.name, i, sizeof v, &v);
}

// Compiler options for kernels built around a user's expression: in float,
// literals such as 0.75 are single precision, so "x > 0.75" compiles for
// float vectors and on devices without fp64 (the expression is the user's
// text; a double literal there is almost always meant as "this number").
inline std::string expression_flags(ElementType element) {
  return element == ElementType::f32 ? "-cl-single-precision-constant" : "";
}

// Sets every argument in order.
template <class... Args>
void set_args(const PreparedKernel& k, const Args&... args) {
  unsigned i = 0;
  (set(k, i++, args), ...);
}

// Sets every argument in order and launches.
template <class... Args>
void launch(Context& ctx, const PreparedKernel& k, const Args&... args) {
  set_args(k, args...);
  ctx.launch(k);
}

// Plans, builds and launches a 1D kernel over n elements whose first
// argument is n; an empty problem returns its (empty) plan without a launch.
template <class... Args>
LaunchPlan launch_1d(Context& ctx, const KernelRef& ref, const KernelTraits& traits, std::size_t n,
                     const PlanOptions& options, const Args&... args) {
  if (n == 0) return ctx.plan(traits, ProblemSize(0), options);
  PreparedKernel k = ctx.prepare(ref, traits, ProblemSize(n), options);
  launch(ctx, k, static_cast<cl_ulong>(n), args...);
  return k.plan;
}

}  // namespace kernel_call
}  // namespace portacl
