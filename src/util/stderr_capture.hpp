// SPDX-License-Identifier: Apache-2.0
// What a library call writes straight to the process's stderr (file
// descriptor 2), taken aside for the capture's lifetime. Some OpenCL
// compilers print to stderr themselves instead of only into the build log
// (quirk pocl.compiler-writes-stderr); the program cache takes that text
// aside and decides what the user sees.
#pragma once

#include <cstdio>
#include <string>

namespace portacl {

class StderrCapture {
 public:
  // Never throws: when stderr cannot be redirected, nothing is captured and
  // everything reaches stderr as usual. Captures are serialised process-wide.
  StderrCapture();
  ~StderrCapture();  // restores stderr (its text is then written there)
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  // Restores stderr and returns what was written to it meanwhile (by any
  // thread: the caller writes back what is not its own).
  std::string release();

 private:
  std::FILE* file_ = nullptr;
  int saved_ = -1;
  bool locked_ = false;
};

}  // namespace portacl
