// SPDX-License-Identifier: Apache-2.0
#include "portacl/vectors.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "kernel_call.hpp"
#include "portacl/error.hpp"
#include "kernels/stream_tunables.hpp"

namespace portacl {
namespace {

// One queue's resources: device chunks and, when staging, pinned mirrors.
struct Lane {
  cl::Buffer x, y;
  std::unique_ptr<HostBuffer<unsigned char>> x_pinned, y_pinned;  // mapped once, unmapped when the lane goes
  void* x_host = nullptr;
  void* y_host = nullptr;
  cl::Event done;           // the download of this lane's last chunk
  std::size_t pending = 0;  // first element of that chunk
  std::size_t pending_n = 0;
};

cl::Buffer device_buffer(Context& ctx, std::size_t bytes, cl_mem_flags flags, const char* what) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(ctx.cl_context(), flags, bytes, nullptr, &err);
  check_cl(err, std::string("clCreateBuffer(pipeline ") + what + ", " + std::to_string(bytes) + " bytes)");
  return b;
}

using SetArgs = std::function<void(PreparedKernel&, cl_ulong n, const cl::Buffer& x, const cl::Buffer& y)>;

template <class T>
PipelineReport run(Context& ctx, const char* op, const T* x, T* y, std::size_t n, bool y_is_input,
                   const PipelineOptions& opt, const KernelRef& ref, const KernelTraits& traits,
                   const SetArgs& set_args) {
  if (opt.queues == 0) throw Error(std::string(op) + ": a pipeline needs at least one queue");
  if (n && (!x || !y)) throw Error(std::string(op) + ": a host array is null");
  PipelineReport r;
  r.queues = opt.queues;
  if (n == 0) return r;
  const std::size_t chunk = std::min(
      n, opt.chunk_elements ? opt.chunk_elements : std::max<std::size_t>(n / (4 * opt.queues), std::size_t{1} << 18));
  const std::size_t bytes = bytes_of<T>(chunk, "pipeline chunk");
  r.chunk_elements = chunk;
  r.chunks = (n + chunk - 1) / chunk;
  r.pinned_staging = opt.pinned_staging.value_or(false);

  PreparedKernel k = ctx.prepare(ref, traits, ProblemSize(chunk));
  std::vector<Lane> lanes(std::min<std::size_t>(opt.queues, r.chunks));
  for (Lane& l : lanes) {
    l.x = device_buffer(ctx, bytes, CL_MEM_READ_ONLY, "x");
    l.y = device_buffer(ctx, bytes, CL_MEM_READ_WRITE, "y");
    if (r.pinned_staging) {
      l.x_pinned = std::make_unique<HostBuffer<unsigned char>>(ctx, bytes);
      l.y_pinned = std::make_unique<HostBuffer<unsigned char>>(ctx, bytes);
      l.x_host = l.x_pinned->data();
      l.y_host = l.y_pinned->data();
    }
  }
  // A lane's previous chunk must be in y before its staging is reused.
  auto retire = [&](Lane& l) {
    if (!l.done()) return;
    check_cl(l.done.wait(), std::string("clWaitForEvents(") + op + " download)");
    if (r.pinned_staging) std::memcpy(y + l.pending, l.y_host, l.pending_n * sizeof(T));
    l.done = cl::Event();
  };

  const auto start = std::chrono::steady_clock::now();
  try {
    for (std::size_t c = 0; c < r.chunks; ++c) {
      const unsigned qi = static_cast<unsigned>(c % lanes.size());
      Lane& l = lanes[qi];
      cl::CommandQueue& q = ctx.queue(qi);
      retire(l);
      const std::size_t first = c * chunk, m = std::min(chunk, n - first), mb = m * sizeof(T);
      const void* xs = x + first;
      const void* ys = y + first;
      if (r.pinned_staging) {
        std::memcpy(l.x_host, xs, mb);
        xs = l.x_host;
        if (y_is_input) {
          std::memcpy(l.y_host, ys, mb);
          ys = l.y_host;
        }
      }
      std::vector<cl::Event> ready(1 + y_is_input);
      check_cl(q.enqueueWriteBuffer(l.x, CL_FALSE, 0, mb, xs, nullptr, &ready[0]), std::string(op) + ": upload x");
      if (y_is_input)
        check_cl(q.enqueueWriteBuffer(l.y, CL_FALSE, 0, mb, ys, nullptr, &ready[1]), std::string(op) + ": upload y");
      set_args(k, m, l.x, l.y);
      std::vector<cl::Event> ran(1, ctx.launch(k, q, &ready));
      void* out = r.pinned_staging ? l.y_host : static_cast<void*>(y + first);
      check_cl(q.enqueueReadBuffer(l.y, CL_FALSE, 0, mb, out, &ran, &l.done), std::string(op) + ": download y");
      l.pending = first;
      l.pending_n = m;
    }
    for (Lane& l : lanes) retire(l);
  } catch (...) {
    for (unsigned i = 0; i < lanes.size(); ++i) ctx.queue(i).finish();
    throw;
  }
  r.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ctx.finish();
  return r;
}

}  // namespace

template <class T, class>
PipelineReport axpy_pipelined(Context& ctx, T a, const T* x, T* y, std::size_t n, const PipelineOptions& o) {
  return run(ctx, "axpy_pipelined", x, y, n, true, o, axpy_kernel, axpy_traits(element_of<T>::value),
             [a](PreparedKernel& k, cl_ulong m, const cl::Buffer& xd, const cl::Buffer& yd) {
               kernel_call::set(k, 0, m);
               kernel_call::set(k, 1, a);
               kernel_call::set(k, 2, xd);
               kernel_call::set(k, 3, yd);
             });
}

template <class T, class>
PipelineReport axpy_pipelined(Context& ctx, T a, const HostBuffer<T>& x, HostBuffer<T>& y, const PipelineOptions& o) {
  if (&x.context() != &ctx || &y.context() != &ctx)
    throw Error("axpy_pipelined: a HostBuffer belongs to another Context (its memory is pinned for that context)");
  if (x.size() != y.size())
    throw Error("axpy_pipelined: x has " + std::to_string(x.size()) + " elements but y has " +
                std::to_string(y.size()));
  PipelineOptions direct = o;
  direct.pinned_staging = false;  // already pinned: a staging copy would only add a memcpy
  return axpy_pipelined(ctx, a, x.data(), y.data(), x.size(), direct);
}

template <class T, class>
PipelineReport map_pipelined(Context& ctx, const std::string& expression, const T* x, T* y, std::size_t n,
                             const PipelineOptions& o) {
  kernel_call::check_expression("map_pipelined", "expression", expression);
  return run(ctx, "map_pipelined", x, y, n, false, o, map_kernel(expression, element_of<T>::value),
             stream_traits("map", element_of<T>::value, 2, 1),
             [](PreparedKernel& k, cl_ulong m, const cl::Buffer& xd, const cl::Buffer& yd) {
               kernel_call::set(k, 0, m);
               kernel_call::set(k, 1, xd);
               kernel_call::set(k, 2, yd);
             });
}

#define PORTACL_PIPELINE_INSTANTIATE(T)                                                                      \
  template PipelineReport axpy_pipelined<T>(Context&, T, const T*, T*, std::size_t, const PipelineOptions&); \
  template PipelineReport axpy_pipelined<T>(Context&, T, const HostBuffer<T>&, HostBuffer<T>&,               \
                                            const PipelineOptions&);                                         \
  template PipelineReport map_pipelined<T>(Context&, const std::string&, const T*, T*, std::size_t,          \
                                           const PipelineOptions&);
PORTACL_PIPELINE_INSTANTIATE(float)
PORTACL_PIPELINE_INSTANTIATE(double)

}  // namespace portacl
