// SPDX-License-Identifier: Apache-2.0
// What the GPU diagnostics (tools/gpu) that build a .cl file themselves share (plain
// OpenCL, no portacl): a file's text, the first device of a type, and a
// program's build log. Not part of the library.
#pragma once
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cl_tools {

inline std::string read_text(const char* path) {
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

// The first device of `type` on any platform, or nullptr.
inline cl_device_id first_device(cl_device_type type) {
  cl_uint count = 0;
  clGetPlatformIDs(0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  for (cl_platform_id p : platforms) {
    cl_device_id d = nullptr;
    if (clGetDeviceIDs(p, type, 1, &d, nullptr) == CL_SUCCESS) return d;
  }
  return nullptr;
}

inline std::string build_log(cl_program program, cl_device_id device) {
  std::size_t n = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  return log;
}

}  // namespace cl_tools
