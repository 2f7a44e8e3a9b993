#include "portacl/runtime/context.hpp"
#include "portacl/tuning/tuning_database.hpp"

#include <algorithm>
#include <vector>

#include "portacl/error.hpp"

namespace portacl {

Context::Context() : Context(select_device("")) {}

Context::Context(const std::string& selector, ContextOptions options)
    : Context(select_device(selector), std::move(options)) {}

Context::Context(Device device, ContextOptions options)
    : device_(std::move(device)),
      kernels_(options.kernels ? std::move(*options.kernels) : KernelLibrary::standard()) {
  use_tuning_databases();
  cl_int err = CL_SUCCESS;
  context_ = cl::Context(device_.cl_device(), nullptr, nullptr, nullptr, &err);
  check_cl(err, "clCreateContext(" + device_.info().name + ")");
  queue_ = cl::CommandQueue(context_, device_.cl_device(), CL_QUEUE_PROFILING_ENABLE, &err);
  check_cl(err, "clCreateCommandQueue(" + device_.info().name + ")");
  programs_ = std::make_unique<ProgramCache>(options.cache_directory ? *options.cache_directory
                                                                     : ProgramCache::default_directory());
}

LaunchPlan Context::plan(const KernelTraits& traits, const ProblemSize& size, const PlanOptions& options) const {
  if (!options.plan_as) return make_plan(device_.info(), traits, size, options);
  // Another device's rules, this device's limits and capabilities.
  require_precision(info(), traits);
  PlanOptions o = options;
  DeviceLimits live = DeviceLimits::of(info());
  o.live_limits = o.live_limits ? o.live_limits->intersect(live) : live;
  o.plan_as.reset();
  return make_plan(*options.plan_as, traits, size, o);
}

cl::Kernel Context::build_kernel(const KernelRef& ref, const std::string& options) {
  // Sources are read and expanded once per context, not on every launch.
  std::string key = ref.file + '\0' + ref.source_text;
  auto it = sources_.find(key);
  if (it == sources_.end()) {
    KernelSource loaded =
        ref.source_text.empty() ? kernels_.load(ref.file) : kernels_.from_text(ref.file, ref.source_text);
    it = sources_.emplace(std::move(key), std::move(loaded)).first;
  }
  const KernelSource& src = it->second;
  cl::Program program = programs_->get(context_, device_.cl_device(), device_.info(), src, options);
  cl_int err = CL_SUCCESS;
  cl::Kernel k(program, ref.entry.c_str(), &err);
  check_cl(err, "clCreateKernel(" + ref.entry + " in " + ref.file + ")");
  return k;
}

namespace {
std::size_t kernel_wg_limit(const cl::Kernel& k, const cl::Device& d, const std::string& name) {
  size_t limit = 0;
  check_cl(k.getWorkGroupInfo(d, CL_KERNEL_WORK_GROUP_SIZE, &limit),
           "clGetKernelWorkGroupInfo(" + name + ", CL_KERNEL_WORK_GROUP_SIZE)");
  return limit;
}
}  // namespace

PreparedKernel Context::prepare(const KernelRef& ref, const KernelTraits& traits, const ProblemSize& size,
                                const PlanOptions& options) {
  LaunchPlan p = plan(traits, size, options);
  cl::Kernel k = build_kernel(ref, p.build_options());
  std::size_t limit = kernel_wg_limit(k, device_.cl_device(), ref.entry);
  if (limit && p.work_group_size() > limit) {
    // The compiled kernel holds fewer work-items (registers, local memory):
    // re-plan under its limit, and rebuild if the macros changed.
    PlanOptions tighter = options;
    tighter.kernel_work_group_limit = limit;
    LaunchPlan q = plan(traits, size, tighter);
    if (q.build_options() != p.build_options()) k = build_kernel(ref, q.build_options());
    p = std::move(q);
  }
  return PreparedKernel{k, std::move(p), ref.entry};
}

PreparedKernel Context::prepare(const KernelRef& ref, const LaunchPlan& plan) {
  cl::Kernel k = build_kernel(ref, plan.build_options());
  std::size_t limit = kernel_wg_limit(k, device_.cl_device(), ref.entry);
  if (limit && plan.work_group_size() > limit)
    throw Error("plan for '" + ref.entry + "' uses work-groups of " + std::to_string(plan.work_group_size()) +
                " but the compiled kernel allows at most " + std::to_string(limit) +
                " on '" + info().name + "' (CL_KERNEL_WORK_GROUP_SIZE)");
  return PreparedKernel{k, plan, ref.entry};
}

cl::Event Context::launch(const PreparedKernel& k) { return launch(k, queue_, nullptr); }

cl::Event Context::launch(const PreparedKernel& k, cl::CommandQueue& queue, const std::vector<cl::Event>* wait) {
  const LaunchPlan& p = k.plan;
  if (p.empty())
    throw Error("zero-size launch of '" + k.name +
                "': the plan covers no work-items (an empty problem needs no launch)");
  cl::NDRange global, local;
  switch (p.dimensions) {
    case 1: global = cl::NDRange(p.global[0]); local = cl::NDRange(p.local[0]); break;
    case 2: global = cl::NDRange(p.global[0], p.global[1]); local = cl::NDRange(p.local[0], p.local[1]); break;
    default:
      global = cl::NDRange(p.global[0], p.global[1], p.global[2]);
      local = cl::NDRange(p.local[0], p.local[1], p.local[2]);
  }
  cl::Event ev;
  check_cl(queue.enqueueNDRangeKernel(k.kernel, cl::NullRange, global, local, wait && !wait->empty() ? wait : nullptr,
                                      &ev),
           "clEnqueueNDRangeKernel(" + k.name + ", global " + std::to_string(p.global[0]) + ", local " +
               std::to_string(p.local[0]) + ")");
  if (recorder_) recorder_->push_back(ev);
  return ev;
}

cl::CommandQueue& Context::queue(unsigned index) {
  if (index == 0) return queue_;
  while (extra_queues_.size() < index) {
    cl_int err = CL_SUCCESS;
    extra_queues_.emplace_back(context_, device_.cl_device(), CL_QUEUE_PROFILING_ENABLE, &err);
    check_cl(err, "clCreateCommandQueue(" + device_.info().name + ", queue " +
                      std::to_string(extra_queues_.size()) + ")");
  }
  return extra_queues_[index - 1];
}

const cl::Buffer& Context::scratch(const std::string& purpose, std::size_t bytes, bool zeroed) {
  Scratch& s = scratch_[purpose];
  if (s.bytes < bytes || s.bytes == 0) {
    std::size_t want = std::max<std::size_t>(bytes, 64);
    cl_int err = CL_SUCCESS;
    cl::Buffer b(context_, CL_MEM_READ_WRITE, want, nullptr, &err);
    check_cl(err, "clCreateBuffer(scratch '" + purpose + "', " + std::to_string(want) + " bytes)");
    if (zeroed) {
      std::vector<unsigned char> zeros(want, 0);
      check_cl(queue_.enqueueWriteBuffer(b, CL_TRUE, 0, want, zeros.data()), "clEnqueueWriteBuffer(scratch '" + purpose + "')");
    }
    s.buffer = b;
    s.bytes = want;
    s.epoch = 0;
  }
  return s.buffer;
}

std::uint32_t Context::scratch_epoch(const std::string& purpose, std::uint32_t limit) {
  auto it = scratch_.find(purpose);
  if (it == scratch_.end()) throw Error("scratch_epoch: no scratch buffer '" + purpose + "'");
  Scratch& s = it->second;
  if (++s.epoch >= limit) {
    check_cl(queue_.enqueueFillBuffer(s.buffer, cl_uchar(0), 0, s.bytes), "clEnqueueFillBuffer(scratch '" + purpose + "')");
    s.epoch = 1;
  }
  return s.epoch;
}

void Context::finish() { check_cl(queue_.finish(), "clFinish"); }

double Context::elapsed_ms(const cl::Event& event) {
  check_cl(event.wait(), "clWaitForEvents");
  cl_ulong start = 0, end = 0;
  check_cl(event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start), "clGetEventProfilingInfo(START)");
  check_cl(event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end), "clGetEventProfilingInfo(END)");
  return static_cast<double>(end - start) * 1e-6;
}

double LaunchRecorder::span_ms() const {
  if (events_.empty()) return 0;
  check_cl(events_.back().wait(), "clWaitForEvents");
  cl_ulong start = 0, end = 0;
  check_cl(events_.front().getProfilingInfo(CL_PROFILING_COMMAND_START, &start), "clGetEventProfilingInfo(START)");
  check_cl(events_.back().getProfilingInfo(CL_PROFILING_COMMAND_END, &end), "clGetEventProfilingInfo(END)");
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

namespace detail {
void set_arg(cl::Kernel& k, const std::string& name, unsigned index, std::size_t size, const void* value) {
  check_cl(::clSetKernelArg(k(), index, size, value), "clSetKernelArg(" + name + ", argument " + std::to_string(index) + ")");
}
}  // namespace detail

}  // namespace portacl
