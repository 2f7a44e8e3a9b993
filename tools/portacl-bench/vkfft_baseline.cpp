// SPDX-License-Identifier: Apache-2.0
#include "vkfft_baseline.hpp"

#include "fft_opencl_baseline.hpp"

#ifdef PORTACL_HAVE_VKFFT
#define VKFFT_BACKEND 3  // OpenCL
#include <vkFFT.h>
#endif

namespace bench {

#ifdef PORTACL_HAVE_VKFFT

namespace {

// What VkFFT keeps by pointer for the plan's life: the handles and sizes
// its configuration points at, and the application itself.
struct VkfftPlan {
  VkFFTApplication app = {};
  bool made = false;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_mem in = nullptr, out = nullptr;
  uint64_t in_bytes = 0, out_bytes = 0;
  ~VkfftPlan() {
    if (made) deleteVkFFT(&app);
  }
};

}  // namespace

std::string vkfft_missing() { return ""; }

void attach_vkfft(portacl::Context& ctx, portacl::BenchCase& c) {
  if (!c.state) return;
  auto s = std::static_pointer_cast<portacl::FftBench>(c.state);
  const std::size_t dims = s->shape.size();  // 1 to 3 (the case forms)
  auto f = std::make_shared<VkfftPlan>();
  f->device = ctx.device().cl_device()();
  f->context = ctx.cl_context()();
  f->queue = ctx.queue()();
  f->in = s->in.cl_buffer()();
  f->out = s->out.cl_buffer()();
  f->in_bytes = s->in.size() * sizeof(float);
  f->out_bytes = s->out.size() * sizeof(float);
  const bool real = s->kind == portacl::FftKind::r2c;
  VkFFTConfiguration config = {};
  config.FFTdim = dims;
  for (std::size_t k = 0; k < dims; ++k) config.size[k] = s->shape[dims - 1 - k];  // VkFFT: the fastest axis first
  // The batch as the next axis where there is one (VkFFT's own benchmarks
  // batch 1D and 2D transforms so), else VkFFT's batch count.
  if (dims < 3)
    config.size[dims] = s->batch;
  else
    config.numberBatches = s->batch;
  config.device = &f->device;
  config.context = &f->context;
  config.performR2C = real;
  config.makeForwardPlanOnly = 1;
  // Out of place: the packed input read from inputBuffer, the result in buffer.
  config.isInputFormatted = 1;
  config.inputBuffer = &f->in;
  config.inputBufferSize = &f->in_bytes;
  config.buffer = &f->out;
  config.bufferSize = &f->out_bytes;
  if (real) {
    // Packed rows: n reals in, n / 2 + 1 complex values out.
    config.inputBufferStride[0] = config.size[0];
    config.bufferStride[0] = config.size[0] / 2 + 1;
    for (int k = 1; k < 3; ++k) {
      config.inputBufferStride[k] = config.inputBufferStride[k - 1] * config.size[k];
      config.bufferStride[k] = config.bufferStride[k - 1] * config.size[k];
    }
  }
  if (initializeVkFFT(&f->app, config) != VKFFT_SUCCESS) return;  // no plan: the row says no baseline
  f->made = true;
  auto run = [f] {
    VkFFTLaunchParams launch = {};
    launch.commandQueue = &f->queue;
    launch.inputBuffer = &f->in;
    launch.buffer = &f->out;
    const VkFFTResult r = VkFFTAppend(&f->app, -1, &launch);  // -1: forward
    if (r != VKFFT_SUCCESS) throw portacl::Error("VkFFT: VkFFTAppend failed with error " + std::to_string(int(r)));
  };  // the timing finishes the queue (the context's own)
  c.baseline = fft_opencl_baseline(real ? "vkfft r2c" : "vkfft c2c", s, run, f->queue);
}

#else

std::string vkfft_missing() { return "portacl-bench was built without VkFFT (libvkfft-dev)"; }
void attach_vkfft(portacl::Context&, portacl::BenchCase&) {}

#endif

}  // namespace bench
