// SPDX-License-Identifier: Apache-2.0
// The packed symmetric matrix-vector family (packed_symv): y = A x for symmetric
// A packed row-major lower in the workload's first s (s + 1) / 2 elements,
// with CLBlast's Sspmv (the same layout) as baseline.
#include "../clblast_call.hpp"
#include "../host_reference.hpp"
#include "../family.hpp"
#include "portacl/blas.hpp"
#include "kernels/packed_symv_tunables.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

std::vector<Operation> packed_symv_operations() {
  // Counted on the packed matrix's bytes: 4 per stored element.
  return {make_operation(
      {"packed_symv", 4, 4, &packed_symv_tunables(),
       [](Workload& w, Options o) {
         return packed_symv(w.ctx, packed_order(w.n), 1.0f, w.x, 0, VectorRef<float>{w.y, 0, 1}, 0.0f, w.z, 0, 1, o);
       },
       [](Workload& w) { w.poison_z(); },
       [](Workload& w) {
         const std::size_t s = packed_order(w.n);
         const auto product = reference::matvec(
             s, s,
             [&](std::size_t i, std::size_t j) {
               return i >= j ? w.hx[i * (i + 1) / 2 + j] : w.hx[j * (j + 1) / 2 + i];
             },
             [&](std::size_t j) { return w.hy[j]; });
         return reference::compare(w.z.download(), product,
                                   reference::dot_bound<float>(s) / std::numeric_limits<float>::epsilon());
       },
       "Sspmv",
       [](Workload& w) {
         const std::size_t s = packed_order(w.n);
         clblast_call("Sspmv", [&](cl_event* e) {
           return CLBlastSspmv(CLBlastLayoutRowMajor, CLBlastTriangleLower, s, 1.0f, w.x.cl_buffer()(), 0,
                               w.y.cl_buffer()(), 0, 1, 0.0f, w.z.cl_buffer()(), 0, 1, &w.ctx.queue()(), e);
         });
       },
       // Quirk clblast.beta-zero-reads-c: NaN in y would survive beta = 0.
       [](Workload& w) { w.zero_z(); }})};
}

const FamilyRegistration packed_symvs({"packed_symv", 60, packed_symv_operations});

}  // namespace
}  // namespace portacl
