// SPDX-License-Identifier: Apache-2.0
/// \file
/// Every failure surfaces as portacl::Error: an OpenCL status is named
/// (CL_OUT_OF_RESOURCES, ...) together with the call that returned it, so a
/// user never has to look up a bare integer.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace portacl {

/// Every error the library reports: bad input (named, before any work), an
/// OpenCL call that failed (with its status), a file that cannot be read.
/// what() says what went wrong and where.
class Error : public std::runtime_error {
 public:
  /// `message` for what(); `cl_status` the OpenCL status behind it, or 0.
  explicit Error(const std::string& message, int cl_status = 0) : std::runtime_error(message), status_(cl_status) {}
  /// The OpenCL status code, 0 when the error did not come from OpenCL.
  int cl_status() const { return status_; }

 private:
  int status_;
};

/// A failed program build: what() holds the compiler's log.
class BuildError : public Error {
 public:
  /// `message` for what(), `log` the compiler's log alone.
  BuildError(const std::string& message, std::string log)
      : Error(message, -11 /* CL_BUILD_PROGRAM_FAILURE */), log_(std::move(log)) {}
  /// The compiler's log.
  const std::string& build_log() const { return log_; }

 private:
  std::string log_;
};

/// "CL_OUT_OF_RESOURCES" for -5, "CL_UNKNOWN_ERROR(-1234)" for unknown codes.
std::string cl_error_name(int status);

/// Throws Error("<call> failed: <name> (<status>)") unless status is CL_SUCCESS.
void check_cl(int status, const char* call);
/// As check_cl(int, const char*).
void check_cl(int status, const std::string& call);

/// Size arithmetic that refuses to wrap: every byte count the library
/// allocates is formed here, so a size near 2^64 / sizeof(T) gives an error
/// naming the operand instead of a small buffer that receives n elements.
/// a * b, or portacl::Error "<what>: a x b overflows the address space".
std::size_t checked_product(std::size_t a, std::size_t b, const std::string& what);
/// a + b, likewise.
std::size_t checked_sum(std::size_t a, std::size_t b, const std::string& what);
/// The bytes of n elements of T (what: "Buffer<float>", "gemm packing panel").
template <class T>
std::size_t bytes_of(std::size_t n, const char* what) {
  return checked_product(n, sizeof(T), what);
}

}  // namespace portacl
