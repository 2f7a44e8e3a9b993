#include "measure.hpp"


namespace bench {

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

double marked_ms(portacl::Context& ctx, const std::function<cl_event()>& enqueue) {
  ctx.finish();
  cl::Event marker;
  portacl::check_cl(ctx.queue().enqueueMarkerWithWaitList(nullptr, &marker), "clEnqueueMarkerWithWaitList");
  cl::Event last(enqueue());  // takes ownership
  portacl::check_cl(last.wait(), "clWaitForEvents");
  const cl_ulong start = profile(marker, CL_PROFILING_COMMAND_END), end = profile(last, CL_PROFILING_COMMAND_END);
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

}  // namespace bench
