// SPDX-License-Identifier: Apache-2.0
// The streaming family's operations (copy, fill, scale, axpy, axpby, map over one
// operand, over two and over an array and a value; and over uint32),
// with CLBlast's Scopy, Sscal and Saxpy as baselines.
#include <cmath>

#include "../clblast_call.hpp"
#include "../host_reference.hpp"
#include "../family.hpp"
#include "portacl/vectors.hpp"
#include "kernels/stream_tunables.hpp"

namespace portacl {
namespace {

constexpr float kA = operation_a, kB = operation_b;
using Options = const PlanOptions&;

cl_command_queue* queue_of(Workload& w) { return &w.ctx.queue()(); }

// Exact operations compare bit for bit.
std::string exactly(const std::vector<float>& got, const std::vector<float>& want, const char* what) {
  return got == want ? std::string() : std::string(what) + " differs from the host";
}

std::vector<Operation> stream_operations() {
  const TuningSpace* space = &stream_tunables();
  auto poison = [](Workload& w) { w.poison_z(); };
  std::vector<BufferOperation> ops;
  ops.push_back({"copy", 8, 0, space, [](Workload& w, Options o) { return copy(w.ctx, w.x, w.z, o); }, poison,
                 [](Workload& w) { return exactly(w.z.download(), w.hx, "copy"); }, "Scopy",
                 [](Workload& w) {
                   clblast_call("Scopy", [&](cl_event* e) {
                     return CLBlastScopy(w.n, w.x.cl_buffer()(), 0, 1, w.z.cl_buffer()(), 0, 1, queue_of(w), e);
                   });
                 }});
  ops.push_back({"fill", 4, 0, space, [](Workload& w, Options o) { return fill(w.ctx, w.z, kA, o); }, poison,
                 [](Workload& w) { return exactly(w.z.download(), std::vector<float>(w.n, kA), "fill"); }});
  ops.push_back({"scale", 8, 1, space, [](Workload& w, Options o) { return scale(w.ctx, kA, w.y, o); }, nullptr,
                 [](Workload& w) { return reference::compare(w.y.download(), reference::scale(kA, w.hy), 1); }, "Sscal",
                 [](Workload& w) {
                   clblast_call("Sscal", [&](cl_event* e) {
                     return CLBlastSscal(w.n, kA, w.y.cl_buffer()(), 0, 1, queue_of(w), e);
                   });
                 }});
  ops.push_back(
      {"axpy", 12, 2, space, [](Workload& w, Options o) { return axpy(w.ctx, kA, w.x, w.y, o); }, nullptr,
       [](Workload& w) { return reference::compare(w.y.download(), reference::axpby(kA, w.hx, 1.0, w.hy), 2); },
       "Saxpy",
       [](Workload& w) {
         clblast_call("Saxpy", [&](cl_event* e) {
           return CLBlastSaxpy(w.n, kA, w.x.cl_buffer()(), 0, 1, w.y.cl_buffer()(), 0, 1, queue_of(w), e);
         });
       }});
  ops.push_back(
      {"axpby", 12, 3, space, [](Workload& w, Options o) { return axpby(w.ctx, kA, w.x, kB, w.y, o); }, nullptr,
       [](Workload& w) { return reference::compare(w.y.download(), reference::axpby(kA, w.hx, kB, w.hy), 3); }});
  ops.push_back(
      {"map x*x+1", 8, 2, space, [](Workload& w, Options o) { return map(w.ctx, "x * x + 1.0f", w.x, w.z, o); }, poison,
       [](Workload& w) {
         return reference::compare(w.z.download(), reference::map(w.hx, [](double v) { return v * v + 1; }), 2);
       }});
  // Two operands: x y - y over two arrays, and x a - a with a the kernel's argument.
  const auto product_less = [](double u, double v) {
    return reference::Exact{u * v - v, std::fabs(u * v) + std::fabs(v)};
  };
  ops.push_back({"map x*y-y", 12, 2, space,
                 [](Workload& w, Options o) { return map(w.ctx, "x * y - y", w.x, w.y, w.z, o); }, poison,
                 [product_less](Workload& w) {
                   return reference::compare(w.z.download(), reference::map2(w.hx, w.hy, product_less), 2);
                 }});
  ops.push_back({"map x*a-a", 8, 2, space,
                 [](Workload& w, Options o) { return map(w.ctx, "x * y - y", w.x, kA, w.z, o); }, poison,
                 [product_less](Workload& w) {
                   return reference::compare(w.z.download(),
                                             reference::map2(w.hx, std::vector<float>(w.n, kA), product_less), 2);
                 }});
  std::vector<Operation> out;
  for (BufferOperation& b : ops) out.push_back(make_operation(std::move(b)));
  // Unsigned integers (the workload's bit patterns): x y - y wraps modulo
  // 2^32 and must come back exact.
  auto run_uint32 = [](Workload& w, Options o) {
    Uint32Case& c = uint32_case(w);
    return map(w.ctx, "x * y - y", c.x, c.y, c.z, o);
  };
  out.push_back(Operation{"map x*y-y uint32", 12, 2, space, run_uint32, [run_uint32](Workload& w, Options o) {
                            Uint32Case& c = uint32_case(w);
                            c.poison_z();
                            run_uint32(w, o);
                            const std::vector<std::uint32_t> got = c.z.download();
                            const auto want = reference::integer_map(
                                [](unsigned __int128 u, unsigned __int128 v) { return u * v - v; }, c.hx, c.hy);
                            for (std::size_t i = 0; i < got.size(); ++i)
                              if (got[i] != static_cast<std::uint32_t>(want[i]))
                                return "map x*y-y uint32: element " + std::to_string(i) + " is " +
                                       std::to_string(got[i]) + ", want " +
                                       std::to_string(static_cast<std::uint32_t>(want[i]));
                            return std::string();
                          }});
  return out;
}

const FamilyRegistration streaming({"stream", 10, stream_operations});

}  // namespace
}  // namespace portacl
