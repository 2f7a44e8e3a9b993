// SPDX-License-Identifier: Apache-2.0
// Builds one .cl file on the first GPU with the given options and prints the
// compiler's log: on NVIDIA, with -cl-nv-verbose, the registers and spills
// of each kernel. A diagnostic for tools/gpu/gpu-run.sh, not part of the library.
// usage: cl_build_log FILE "OPTIONS"
#include <cstdio>
#include <string>

#include "cl_tools.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s FILE OPTIONS\n", argv[0]);
    return 2;
  }
  const std::string source = cl_tools::read_text(argv[1]);
  cl_device_id d = cl_tools::first_device(CL_DEVICE_TYPE_GPU);
  if (!d) {
    std::fprintf(stderr, "no GPU\n");
    return 1;
  }
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
  const char* src = source.c_str();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
  const cl_int built = clBuildProgram(prog, 1, &d, argv[2], nullptr, nullptr);
  std::printf("build %s\n%s\n", built == CL_SUCCESS ? "ok" : "FAILED", cl_tools::build_log(prog, d).c_str());
  return built == CL_SUCCESS ? 0 : 1;
}
