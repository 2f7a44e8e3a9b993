// SPDX-License-Identifier: Apache-2.0
// A second method for portacl-bench's CLBlast column (device machine, not
// CI): CLBlast called straight from plain OpenCL, no portacl in the
// process, timed by wall clock around the call and clFinish after three
// warm-up calls; median of 20. Prints one line per routine.
//   g++ -O2 tools/gpu/clblast_direct.cpp -lclblast -lOpenCL
//   ./a.out          the first GPU, every routine at the H100 bench's sizes
//   ./a.out cpu      the first CPU device (PoCL): GEMV both ways at 4096^2,
//                    the PoCL bench's size, and nothing slower
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast_c.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

static cl_context ctx;
static cl_command_queue queue;

static double median_ms(const std::function<CLBlastStatusCode(cl_event*)>& call) {
  std::vector<double> t;
  for (int i = 0; i < 23; ++i) {
    clFinish(queue);
    auto t0 = std::chrono::steady_clock::now();
    cl_event e = nullptr;
    if (call(&e) != CLBlastSuccess) {
      std::puts("CLBlast call failed");
      return -1;
    }
    clFinish(queue);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (e) clReleaseEvent(e);
    if (i >= 3) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static cl_mem buffer(size_t floats) {
  std::vector<float> h(floats, 0.5f);
  return clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, floats * 4, h.data(), nullptr);
}

static void gemv_both_ways(size_t m, cl_mem x, cl_mem y) {
  cl_mem z = clCreateBuffer(ctx, CL_MEM_READ_WRITE, m * 4, nullptr, nullptr);
  for (bool t : {false, true}) {
    double ms = median_ms([&](cl_event* e) {
      return CLBlastSgemv(CLBlastLayoutRowMajor, t ? CLBlastTransposeYes : CLBlastTransposeNo, m, m, 1.0f, x, 0, m, y,
                          0, 1, 0.0f, z, 0, 1, &queue, e);
    });
    std::printf("Sgemv%s %zu %.4f ms %.0f GB/s (matrix bytes)\n", t ? "_t" : "", m, ms, 4.0 * m * m / (ms * 1e6));
  }
  clReleaseMemObject(z);
}

int main(int argc, char** argv) {
  const bool cpu = argc > 1 && std::strcmp(argv[1], "cpu") == 0;
  cl_platform_id platforms[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, platforms, &np);
  cl_device_id dev = nullptr;
  for (cl_uint p = 0; p < np && !dev; ++p)
    if (clGetDeviceIDs(platforms[p], cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) != CL_SUCCESS)
      dev = nullptr;
  if (!dev) {
    std::puts(cpu ? "no CPU device" : "no GPU");
    return 1;
  }
  char name[256];
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
  ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, nullptr);
  queue = clCreateCommandQueue(ctx, dev, 0, nullptr);
  std::printf("CLBlast called directly on %s (wall clock around the call + clFinish, median of 20)\n", name);
  if (cpu) {
    const size_t m = 4096;
    cl_mem x = buffer(m * m), y = buffer(m);
    gemv_both_ways(m, x, y);
    return 0;
  }
  const size_t n = size_t(1) << 26;
  cl_mem x = buffer(n), y = buffer(n), s = buffer(16);
  double ms = median_ms([&](cl_event* e) { return CLBlastSaxpy(n, 0.0f, x, 0, 1, y, 0, 1, &queue, e); });
  std::printf("Saxpy 2^26 %.4f ms %.0f GB/s\n", ms, 12.0 * n / (ms * 1e6));
  ms = median_ms([&](cl_event* e) { return CLBlastScopy(n, x, 0, 1, y, 0, 1, &queue, e); });
  std::printf("Scopy 2^26 %.4f ms %.0f GB/s\n", ms, 8.0 * n / (ms * 1e6));
  ms = median_ms([&](cl_event* e) { return CLBlastSdot(n, s, 0, x, 0, 1, y, 0, 1, &queue, e); });
  std::printf("Sdot 2^26 %.4f ms %.0f GB/s\n", ms, 8.0 * n / (ms * 1e6));
  ms = median_ms([&](cl_event* e) { return CLBlastSsum(n, s, 0, x, 0, 1, &queue, e); });
  std::printf("Ssum 2^26 %.4f ms %.0f GB/s\n", ms, 4.0 * n / (ms * 1e6));
  const size_t m = 8192;
  cl_mem z = buffer(m);  // Strsv's right-hand side below
  gemv_both_ways(m, x, y);
  // The bench's packed order for 2^26 elements: the largest s with s (s + 1) / 2 <= 2^26.
  size_t sp = 11584;
  cl_mem zp = buffer(sp);
  ms = median_ms([&](cl_event* e) {
    return CLBlastSspmv(CLBlastLayoutRowMajor, CLBlastTriangleLower, sp, 1.0f, x, 0, y, 0, 1, 0.0f, zp, 0, 1, &queue,
                        e);
  });
  std::printf("Sspmv %zu %.4f ms %.0f GB/s (packed matrix bytes)\n", sp, ms, 4.0 * sp * (sp + 1) / 2 / (ms * 1e6));
  // A diagonally dominant lower triangle, so the solve stays finite.
  {
    std::vector<float> h(m * m, 0.0f);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j <= i; ++j) h[i * m + j] = i == j ? 2.0f : 0.5f / float(m);
    cl_mem l = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, h.size() * 4, h.data(), nullptr);
    ms = median_ms([&](cl_event* e) {
      return CLBlastStrsv(CLBlastLayoutRowMajor, CLBlastTriangleLower, CLBlastTransposeNo, CLBlastDiagonalNonUnit, m, l,
                          0, m, z, 0, 1, &queue, e);
    });
    std::printf("Strsv 8192 %.4f ms %.0f GB/s (half the square)\n", ms, 2.0 * m * m / (ms * 1e6));
    clReleaseMemObject(l);
  }
  for (size_t k : {2048, 4096, 8192}) {
    cl_mem a = buffer(k * k), b = buffer(k * k), c = buffer(k * k);
    ms = median_ms([&](cl_event* e) {
      return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, k, k, k, 1.0f, a, 0, k, b, 0,
                          k, 0.0f, c, 0, k, &queue, e);
    });
    std::printf("Sgemm %zu %.4f ms %.1f TFLOP/s\n", k, ms, 2.0 * k * k * k / (ms * 1e9));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
  }
  for (size_t k : {1024, 2048, 4096}) {
    cl_mem a = buffer(2 * k * k), b = buffer(2 * k * k), c = buffer(2 * k * k);  // doubles
    ms = median_ms([&](cl_event* e) {
      return CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, k, k, k, 1.0, a, 0, k, b, 0, k,
                          0.0, c, 0, k, &queue, e);
    });
    std::printf("Dgemm %zu %.4f ms %.2f TFLOP/s\n", k, ms, 2.0 * k * k * k / (ms * 1e9));
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
  }
  return 0;
}
