// SPDX-License-Identifier: Apache-2.0
// FFTW's transforms, called as its users call them (fftwf_plan_many_dft or
// fftwf_plan_many_dft_r2c with FFTW_MEASURE, one thread a core, the plan
// made outside the timing): the baseline of the FFT family's cases on a CPU
// device (src/tuning/fft_cases.hpp), the same cores the device runs on.
// Built only where FFTW's headers are installed (libfftw3-dev).
#pragma once

#include <string>

#include "tuning/bench_cases.hpp"

namespace bench {

/// "" when FFTW was built in, else why not.
std::string fftw_missing();

/// Gives an FFT case FFTW's same transform as its baseline, on a CPU
/// device only (on a GPU the baseline is the vendor's library, measured by
/// tools/gpu/cufft_direct.cu). Does nothing elsewhere or where FFTW is
/// missing.
void attach_fftw(portacl::Context& ctx, portacl::BenchCase& c);

}  // namespace bench
