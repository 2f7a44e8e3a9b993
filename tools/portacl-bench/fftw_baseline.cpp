// SPDX-License-Identifier: Apache-2.0
#include "fftw_baseline.hpp"

#include <thread>

#include "tuning/fft_cases.hpp"

#ifdef PORTACL_HAVE_FFTW
#include <fftw3.h>
#endif

namespace bench {

#ifdef PORTACL_HAVE_FFTW

namespace {

// The plan and its arrays, freed with the case.
struct FftwState {
  fftwf_plan plan = nullptr;
  float *in = nullptr, *out = nullptr;
  ~FftwState() {
    if (plan) fftwf_destroy_plan(plan);
    fftwf_free(in);
    fftwf_free(out);
  }
};

}  // namespace

std::string fftw_missing() { return ""; }

void attach_fftw(portacl::Context& ctx, portacl::BenchCase& c) {
  if (ctx.info().type != portacl::DeviceType::cpu || !c.state) return;
  auto s = std::static_pointer_cast<portacl::FftBench>(c.state);
  static const bool threads = [] {
    fftwf_init_threads();
    fftwf_plan_with_nthreads(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    return true;
  }();
  (void)threads;
  auto f = std::make_shared<FftwState>();
  const std::size_t in_n = s->host.size(), out_n = s->plan.elements().output;
  f->in = fftwf_alloc_real(in_n);
  f->out = fftwf_alloc_real(out_n);
  std::vector<int> n(s->shape.begin(), s->shape.end());
  const int rank = static_cast<int>(n.size()), howmany = static_cast<int>(s->batch);
  const int per = static_cast<int>(s->points() / s->batch);
  const int per_out = static_cast<int>(out_n / 2 / s->batch);
  // FFTW_MEASURE overwrites the arrays: the input is copied in afterwards.
  if (s->kind == portacl::FftKind::r2c)
    f->plan = fftwf_plan_many_dft_r2c(rank, n.data(), howmany, f->in, nullptr, 1, per,
                                      reinterpret_cast<fftwf_complex*>(f->out), nullptr, 1, per_out, FFTW_MEASURE);
  else
    f->plan =
        fftwf_plan_many_dft(rank, n.data(), howmany, reinterpret_cast<fftwf_complex*>(f->in), nullptr, 1, per,
                            reinterpret_cast<fftwf_complex*>(f->out), nullptr, 1, per, FFTW_FORWARD, FFTW_MEASURE);
  if (!f->plan) return;
  std::copy(s->host.begin(), s->host.end(), f->in);
  auto run = [f] { fftwf_execute(f->plan); };
  c.baseline = portacl::BenchBaseline{s->kind == portacl::FftKind::r2c ? "fftwf r2c" : "fftwf dft", run,
                                      [f, s, run, out_n] {
                                        std::fill(f->out, f->out + out_n, std::nanf(""));
                                        run();
                                        return s->check(std::vector<float>(f->out, f->out + out_n), 7);
                                      },
                                      20};  // the second method: 20 calls back to back
}

#else

std::string fftw_missing() { return "portacl-bench was built without FFTW (libfftw3-dev)"; }
void attach_fftw(portacl::Context&, portacl::BenchCase&) {}

#endif

}  // namespace bench
