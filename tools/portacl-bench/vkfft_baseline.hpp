// SPDX-License-Identifier: Apache-2.0
// VkFFT's OpenCL backend on portacl's own context and queue, called as
// VkFFT's own benchmarks call it (the configuration filled and
// initializeVkFFT, which generates and builds its kernels, outside the
// timing; then VkFFTAppend on the queue and a wait): the portable
// reference beside the FFT family's cases (src/tuning/fft_cases.hpp).
// Built only where VkFFT's header is installed (libvkfft-dev).
#pragma once

#include <string>

#include "tuning/bench_cases.hpp"

namespace bench {

/// "" when VkFFT was built in, else why not.
std::string vkfft_missing();

/// Gives an FFT case VkFFT's same transform, out of place, as its
/// baseline. A case VkFFT cannot plan gets no baseline; its row says so.
/// Does nothing where VkFFT is missing.
void attach_vkfft(portacl::Context& ctx, portacl::BenchCase& c);

}  // namespace bench
