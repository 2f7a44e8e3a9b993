// SPDX-License-Identifier: Apache-2.0
// The triangular-solve family (trsv): L x = b in place in z, for the
// workload's well-conditioned lower-triangular L and b the first elements
// of hy, with CLBlast's Strsv as baseline.
#include "../clblast_call.hpp"
#include "../host_reference.hpp"
#include "../family.hpp"
#include "portacl/blas.hpp"
#include "kernels/trsv_tunables.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

// b copied into z's first s elements (a negligible s floats), part of
// every run as the solve overwrites it.
void copy_right_hand_side(Workload& w) {
  const std::size_t s = square_order(w.n);
  check_cl(w.ctx.queue().enqueueCopyBuffer(w.y.cl_buffer(), w.z.cl_buffer(), 0, 0, s * sizeof(float)),
           "clEnqueueCopyBuffer(trsv right-hand side)");
}

// The residual: L x, row by row, against b, within 4 dot bounds of the
// row's magnitudes (a solve's backward error).
std::string verify_solution(Workload& w) {
  const std::size_t s = square_order(w.n);
  w.lower_triangular();
  const std::vector<float> x = w.z.download();
  const auto lx = reference::matvec(
      s, s, [&](std::size_t i, std::size_t j) { return j <= i ? w.host_lower[i * s + j] : 0.0f; },
      [&](std::size_t j) { return x[j]; });
  return reference::compare(std::vector<float>(w.hy.begin(), w.hy.begin() + s), lx,
                            4 * reference::dot_bound<float>(s) / std::numeric_limits<float>::epsilon());
}

std::vector<Operation> trsv_operations() {
  // Half of the square is read.
  return {make_operation({"trsv", 2, 1, &trsv_tunables(),
                          [](Workload& w, Options o) {
                            const std::size_t s = square_order(w.n);
                            copy_right_hand_side(w);
                            return trsv(w.ctx, Layout::row_major, s, MatrixRef<float>{w.lower_triangular(), 0, s}, w.z,
                                        0, 1, Diagonal::non_unit, o);
                          },
                          [](Workload& w) { w.poison_z(); }, verify_solution, "Strsv",
                          [](Workload& w) {
                            const std::size_t s = square_order(w.n);
                            const Buffer<float>& l = w.lower_triangular();
                            copy_right_hand_side(w);
                            clblast_call("Strsv", [&](cl_event* e) {
                              return CLBlastStrsv(CLBlastLayoutRowMajor, CLBlastTriangleLower, CLBlastTransposeNo,
                                                  CLBlastDiagonalNonUnit, s, l.cl_buffer()(), 0, s, w.z.cl_buffer()(),
                                                  0, 1, &w.ctx.queue()(), e);
                            });
                          }})};
}

const FamilyRegistration trsvs({"trsv", 72, trsv_operations});

}  // namespace
}  // namespace portacl
