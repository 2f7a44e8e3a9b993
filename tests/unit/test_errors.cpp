// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "portacl/error.hpp"

TEST_CASE("OpenCL statuses are named", "[errors]") {
  CHECK(portacl::cl_error_name(-5) == "CL_OUT_OF_RESOURCES");
  CHECK(portacl::cl_error_name(-54) == "CL_INVALID_WORK_GROUP_SIZE");
  CHECK(portacl::cl_error_name(-11) == "CL_BUILD_PROGRAM_FAILURE");
  CHECK(portacl::cl_error_name(-9999) == "CL_UNKNOWN_ERROR(-9999)");
}

TEST_CASE("check_cl names the failing call and the error", "[errors]") {
  CHECK_NOTHROW(portacl::check_cl(0, "clFinish"));
  try {
    portacl::check_cl(-4, "clCreateBuffer(Buffer<float>, 64 bytes)");
    FAIL("no exception");
  } catch (const portacl::Error& e) {
    CHECK(std::string(e.what()) ==
          "clCreateBuffer(Buffer<float>, 64 bytes) failed: CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)");
    CHECK(e.cl_status() == -4);
  }
}
