// SPDX-License-Identifier: Apache-2.0
// "k of N" progress lines on standard error with the time so far and an
// estimate of the time left (the mean of the cases done times those left),
// for the tools' long runs.
#pragma once

#include <chrono>
#include <cstddef>
#include <iostream>
#include <string>

namespace cli {

class Progress {
 public:
  explicit Progress(std::size_t total, bool quiet = false) : total_(total), quiet_(quiet) {}
  /// Case `label` starts: "[k/N] label (12 s so far, about 40 s left)".
  void next(const std::string& label) {
    ++done_;
    if (quiet_) return;
    const double so_far = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::cerr << "  [" << done_ << "/" << total_ << "] " << label << " (" << static_cast<long>(so_far + 0.5)
              << " s so far";
    if (done_ > 1)
      std::cerr << ", about " << static_cast<long>(so_far / double(done_ - 1) * double(total_ - done_ + 1) + 0.5)
                << " s left";
    std::cerr << ")\n";
  }

 private:
  std::size_t total_, done_ = 0;
  bool quiet_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace cli
