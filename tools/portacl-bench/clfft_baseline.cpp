// SPDX-License-Identifier: Apache-2.0
#include "clfft_baseline.hpp"

#include <cstdlib>

#include "fft_opencl_baseline.hpp"
#include "rules/fft_rules.hpp"

#ifdef PORTACL_HAVE_CLFFT
#include <clFFT.h>
#endif

namespace bench {

#ifdef PORTACL_HAVE_CLFFT

namespace {

// clFFT's library state, set up once for the bench's life.
bool clfft_ready() {
  static const bool ready = [] {
    clfftSetupData setup;
    const bool ok = clfftInitSetupData(&setup) == CLFFT_SUCCESS && clfftSetup(&setup) == CLFFT_SUCCESS;
    if (ok) std::atexit([] { clfftTeardown(); });  // after every case's plan is gone
    return ok;
  }();
  return ready;
}

struct ClfftPlan {
  clfftPlanHandle plan = 0;
  ~ClfftPlan() {
    if (plan) clfftDestroyPlan(&plan);
  }
};

}  // namespace

std::string clfft_missing() { return ""; }

void attach_clfft(portacl::Context& ctx, portacl::BenchCase& c) {
  if (!c.state || !clfft_ready()) return;
  auto s = std::static_pointer_cast<portacl::FftBench>(c.state);
  for (std::size_t n : s->shape)
    if (!portacl::fft_smooth(n)) return;  // clFFT takes factors up to 13 only (no Bluestein): no baseline
  auto f = std::make_shared<ClfftPlan>();
  std::vector<std::size_t> lengths(s->shape.rbegin(), s->shape.rend());  // clFFT: the fastest axis first
  const clfftDim dim = lengths.size() == 1 ? CLFFT_1D : lengths.size() == 2 ? CLFFT_2D : CLFFT_3D;
  cl_context context = ctx.cl_context()();
  cl_command_queue queue = ctx.queue()();
  const bool real = s->kind == portacl::FftKind::r2c;
  const std::size_t per = s->points() / s->batch, per_out = s->plan.elements().output / 2 / s->batch;
  if (clfftCreateDefaultPlan(&f->plan, context, dim, lengths.data()) != CLFFT_SUCCESS ||
      clfftSetPlanPrecision(f->plan, CLFFT_SINGLE) != CLFFT_SUCCESS ||
      clfftSetLayout(f->plan, real ? CLFFT_REAL : CLFFT_COMPLEX_INTERLEAVED,
                     real ? CLFFT_HERMITIAN_INTERLEAVED : CLFFT_COMPLEX_INTERLEAVED) != CLFFT_SUCCESS ||
      clfftSetResultLocation(f->plan, CLFFT_OUTOFPLACE) != CLFFT_SUCCESS ||
      clfftSetPlanBatchSize(f->plan, s->batch) != CLFFT_SUCCESS)
    return;
  if (real) {
    // Packed strides: the real input's rows of n, the half spectrum's of n / 2 + 1.
    std::vector<std::size_t> in_strides{1}, out_strides{1};
    for (std::size_t k = 1; k < lengths.size(); ++k) {
      in_strides.push_back(in_strides.back() * lengths[k - 1]);
      out_strides.push_back(out_strides.back() * (k == 1 ? lengths[0] / 2 + 1 : lengths[k - 1]));
    }
    clfftSetPlanInStride(f->plan, dim, in_strides.data());
    clfftSetPlanOutStride(f->plan, dim, out_strides.data());
  }
  if (clfftSetPlanDistance(f->plan, per, real ? per_out : per) != CLFFT_SUCCESS ||
      clfftBakePlan(f->plan, 1, &queue, nullptr, nullptr) != CLFFT_SUCCESS)
    return;
  auto run = [f, s, queue] {
    cl_mem in = s->in.cl_buffer()(), out = s->out.cl_buffer()();
    cl_command_queue q = queue;
    if (clfftEnqueueTransform(f->plan, CLFFT_FORWARD, 1, &q, 0, nullptr, nullptr, &in, &out, nullptr) != CLFFT_SUCCESS)
      throw portacl::Error("clFFT: clfftEnqueueTransform failed");
  };  // the timing finishes the queue (the context's own)
  c.baseline = fft_opencl_baseline(real ? "clfft r2c" : "clfft c2c", s, run, queue);
}

#else

std::string clfft_missing() { return "portacl-bench was built without clFFT (libclfft-dev)"; }
void attach_clfft(portacl::Context&, portacl::BenchCase&) {}

#endif

}  // namespace bench
