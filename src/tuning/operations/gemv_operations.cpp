// SPDX-License-Identifier: Apache-2.0
// The GEMV family's operations: y = A x and y = A^T x for the workload's
// square row-major A, with CLBlast's Sgemv as baseline.
#include "../clblast_call.hpp"
#include "../host_reference.hpp"
#include "../family.hpp"
#include "portacl/blas.hpp"
#include "kernels/gemv_tunables.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

// x: the first s elements of hy; y lands in z.
Operation gemv_operation(bool transposed) {
  const Transpose t = transposed ? Transpose::yes : Transpose::no;
  return make_operation(
      {transposed ? "gemv_t" : "gemv", 4, 2, &gemv_tunables(),
       [t](Workload& w, Options o) {
         const std::size_t s = square_order(w.n);
         return gemv(w.ctx, Layout::row_major, t, s, s, 1.0f, MatrixRef<float>{w.x, 0, s}, VectorRef<float>{w.y, 0, 1},
                     0.0f, w.z, 0, 1, o);
       },
       [](Workload& w) { w.poison_z(); },
       [transposed](Workload& w) {
         const std::size_t s = square_order(w.n);
         const auto product = reference::matvec(
             s, s, [&](std::size_t i, std::size_t j) { return transposed ? w.hx[j * s + i] : w.hx[i * s + j]; },
             [&](std::size_t j) { return w.hy[j]; });
         return reference::compare(w.z.download(), product,
                                   reference::dot_bound<float>(s) / std::numeric_limits<float>::epsilon());
       },
       "Sgemv",
       [transposed](Workload& w) {
         const std::size_t s = square_order(w.n);
         clblast_call("Sgemv", [&](cl_event* e) {
           return CLBlastSgemv(CLBlastLayoutRowMajor, transposed ? CLBlastTransposeYes : CLBlastTransposeNo, s, s, 1.0f,
                               w.x.cl_buffer()(), 0, s, w.y.cl_buffer()(), 0, 1, 0.0f, w.z.cl_buffer()(), 0, 1,
                               &w.ctx.queue()(), e);
         });
       },
       // Quirk clblast.beta-zero-reads-c: NaN in y would survive beta = 0.
       [](Workload& w) { w.zero_z(); }});
}

std::vector<Operation> gemv_operations() { return {gemv_operation(false), gemv_operation(true)}; }

const FamilyRegistration gemvs({"gemv", 50, gemv_operations});

}  // namespace
}  // namespace portacl
