// SPDX-License-Identifier: Apache-2.0
// The GEMM family's operation: C = A B on the workload's square row-major
// matrices, with CLBlast's Sgemm as baseline. portacl-bench measures GEMM
// in a section of its own (double as well); the tuner and tests use this.
#include "../clblast_call.hpp"
#include "../host_reference.hpp"
#include "family_parts.hpp"
#include "portacl/blas.hpp"
#include "kernels/gemm_tunables.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

// 64 random entries of C: a full host product of a large order takes
// minutes. The entries are drawn from the workload's size, so reruns check
// the same ones.
std::string verify_gemm(Workload& w) {
  const std::size_t n = square_order(w.n);
  const std::vector<float> c = w.z.download();
  return reference::compare_gemm_samples(w.hx, w.hy, c, n, w.n);
}

}  // namespace

std::vector<Operation> gemm_operations() {
  Operation op =
      make_operation({"gemm", 12, 0, &gemm_tunables(),
                      [](Workload& w, Options o) {
                        const std::size_t n = square_order(w.n);
                        return gemm(w.ctx, Layout::row_major, Transpose::no, Transpose::no, n, n, n, 1.0f,
                                    MatrixRef<float>{w.x, 0, n}, MatrixRef<float>{w.y, 0, n}, 0.0f, w.z, 0, n, o);
                      },
                      [](Workload& w) { w.poison_z(); }, verify_gemm, "Sgemm",
                      [](Workload& w) {
                        const std::size_t n = square_order(w.n);
                        clblast_call("Sgemm", [&](cl_event* e) {
                          return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n,
                                              1.0f, w.x.cl_buffer()(), 0, n, w.y.cl_buffer()(), 0, n, 0.0f,
                                              w.z.cl_buffer()(), 0, n, &w.ctx.queue()(), e);
                        });
                      }});
  op.streaming = false;
  return {std::move(op)};
}

}  // namespace portacl
