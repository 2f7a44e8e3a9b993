// SPDX-License-Identifier: Apache-2.0
/// \file
/// The one place the OpenCL C++ bindings are configured. Debian's CLHPP does
/// not compile with target 300 and minimum 120 together, so the library
/// targets 1.2 and queries newer features at run time.
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
/// The OpenCL API version the C++ bindings target: 1.2 (a program may set it before).
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
/// The oldest OpenCL version the bindings accept: 1.2.
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#include <CL/opencl.hpp>
