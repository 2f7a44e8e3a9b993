// SPDX-License-Identifier: Apache-2.0
// What the FFT section's OpenCL baselines (clFFT, VkFFT) share: a call on
// the case's own buffers and queue becomes the case's baseline, checked
// like portacl's and timed both ways.
#pragma once

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tuning/bench_cases.hpp"
#include "tuning/fft_cases.hpp"

namespace bench {

/// ROUTINE's RUN (one forward transform of S->in into S->out enqueued on
/// QUEUE) as S's baseline: checked after two calls on poisoned outputs,
/// and also timed as 20 calls back to back and one wait (the speed-up's
/// second method, both libraries alike).
inline portacl::BenchBaseline fft_opencl_baseline(std::string routine, std::shared_ptr<portacl::FftBench> s,
                                                  std::function<void()> run, cl_command_queue queue) {
  auto check = [s, run, queue] {
    s->out.upload(std::vector<float>(s->out.size(), std::nanf("")));
    run();
    run();
    clFinish(queue);
    return s->check(s->out.download(), 9);
  };
  return portacl::BenchBaseline{std::move(routine), std::move(run), check, 20};
}

}  // namespace bench
