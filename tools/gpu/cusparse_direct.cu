// SPDX-License-Identifier: Apache-2.0
// The sparse floor: cuSPARSE's CSR SpMV (y = A x, float) called as an
// expert C++ user calls it. Descriptors, the work buffer and
// cusparseSpMV_preprocess are made once per matrix and algorithm, outside
// every timed call. Each call is timed alone two ways: CUDA events around
// it (device time) and the host's steady clock around it and a
// cudaStreamSynchronize (wall, as portacl-bench times everything); median
// of 50 after 10 warm-ups. The product is checked against a double host
// product. Files: the binary CSR that portacl-bench --save-matrices writes.
// usage: cusparse_direct FILE.bin...
// build: nvcc -O3 -arch=sm_90 -o cusparse_direct cusparse_direct.cu -lcusparse
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

bool ok_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}
bool ok_sparse(cusparseStatus_t e, const char* what) {
  if (e != CUSPARSE_STATUS_SUCCESS) std::fprintf(stderr, "%s: %s\n", what, cusparseGetErrorString(e));
  return e == CUSPARSE_STATUS_SUCCESS;
}

struct Csr {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  std::vector<std::int32_t> ptr, col;
  std::vector<float> val;
};

bool read_csr(const char* path, Csr& a) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return false;
  std::int64_t head[3];
  bool ok = std::fread(head, sizeof head[0], 3, f) == 3 && head[0] >= 0 && head[1] >= 0 && head[2] >= 0;
  if (ok) {
    a.rows = head[0], a.cols = head[1], a.nnz = head[2];
    a.ptr.resize(a.rows + 1), a.col.resize(a.nnz), a.val.resize(a.nnz);
    ok = std::fread(a.ptr.data(), 4, a.ptr.size(), f) == a.ptr.size() &&
         std::fread(a.col.data(), 4, a.col.size(), f) == a.col.size() &&
         std::fread(a.val.data(), 4, a.val.size(), f) == a.val.size() && a.ptr[a.rows] == a.nnz;
  }
  std::fclose(f);
  return ok;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  cusparseHandle_t handle;
  cudaStream_t stream;
  if (!ok_sparse(cusparseCreate(&handle), "cusparseCreate") || !ok_cuda(cudaStreamCreate(&stream), "stream")) return 1;
  cusparseSetStream(handle, stream);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int runtime = 0, sparse_version = 0;
  cudaRuntimeGetVersion(&runtime);
  cusparseGetVersion(handle, &sparse_version);
  std::printf("cusparse-direct on %s, CUDA runtime %d, cuSPARSE %d\n", prop.name, runtime, sparse_version);
  int status = 0;
  for (int f = 1; f < argc; ++f) {
    Csr a;
    if (!read_csr(argv[f], a)) {
      std::fprintf(stderr, "%s: not a binary CSR file\n", argv[f]);
      status = 1;
      continue;
    }
    std::vector<float> x(a.cols);
    for (std::int64_t i = 0; i < a.cols; ++i) x[i] = float(std::sin(0.37 * double(i)));
    int *d_ptr, *d_col;
    float *d_val, *d_x, *d_y;
    if (!ok_cuda(cudaMalloc(&d_ptr, 4 * (a.rows + 1)), "malloc") || !ok_cuda(cudaMalloc(&d_col, 4 * a.nnz + 4), "malloc") ||
        !ok_cuda(cudaMalloc(&d_val, 4 * a.nnz + 4), "malloc") || !ok_cuda(cudaMalloc(&d_x, 4 * a.cols + 4), "malloc") ||
        !ok_cuda(cudaMalloc(&d_y, 4 * a.rows + 4), "malloc"))
      return 1;
    cudaMemcpy(d_ptr, a.ptr.data(), 4 * (a.rows + 1), cudaMemcpyHostToDevice);
    cudaMemcpy(d_col, a.col.data(), 4 * a.nnz, cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, a.val.data(), 4 * a.nnz, cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x.data(), 4 * a.cols, cudaMemcpyHostToDevice);
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t X, Y;
    cusparseCreateCsr(&A, a.rows, a.cols, a.nnz, d_ptr, d_col, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
    cusparseCreateDnVec(&X, a.cols, d_x, CUDA_R_32F);
    cusparseCreateDnVec(&Y, a.rows, d_y, CUDA_R_32F);
    // The double host product and each row's magnitude, for the check.
    std::vector<double> want(a.rows), scale(a.rows);
    for (std::int64_t r = 0; r < a.rows; ++r)
      for (std::int32_t k = a.ptr[r]; k < a.ptr[r + 1]; ++k) {
        want[r] += double(a.val[k]) * x[a.col[k]];
        scale[r] += std::fabs(double(a.val[k]) * x[a.col[k]]);
      }
    const double bytes = 8.0 * a.nnz + 4.0 * (a.rows + 1) + 4.0 * a.cols + 4.0 * a.rows;
    const float alpha = 1, beta = 0;
    const struct {
      cusparseSpMVAlg_t alg;
      const char* name;
    } algorithms[] = {{CUSPARSE_SPMV_CSR_ALG1, "alg1"}, {CUSPARSE_SPMV_CSR_ALG2, "alg2"}};
    for (const auto& alg : algorithms) {
      size_t size = 0;
      void* work = nullptr;
      if (!ok_sparse(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y,
                                             CUDA_R_32F, alg.alg, &size),
                     "bufferSize") ||
          (size && !ok_cuda(cudaMalloc(&work, size), "work buffer")))
        return 1;
      cusparseSpMV_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_32F, alg.alg,
                              work);
      auto call = [&] {
        return cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_32F, alg.alg,
                            work);
      };
      // Check: y poisoned with NaN first.
      cudaMemset(d_y, 0xff, 4 * a.rows);
      if (!ok_sparse(call(), "cusparseSpMV")) return 1;
      std::vector<float> y(a.rows);
      cudaMemcpy(y.data(), d_y, 4 * a.rows, cudaMemcpyDeviceToHost);
      std::int64_t wrong = 0;
      for (std::int64_t r = 0; r < a.rows; ++r)
        if (!(std::fabs(double(y[r]) - want[r]) <= 1e-5 * scale[r] + 1e-30)) ++wrong;
      cudaEvent_t start, stop;
      cudaEventCreate(&start);
      cudaEventCreate(&stop);
      std::vector<double> events, wall;
      for (int rep = 0; rep < 60; ++rep) {
        cudaStreamSynchronize(stream);
        const auto t0 = std::chrono::steady_clock::now();
        cudaEventRecord(start, stream);
        call();
        cudaEventRecord(stop, stream);
        cudaStreamSynchronize(stream);
        const auto t1 = std::chrono::steady_clock::now();
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        if (rep >= 10) {
          events.push_back(ms);
          wall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
      }
      const double e = median(events), w = median(wall);
      std::printf(
          "cusparse-direct %s %s rows=%lld cols=%lld nnz=%lld events median %.4f ms (min %.4f) %.0f GB/s, wall median "
          "%.4f ms, check %s\n",
          argv[f], alg.name, (long long)a.rows, (long long)a.cols, (long long)a.nnz, e,
          *std::min_element(events.begin(), events.end()), bytes / e / 1e6, w,
          wrong ? (std::to_string(wrong) + " rows WRONG").c_str() : "ok");
      if (wrong) status = 1;
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
      if (work) cudaFree(work);
    }
    cusparseDestroySpMat(A);
    cusparseDestroyDnVec(X);
    cusparseDestroyDnVec(Y);
    cudaFree(d_ptr), cudaFree(d_col), cudaFree(d_val), cudaFree(d_x), cudaFree(d_y);
  }
  return status;
}
