// SPDX-License-Identifier: Apache-2.0
// The convolution floor: cuDNN's forward, backward-data and
// backward-filter passes of the book's layer (128 x 384 x 13 x 13 by
// 256 x 384 x 3 x 3, padding 1, stride 1, NCHW, float) called as an expert
// C++ user calls them; or, given a layer "N C H K R" (square images and
// filters, padding (R - 1) / 2), its forward pass alone. FMA math only (CUDNN_FMA_MATH: no TF32, as
// portacl computes in full float). Descriptors, the algorithm (the fastest
// that cudnnFind* measures) and its workspace are set up once, outside
// every timed call. Each call is timed alone two ways: CUDA events around
// it (device time) and the host's steady clock around it and a
// cudaStreamSynchronize (wall, as portacl-bench times everything); median
// of 30 after 5 warm-ups, with the spread. The forward output is checked
// at 64 points against a double host sum.
// build: nvcc -O3 -arch=sm_90 -I$CUDNN/include -o cudnn_direct cudnn_direct.cu -L$CUDNN/lib -l:libcudnn.so.9
// run:   cudnn_direct [N C H K R]
#include <cuda_runtime.h>
#include <cudnn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

#define CHECK_CUDA(x)                                                                   \
  do {                                                                                  \
    cudaError_t e = (x);                                                                \
    if (e != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                      \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)
#define CHECK_DNN(x)                                                                    \
  do {                                                                                  \
    cudnnStatus_t e = (x);                                                              \
    if (e != CUDNN_STATUS_SUCCESS) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #x, cudnnGetErrorString(e));                     \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

int N = 128, C = 384, H = 13, W = 13, K = 256, R = 3, S = 3, PAD = 1;

struct Timing {
  double device_ms, wall_ms, low_ms, high_ms;
};

Timing time_call(cudaStream_t stream, const std::function<void()>& call) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  std::vector<double> device, wall;
  for (int rep = 0; rep < 35; ++rep) {
    CHECK_CUDA(cudaStreamSynchronize(stream));
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_CUDA(cudaEventRecord(start, stream));
    call();
    CHECK_CUDA(cudaEventRecord(stop, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    const auto t1 = std::chrono::steady_clock::now();
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (rep < 5) continue;
    device.push_back(ms);
    wall.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(device.begin(), device.end());
  std::sort(wall.begin(), wall.end());
  return {device[device.size() / 2], wall[wall.size() / 2], device.front(), device.back()};
}

void report(const char* what, const char* algorithm, const Timing& t, double flops) {
  std::printf("cuDNN direct %-16s %-28s device %.3f ms (%.3f-%.3f), wall %.3f ms, %.1f effective TFLOP/s\n", what,
              algorithm, t.device_ms, t.low_ms, t.high_ms, t.wall_ms, flops / (t.device_ms * 1e9));
}

std::vector<float> uniform(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  unsigned long long s = seed;
  for (float& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = float((s >> 40) & 0xffffff) / 8388608.0f - 1.0f;
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  const bool forward_only = argc == 6;
  if (forward_only) {
    N = std::atoi(argv[1]), C = std::atoi(argv[2]), H = W = std::atoi(argv[3]), K = std::atoi(argv[4]);
    R = S = std::atoi(argv[5]);
    PAD = (R - 1) / 2;
  }
  const double kFlops = 2.0 * N * K * H * W * C * R * S;  // every tap, padded ones too (stride 1, same size)
  std::printf("layer %d x %d x %d x %d by %d x %d x %d x %d, padding %d\n", N, C, H, W, K, C, R, S, PAD);
  cudnnHandle_t dnn;
  cudaStream_t stream;
  CHECK_DNN(cudnnCreate(&dnn));
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_DNN(cudnnSetStream(dnn, stream));
  std::printf("cuDNN %zu\n", cudnnGetVersion());
  cudnnTensorDescriptor_t x_desc, y_desc;
  cudnnFilterDescriptor_t w_desc;
  cudnnConvolutionDescriptor_t conv;
  CHECK_DNN(cudnnCreateTensorDescriptor(&x_desc));
  CHECK_DNN(cudnnCreateTensorDescriptor(&y_desc));
  CHECK_DNN(cudnnCreateFilterDescriptor(&w_desc));
  CHECK_DNN(cudnnCreateConvolutionDescriptor(&conv));
  CHECK_DNN(cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
  CHECK_DNN(cudnnSetFilter4dDescriptor(w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, R, S));
  CHECK_DNN(cudnnSetConvolution2dDescriptor(conv, PAD, PAD, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  CHECK_DNN(cudnnSetConvolutionMathType(conv, CUDNN_FMA_MATH));
  int n, k, p, q;
  CHECK_DNN(cudnnGetConvolution2dForwardOutputDim(conv, x_desc, w_desc, &n, &k, &p, &q));
  CHECK_DNN(cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, k, p, q));
  const std::vector<float> hx = uniform(std::size_t(N) * C * H * W, 1), hw = uniform(std::size_t(K) * C * R * S, 2);
  const std::vector<float> hdy = uniform(std::size_t(N) * K * p * q, 3);
  float *x, *w, *y, *dy, *dx, *dw;
  CHECK_CUDA(cudaMalloc(&x, hx.size() * 4));
  CHECK_CUDA(cudaMalloc(&w, hw.size() * 4));
  CHECK_CUDA(cudaMalloc(&y, hdy.size() * 4));
  CHECK_CUDA(cudaMalloc(&dy, hdy.size() * 4));
  CHECK_CUDA(cudaMalloc(&dx, hx.size() * 4));
  CHECK_CUDA(cudaMalloc(&dw, hw.size() * 4));
  CHECK_CUDA(cudaMemcpy(x, hx.data(), hx.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(w, hw.data(), hw.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy, hdy.data(), hdy.size() * 4, cudaMemcpyHostToDevice));
  const float one = 1.0f, zero = 0.0f;

  // Forward: the fastest algorithm cudnnFind measures, its workspace once.
  cudnnConvolutionFwdAlgoPerf_t fwd[8];
  int found = 0;
  CHECK_DNN(cudnnFindConvolutionForwardAlgorithm(dnn, x_desc, w_desc, conv, y_desc, 8, &found, fwd));
  const char* fwd_names[] = {"implicit GEMM", "implicit precomp GEMM", "GEMM", "direct", "FFT", "FFT tiling",
                             "Winograd", "Winograd nonfused"};
  for (int a = 0; a < found; ++a)
    if (fwd[a].status == CUDNN_STATUS_SUCCESS)
      std::printf("cudnnFind forward: %-22s %.3f ms, workspace %zu MB\n", fwd_names[fwd[a].algo], fwd[a].time,
                  fwd[a].memory >> 20);
  int best = 0;
  while (best < found && (fwd[best].status != CUDNN_STATUS_SUCCESS || fwd[best].mathType != CUDNN_FMA_MATH)) ++best;
  if (best == found) best = 0;
  void* workspace = nullptr;
  std::size_t workspace_bytes = fwd[best].memory;
  CHECK_CUDA(cudaMalloc(&workspace, std::max<std::size_t>(workspace_bytes, 1)));
  const Timing forward = time_call(stream, [&] {
    CHECK_DNN(cudnnConvolutionForward(dnn, &one, x_desc, x, w_desc, w, conv, fwd[best].algo, workspace,
                                      workspace_bytes, &zero, y_desc, y));
  });
  report("forward", fwd_names[fwd[best].algo], forward, kFlops);
  // The forward output at 64 points against a double sum.
  std::vector<float> hy(hdy.size());
  CHECK_CUDA(cudaMemcpy(hy.data(), y, hy.size() * 4, cudaMemcpyDeviceToHost));
  double worst = 0;
  for (int s = 0; s < 64; ++s) {
    const int img = s * (N - 1) / 63, f = (s * 37) % K, pos = (s * 53) % (p * q), oy = pos / q, ox = pos % q;
    double sum = 0, magnitude = 0;
    for (int c = 0; c < C; ++c)
      for (int i = 0; i < R; ++i)
        for (int j = 0; j < S; ++j) {
          const int iy = oy + i - PAD, ix = ox + j - PAD;
          if (iy < 0 || ix < 0 || iy >= H || ix >= W) continue;
          const double term = double(hx[((std::size_t(img) * C + c) * H + iy) * W + ix]) *
                              hw[((std::size_t(f) * C + c) * R + i) * S + j];
          sum += term;
          magnitude += std::fabs(term);
        }
    worst = std::max(worst, std::fabs(hy[((std::size_t(img) * K + f) * p + oy) * q + ox] - sum) / magnitude);
  }
  std::printf("cuDNN direct forward check: largest error %.2e of the terms' magnitude (%s)\n", worst,
              worst < 1e-4 ? "ok" : "WRONG");
  if (forward_only) return 0;

  // Backward data and filter, each with its fastest algorithm and workspace.
  cudnnConvolutionBwdDataAlgoPerf_t bwd_data[8];
  CHECK_DNN(cudnnFindConvolutionBackwardDataAlgorithm(dnn, w_desc, y_desc, conv, x_desc, 8, &found, bwd_data));
  int bd = 0;
  while (bd < found && bwd_data[bd].status != CUDNN_STATUS_SUCCESS) ++bd;
  cudnnConvolutionBwdFilterAlgoPerf_t bwd_filter[8];
  int found_filter = 0;
  CHECK_DNN(
      cudnnFindConvolutionBackwardFilterAlgorithm(dnn, x_desc, y_desc, conv, w_desc, 8, &found_filter, bwd_filter));
  int bf = 0;
  while (bf < found_filter && bwd_filter[bf].status != CUDNN_STATUS_SUCCESS) ++bf;
  void *data_space = nullptr, *filter_space = nullptr;
  CHECK_CUDA(cudaMalloc(&data_space, std::max<std::size_t>(bwd_data[bd].memory, 1)));
  CHECK_CUDA(cudaMalloc(&filter_space, std::max<std::size_t>(bwd_filter[bf].memory, 1)));
  const Timing data = time_call(stream, [&] {
    CHECK_DNN(cudnnConvolutionBackwardData(dnn, &one, w_desc, w, y_desc, dy, conv, bwd_data[bd].algo, data_space,
                                           bwd_data[bd].memory, &zero, x_desc, dx));
  });
  char name[32];
  std::snprintf(name, sizeof name, "algorithm %d", int(bwd_data[bd].algo));
  report("backward data", name, data, kFlops);
  const Timing filter = time_call(stream, [&] {
    CHECK_DNN(cudnnConvolutionBackwardFilter(dnn, &one, x_desc, x, y_desc, dy, conv, bwd_filter[bf].algo,
                                             filter_space, bwd_filter[bf].memory, &zero, w_desc, dw));
  });
  std::snprintf(name, sizeof name, "algorithm %d", int(bwd_filter[bf].algo));
  report("backward filter", name, filter, kFlops);
  const Timing both = time_call(stream, [&] {
    CHECK_DNN(cudnnConvolutionBackwardData(dnn, &one, w_desc, w, y_desc, dy, conv, bwd_data[bd].algo, data_space,
                                           bwd_data[bd].memory, &zero, x_desc, dx));
    CHECK_DNN(cudnnConvolutionBackwardFilter(dnn, &one, x_desc, x, y_desc, dy, conv, bwd_filter[bf].algo,
                                             filter_space, bwd_filter[bf].memory, &zero, w_desc, dw));
  });
  report("backward (both)", "", both, 2 * kFlops);
  return 0;
}
