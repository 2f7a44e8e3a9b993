// SPDX-License-Identifier: Apache-2.0
// Times kernels/gemm_packed.cl's gemm_tiled on the first GPU under given
// shapes (work-group, register block, slice depth, load width, unrolling,
// double buffering), on packed panels, with the compiler's register count
// (NVIDIA's -cl-nv-verbose). Each shape is first checked on an odd-sized
// product against a double-precision host sum. A diagnostic for
// tools/gpu/gpu-run.sh's gemm-shapes step (how the GPU rule's shape was found),
// not part of the library.
// usage: gemm_shapes SIZES SHAPE...   SIZES: 2048,4096  SHAPE: WG_X:WG_Y:WPT_M:WPT_N:TS_K:VEC:UNROLL:PREFETCH
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cl_tools.hpp"

namespace {

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, err);
    std::exit(1);
  }
}

struct Shape {
  unsigned wg_x, wg_y, wpt_m, wpt_n, ts_k, vec, unroll, prefetch;
  std::size_t tile_m() const { return std::size_t(wg_y) * wpt_m; }
  std::size_t tile_n() const { return std::size_t(wg_x) * wpt_n; }
  std::string options() const {
    std::ostringstream o;
    o << "-I kernels -cl-nv-verbose -DT=float -DVW=1 -DUSE_LOCAL_MEMORY=1 -DWG_X=" << wg_x << " -DWG_Y=" << wg_y
      << " -DWG_SIZE=" << wg_x * wg_y << " -DWPT_M=" << wpt_m << " -DWPT_N=" << wpt_n << " -DTS_K=" << ts_k
      << " -DVEC=" << vec << " -DUNROLL=" << unroll << " -DPREFETCH=" << prefetch;
    return o.str();
  }
  std::string name() const {
    std::ostringstream o;
    o << wg_x << "x" << wg_y << " block " << wpt_m << "x" << wpt_n << " tile " << tile_m() << "x" << tile_n() << "x"
      << ts_k << " vec " << vec << " unroll " << unroll << " prefetch " << prefetch;
    return o.str();
  }
};

std::size_t up(std::size_t v, std::size_t to) { return (v + to - 1) / to * to; }

// Packs X (rows x depth, row-major) into panels of `panel` rows, depth-major
// within a panel, zero-filled to rows_pad x depth_pad: gemm_pack's layout.
std::vector<float> pack(const std::vector<float>& x, std::size_t rows, std::size_t depth, std::size_t panel,
                        std::size_t rows_pad, std::size_t depth_pad) {
  std::vector<float> out(rows_pad * depth_pad, 0.0f);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t p = 0; p < depth; ++p)
      out[(i / panel) * panel * depth_pad + p * panel + i % panel] = x[i * depth + p];
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SIZES WG_X:WG_Y:WPT_M:WPT_N:TS_K:VEC:UNROLL:PREFETCH...\n", argv[0]);
    return 2;
  }
  std::vector<std::size_t> sizes;
  for (std::stringstream ss(argv[1]); ss.good();) {
    std::string t;
    std::getline(ss, t, ',');
    sizes.push_back(std::stoul(t));
  }
  const std::string source = cl_tools::read_text("kernels/gemm_packed.cl");
  cl_device_id dev = cl_tools::first_device(CL_DEVICE_TYPE_GPU);
  if (!dev) dev = cl_tools::first_device(CL_DEVICE_TYPE_ALL);  // no GPU: a check of the program on PoCL
  if (!dev) {
    std::fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  char name[256];
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
  std::printf("device %s\n", name);
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue");
  const std::size_t big = *std::max_element(sizes.begin(), sizes.end()) + 256;
  cl_mem ap = clCreateBuffer(ctx, CL_MEM_READ_WRITE, big * big * 4, nullptr, &err);
  check(err, "A");
  cl_mem bp = clCreateBuffer(ctx, CL_MEM_READ_WRITE, big * big * 4, nullptr, &err);
  check(err, "B");
  cl_mem cb = clCreateBuffer(ctx, CL_MEM_READ_WRITE, big * big * 4, nullptr, &err);
  check(err, "C");
  {  // timing inputs: small values, so no overflow whatever the layout
    std::vector<float> fill(big * big);
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (float& v : fill) v = d(gen);
    check(clEnqueueWriteBuffer(q, ap, CL_TRUE, 0, fill.size() * 4, fill.data(), 0, nullptr, nullptr), "write A");
    check(clEnqueueWriteBuffer(q, bp, CL_TRUE, 0, fill.size() * 4, fill.data(), 0, nullptr, nullptr), "write B");
  }
  for (int s = 2; s < argc; ++s) {
    Shape sh{};
    if (std::sscanf(argv[s], "%u:%u:%u:%u:%u:%u:%u:%u", &sh.wg_x, &sh.wg_y, &sh.wpt_m, &sh.wpt_n, &sh.ts_k, &sh.vec,
                    &sh.unroll, &sh.prefetch) != 8) {
      std::fprintf(stderr, "bad shape %s\n", argv[s]);
      return 2;
    }
    const char* src = source.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
    std::string opts = sh.options();
    if (std::getenv("GEMM_SHAPES_NO_NV")) opts.replace(opts.find("-cl-nv-verbose "), 15, "");
    const cl_int built = clBuildProgram(prog, 1, &dev, opts.c_str(), nullptr, nullptr);
    const std::string log = cl_tools::build_log(prog, dev);
    // The tiled kernel's register line: the log lists gemm_pack first.
    std::string regs = "?";
    const std::size_t at = log.find("Function properties for gemm_tiled");
    const std::size_t used = log.find("Used ", at == std::string::npos ? 0 : at);
    if (used != std::string::npos) regs = log.substr(used, log.find('\n', used) - used);
    if (built != CL_SUCCESS) {
      std::printf("%s: build FAILED\n%s\n", sh.name().c_str(), log.c_str());
      continue;
    }
    cl_kernel kern = clCreateKernel(prog, "gemm_tiled", &err);
    check(err, "clCreateKernel");
    auto launch = [&](std::size_t m, std::size_t n, std::size_t k_pad, cl_mem a, cl_mem b, cl_event* ev) {
      const cl_ulong m_ = m, n_ = n, k_ = k_pad, off = 0, ci = n, cj = 1;
      const float alpha = 1.0f, beta = 0.0f;
      clSetKernelArg(kern, 0, 8, &m_);
      clSetKernelArg(kern, 1, 8, &n_);
      clSetKernelArg(kern, 2, 8, &k_);
      clSetKernelArg(kern, 3, 4, &alpha);
      clSetKernelArg(kern, 4, 4, &beta);
      clSetKernelArg(kern, 5, sizeof(cl_mem), &a);
      clSetKernelArg(kern, 6, sizeof(cl_mem), &b);
      clSetKernelArg(kern, 7, sizeof(cl_mem), &cb);
      clSetKernelArg(kern, 8, 8, &off);
      clSetKernelArg(kern, 9, 8, &ci);
      clSetKernelArg(kern, 10, 8, &cj);
      const cl_ulong no_batch = 0;  // one product: the batch strides unused
      for (cl_uint arg = 11; arg < 14; ++arg) clSetKernelArg(kern, arg, 8, &no_batch);
      const std::size_t local[2] = {sh.wg_x, sh.wg_y};
      const std::size_t global[2] = {(n + sh.tile_n() - 1) / sh.tile_n() * sh.wg_x,
                                     (m + sh.tile_m() - 1) / sh.tile_m() * sh.wg_y};
      check(clEnqueueNDRangeKernel(q, kern, 2, nullptr, global, local, 0, nullptr, ev), "launch");
    };
    // Correctness: an odd product, several slices deep, against the host.
    {
      const std::size_t m = 389, n = 263, k = 5 * sh.ts_k + 3;
      std::mt19937 gen(11);
      std::uniform_real_distribution<float> d(-1.0f, 1.0f);
      std::vector<float> a(m * k), b(n * k);  // b holds op(B) transposed: row j is column j
      for (float& v : a) v = d(gen);
      for (float& v : b) v = d(gen);
      const std::size_t k_pad = up(k, sh.ts_k);
      const auto pa = pack(a, m, k, sh.tile_m(), up(m, sh.tile_m()), k_pad);
      const auto pb = pack(b, n, k, sh.tile_n(), up(n, sh.tile_n()), k_pad);
      cl_mem ca = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pa.size() * 4,
                                 const_cast<float*>(pa.data()), &err);
      cl_mem cbb = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pb.size() * 4,
                                  const_cast<float*>(pb.data()), &err);
      launch(m, n, k_pad, ca, cbb, nullptr);
      std::vector<float> c(m * n);
      check(clEnqueueReadBuffer(q, cb, CL_TRUE, 0, c.size() * 4, c.data(), 0, nullptr, nullptr), "read C");
      double worst = 0;
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          double sum = 0;
          for (std::size_t p = 0; p < k; ++p) sum += double(a[i * k + p]) * b[j * k + p];
          worst = std::max(worst, std::fabs(sum - c[i * n + j]));
        }
      clReleaseMemObject(ca);
      clReleaseMemObject(cbb);
      std::printf("%s | %s | check %s (max error %.2e)\n", sh.name().c_str(), regs.c_str(),
                  worst < 1e-3 ? "ok" : "WRONG", worst);
      if (worst >= 1e-3) continue;
    }
    for (std::size_t size : sizes) {
      const std::size_t k_pad = up(size, sh.ts_k);
      std::vector<double> ms;
      for (int r = 0; r < 13; ++r) {
        cl_event ev;
        launch(size, size, k_pad, ap, bp, &ev);
        clWaitForEvents(1, &ev);
        cl_ulong t0 = 0, t1 = 0;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, &t0, nullptr);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, &t1, nullptr);
        clReleaseEvent(ev);
        if (r >= 3) ms.push_back((t1 - t0) * 1e-6);
      }
      std::sort(ms.begin(), ms.end());
      const double med = ms[ms.size() / 2];
      std::printf("  %zu^3: %.4f ms (%.4f-%.4f) %.1f TFLOP/s\n", size, med, ms.front(), ms.back(),
                  2.0 * size * size * size / med / 1e9);
    }
    clReleaseKernel(kern);
    clReleaseProgram(prog);
    std::fflush(stdout);
  }
  return 0;
}
