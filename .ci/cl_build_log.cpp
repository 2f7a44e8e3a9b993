// SPDX-License-Identifier: Apache-2.0
// Builds one .cl file on the first GPU with the given options and prints the
// compiler's log: on NVIDIA, with -cl-nv-verbose, the registers and spills
// of each kernel. A diagnostic for .ci/gpu-run.sh, not part of the library.
// usage: cl_build_log FILE "OPTIONS"
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s FILE OPTIONS\n", argv[0]);
    return 2;
  }
  std::ifstream f(argv[1]);
  std::stringstream text;
  text << f.rdbuf();
  const std::string source = text.str();
  cl_uint np = 0;
  clGetPlatformIDs(0, nullptr, &np);
  std::vector<cl_platform_id> platforms(np);
  clGetPlatformIDs(np, platforms.data(), nullptr);
  for (cl_platform_id p : platforms) {
    cl_device_id d;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, nullptr) != CL_SUCCESS) continue;
    cl_int err = 0;
    cl_context ctx = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
    const char* src = source.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
    const cl_int built = clBuildProgram(prog, 1, &d, argv[2], nullptr, nullptr);
    std::size_t n = 0;
    clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    std::printf("build %s\n%s\n", built == CL_SUCCESS ? "ok" : "FAILED", log.c_str());
    return built == CL_SUCCESS ? 0 : 1;
  }
  std::fprintf(stderr, "no GPU\n");
  return 1;
}
