// SPDX-License-Identifier: Apache-2.0
#include "gemm_clblast.hpp"

#include <clblast_c.h>

#include <string>

#include "clblast_status.hpp"
#include "portacl/error.hpp"

namespace portacl {
namespace clblast_backend {

namespace {

CLBlastLayout to_clblast(Layout l) { return l == Layout::row_major ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor; }
CLBlastTranspose to_clblast(Transpose t) { return t == Transpose::yes ? CLBlastTransposeYes : CLBlastTransposeNo; }

CLBlastStatusCode xgemm(CLBlastLayout l, CLBlastTranspose ta, CLBlastTranspose tb, std::size_t m, std::size_t n,
                        std::size_t k, float alpha, cl_mem a, std::size_t oa, std::size_t lda, cl_mem b, std::size_t ob,
                        std::size_t ldb, float beta, cl_mem c, std::size_t oc, std::size_t ldc, cl_command_queue* q,
                        cl_event* e) {
  return CLBlastSgemm(l, ta, tb, m, n, k, alpha, a, oa, lda, b, ob, ldb, beta, c, oc, ldc, q, e);
}
CLBlastStatusCode xgemm(CLBlastLayout l, CLBlastTranspose ta, CLBlastTranspose tb, std::size_t m, std::size_t n,
                        std::size_t k, double alpha, cl_mem a, std::size_t oa, std::size_t lda, cl_mem b,
                        std::size_t ob, std::size_t ldb, double beta, cl_mem c, std::size_t oc, std::size_t ldc,
                        cl_command_queue* q, cl_event* e) {
  return CLBlastDgemm(l, ta, tb, m, n, k, alpha, a, oa, lda, b, ob, ldb, beta, c, oc, ldc, q, e);
}

}  // namespace

template <class T>
void gemm(Context& ctx, Layout layout, Transpose ta, Transpose tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
          MatrixRef<T> a, MatrixRef<T> b, T beta, Buffer<T>& c, std::size_t offc, std::size_t ldc) {
  // A marker first, so that timing the call (LaunchRecorder) spans every
  // kernel CLBlast enqueues, not only the last one whose event it returns.
  cl::Event marker;
  check_cl(ctx.queue().enqueueMarkerWithWaitList(nullptr, &marker), "clEnqueueMarkerWithWaitList");
  ctx.record(marker);
  cl_event done = nullptr;
  const CLBlastStatusCode status =
      xgemm(to_clblast(layout), to_clblast(ta), to_clblast(tb), m, n, k, alpha, a.buffer.cl_buffer()(), a.offset, a.ld,
            b.buffer.cl_buffer()(), b.offset, b.ld, beta, c.cl_buffer()(), offc, ldc, &ctx.queue()(), &done);
  if (status != CLBlastSuccess)
    throw Error("gemm (CLBlast backend) on '" + ctx.info().name + "': CLBlast returned " +
                clblast_status_text(static_cast<int>(status)));
  if (done) ctx.record(cl::Event(done));  // takes ownership
}

template void gemm<float>(Context&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t, float,
                          MatrixRef<float>, MatrixRef<float>, float, Buffer<float>&, std::size_t, std::size_t);
template void gemm<double>(Context&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t, double,
                           MatrixRef<double>, MatrixRef<double>, double, Buffer<double>&, std::size_t, std::size_t);

}  // namespace clblast_backend
}  // namespace portacl
