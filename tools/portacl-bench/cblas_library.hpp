// SPDX-License-Identifier: Apache-2.0
// A CBLAS (OpenBLAS, or any library with CBLAS's entry points) loaded at run
// time, so the bench can set a CPU device beside the BLAS its user would
// call on the same cores without linking one: Debian's libopenblas.so.0 by
// default, or the library and symbol prefix PORTACL_BENCH_CBLAS names
// ("PATH" or "PATH:PREFIX", e.g. the scipy_-prefixed OpenBLAS of SciPy's
// wheel). The entry points are the C API its users call.
#pragma once

#include <cstddef>
#include <string>

namespace bench {

struct Cblas {
  // CBLAS's enumerations, by value (cblas.h): the library's ABI.
  static constexpr int row_major = 101, no_trans = 111, trans = 112, lower = 122, non_unit = 131;
  void (*saxpy)(int n, float a, const float* x, int incx, float* y, int incy) = nullptr;
  void (*scopy)(int n, const float* x, int incx, float* y, int incy) = nullptr;
  float (*sdot)(int n, const float* x, int incx, const float* y, int incy) = nullptr;
  float (*snrm2)(int n, const float* x, int incx) = nullptr;
  std::size_t (*isamax)(int n, const float* x, int incx) = nullptr;
  void (*sgemv)(int order, int trans, int m, int n, float alpha, const float* a, int lda, const float* x, int incx,
                float beta, float* y, int incy) = nullptr;
  void (*sspmv)(int order, int uplo, int n, float alpha, const float* ap, const float* x, int incx, float beta,
                float* y, int incy) = nullptr;
  void (*strsv)(int order, int uplo, int trans, int diag, int n, const float* a, int lda, float* x, int incx) = nullptr;
  void (*sgemm)(int order, int ta, int tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                int ldb, float beta, float* c, int ldc) = nullptr;
  std::string library;  // "OpenBLAS 0.3.21", or "CBLAS" for another
  std::string name;     // its whole description: "OpenBLAS 0.3.21 ... (libopenblas.so.0, 2 threads)"
};

/// The CBLAS the bench sets beside CPU devices, loaded on first use; null
/// where none loads, with the reason in `why`.
const Cblas* cblas(std::string* why = nullptr);

}  // namespace bench
