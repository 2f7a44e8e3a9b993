// SPDX-License-Identifier: Apache-2.0
#include "stderr_capture.hpp"

#include <unistd.h>

#include <iostream>
#include <mutex>

namespace portacl {
namespace {
std::mutex capture_mutex;  // fd 2 is one per process
}  // namespace

StderrCapture::StderrCapture() {
  capture_mutex.lock();
  locked_ = true;
  std::cerr.flush();
  std::fflush(stderr);
  file_ = std::tmpfile();
  if (!file_) return;
  saved_ = ::dup(2);
  if (saved_ < 0 || ::dup2(::fileno(file_), 2) < 0) {
    if (saved_ >= 0) ::close(saved_);
    saved_ = -1;
    std::fclose(file_);
    file_ = nullptr;
  }
}

std::string StderrCapture::release() {
  std::string text;
  if (file_) {
    std::cerr.flush();
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
    saved_ = -1;
    std::rewind(file_);
    char buf[4096];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, file_)) > 0;) text.append(buf, got);
    std::fclose(file_);
    file_ = nullptr;
  }
  if (locked_) {
    locked_ = false;
    capture_mutex.unlock();
  }
  return text;
}

StderrCapture::~StderrCapture() {
  const std::string text = release();
  if (!text.empty()) std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace portacl
