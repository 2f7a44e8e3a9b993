// SPDX-License-Identifier: Apache-2.0
// clFFT's transforms on portacl's own OpenCL context and queue, called as
// clFFT's users call them (clfftCreateDefaultPlan, the layout, batch and
// distances set and the plan baked outside the timing, then
// clfftEnqueueTransform and a wait): the other OpenCL library beside the
// FFT family's cases (src/tuning/fft_cases.hpp). Built only where clFFT is
// installed (libclfft-dev).
#pragma once

#include <string>

#include "tuning/bench_cases.hpp"

namespace bench {

/// "" when clFFT was built in, else why not.
std::string clfft_missing();

/// Gives an FFT case clFFT's same transform as its baseline. clFFT takes
/// lengths whose prime factors are 2, 3, 5, 7, 11 and 13 only: another
/// length's case gets no baseline (its row says why). Does nothing where
/// clFFT is missing.
void attach_clfft(portacl::Context& ctx, portacl::BenchCase& c);

}  // namespace bench
