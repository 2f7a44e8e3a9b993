#include "measure.hpp"

#include <algorithm>

namespace bench {

Stats measure(int warmup, int reps, const std::function<double()>& once) {
  for (int i = 0; i < warmup; ++i) once();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) t.push_back(once());
  Stats s;
  s.reps = reps;
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  s.min_ms = t.front();
  s.max_ms = t.back();
  s.median_ms = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
  return s;
}

double portacl_ms(portacl::Context& ctx, const std::function<void()>& run) {
  ctx.finish();
  portacl::LaunchRecorder rec(ctx);
  run();
  return rec.span_ms();
}

namespace {
cl_ulong profile(const cl::Event& e, cl_profiling_info what) {
  cl_ulong t = 0;
  portacl::check_cl(e.getProfilingInfo(what, &t), "clGetEventProfilingInfo");
  return t;
}
}  // namespace

double gated_ms(portacl::Context& ctx, const std::function<cl_event()>& enqueue) {
  ctx.finish();
  cl_int err = CL_SUCCESS;
  cl::UserEvent gate(ctx.cl_context(), &err);
  portacl::check_cl(err, "clCreateUserEvent");
  std::vector<cl::Event> wait{gate};
  cl::Event marker;
  portacl::check_cl(ctx.queue().enqueueMarkerWithWaitList(&wait, &marker), "clEnqueueMarkerWithWaitList");
  cl_event raw = nullptr;
  try {
    raw = enqueue();
  } catch (...) {
    gate.setStatus(CL_COMPLETE);
    throw;
  }
  gate.setStatus(CL_COMPLETE);
  cl::Event last(raw);  // takes ownership
  portacl::check_cl(last.wait(), "clWaitForEvents");
  const cl_ulong start = profile(marker, CL_PROFILING_COMMAND_END), end = profile(last, CL_PROFILING_COMMAND_END);
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

}  // namespace bench
