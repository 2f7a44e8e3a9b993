// SPDX-License-Identifier: Apache-2.0
#include "portacl/context.hpp"
#include "rules/tuning_database.hpp"
#include "rules/plan_provider.hpp"
#include "runtime/tuned_plan_check.hpp"

#include <algorithm>
#include <utility>
#include <functional>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "portacl/error.hpp"

namespace portacl {

Context::Context() : Context(select_device("")) {}

Context::Context(const std::string& selector, ContextOptions options)
    : Context(select_device(selector), std::move(options)) {}

Context::Context(Device device, ContextOptions options)
    : device_(std::move(device)),
      kernels_(options.kernels ? KernelLibrary(std::move(*options.kernels)) : KernelLibrary::standard()) {
  use_tuning_databases();
  use_check(std::move(options.tuned_plan_check));
  extra_build_options_ = options.extra_build_options;
  cl_int err = CL_SUCCESS;
  context_ = cl::Context(device_.cl_device(), nullptr, nullptr, nullptr, &err);
  check_cl(err, "clCreateContext(" + device_.info().name + ")");
  queue_ = cl::CommandQueue(context_, device_.cl_device(), CL_QUEUE_PROFILING_ENABLE, &err);
  check_cl(err, "clCreateCommandQueue(" + device_.info().name + ")");
  programs_ = std::make_unique<ProgramCache>(options.cache_directory ? *options.cache_directory
                                                                     : ProgramCache::default_directory());
}

namespace {

// The queue's device, after checking that the queue can carry portacl's
// work for `context`.
Device device_of_queue(const cl::Context& context, const cl::CommandQueue& queue) {
  if (!context() || !queue()) throw Error("Context from OpenCL handles: the context or the queue is null");
  cl_context owner = nullptr;
  check_cl(clGetCommandQueueInfo(queue(), CL_QUEUE_CONTEXT, sizeof owner, &owner, nullptr),
           "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)");
  if (owner != context()) throw Error("Context from OpenCL handles: the queue belongs to another OpenCL context");
  cl_command_queue_properties properties = 0;
  check_cl(clGetCommandQueueInfo(queue(), CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr),
           "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)");
  if (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    throw Error(
        "Context from OpenCL handles: the queue executes out of order; portacl needs an in-order queue "
        "(its launches follow one another without events)");
  cl_device_id device = nullptr;
  check_cl(clGetCommandQueueInfo(queue(), CL_QUEUE_DEVICE, sizeof device, &device, nullptr),
           "clGetCommandQueueInfo(CL_QUEUE_DEVICE)");
  return device_of(cl::Device(device, true));
}

}  // namespace

Context::Context(const cl::Context& context, const cl::CommandQueue& queue, ContextOptions options)
    : device_(device_of_queue(context, queue)),
      context_(context),
      queue_(queue),
      kernels_(options.kernels ? KernelLibrary(std::move(*options.kernels)) : KernelLibrary::standard()) {
  use_tuning_databases();
  use_check(std::move(options.tuned_plan_check));
  extra_build_options_ = options.extra_build_options;
  programs_ = std::make_unique<ProgramCache>(options.cache_directory ? *options.cache_directory
                                                                     : ProgramCache::default_directory());
}

Context::Context(::cl_context context, ::cl_command_queue queue, ContextOptions options)
    : Context(cl::Context(context, true), cl::CommandQueue(queue, true), std::move(options)) {}

void Context::use_check(std::optional<TunedPlanCheck> check) {
  if (!check) {
    tuned_check_ = library_tuned_plan_check;
    return;
  }
  tuned_check_ = std::move(*check);
  own_check_ = true;
}

std::uint64_t Context::current_plan_generation() { return plan_generation(); }

// The context's check's answer the first time it meets this stored result
// (in the process for the library's check, in the context for its own);
// "" every later time. Marked before it runs, so a plan made inside the
// check (another kernel's record) cannot recurse into it.
std::string check_tuned_plan_once(Context& ctx, const LaunchPlan& p, const ProblemSize& size,
                                  const PlanOptions& options) {
  static std::mutex mutex;
  static std::set<std::string> checked_in_process;
  if (!ctx.tuned_check_) return "";
  {
    std::lock_guard<std::mutex> lock(mutex);
    std::set<std::string>& checked = ctx.own_check_ ? ctx.checked_ : checked_in_process;
    if (!checked.insert(ctx.info().name + '\0' + p.provenance).second) return "";
  }
  try {
    return ctx.tuned_check_(ctx, p, size, options);
  } catch (const std::exception& e) {
    return e.what();
  }
}

LaunchPlan Context::plan(const KernelTraits& traits, const ProblemSize& size, const PlanOptions& options) {
  LaunchPlan p;
  if (!options.plan_as) {
    p = make_plan(device_.info(), traits, size, options);
  } else {
    // Another device's rules, this device's limits and capabilities.
    require_precision(info(), traits);
    PlanOptions o = options;
    DeviceLimits live = DeviceLimits::of(info());
    o.live_limits = o.live_limits ? o.live_limits->intersect(live) : live;
    o.plan_as.reset();
    p = make_plan(*options.plan_as, traits, size, o);
  }
  if (options.override_values || p.provenance.rfind("tuning database ", 0) != 0) return p;
  const std::string problem = check_tuned_plan_once(*this, p, size, options);
  if (problem.empty() || !distrust_tuned_plan(p, "its results failed the library's check: " + problem)) return p;
  return plan(traits, size, options);
}

namespace {

std::string thread_tag() {
  const std::size_t id = std::hash<std::thread::id>()(std::this_thread::get_id());
  return std::string(reinterpret_cast<const char*>(&id), sizeof id);
}

template <class V>
void append_raw(std::string& key, const V& v) {
  key.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Everything a plan depends on besides the device and the options: the
// kernel, its traits, the problem size, and the calling thread (its kernel
// object).
std::string shape_key(const KernelRef& ref, const KernelTraits& t, const ProblemSize& size) {
  std::string key;
  key.reserve(ref.file.size() + ref.entry.size() + ref.source_text.size() + t.name.size() + 128);
  key += ref.file;
  key += '\0';
  key += ref.entry;
  key += '\0';
  key += ref.source_text;
  key += '\0';
  key += ref.compiler_flags;
  key += '\0';
  key += t.name;
  key += '\0';
  append_raw(key, t.element);
  append_raw(key, t.dimensions);
  const unsigned flags = t.benefits_from_local_tiling | t.needs_barriers << 1 | t.has_barrier_free_variant << 2 |
                         t.vectorizable << 3 | t.scalar_on_simt << 4 | t.combines_partials << 5;
  append_raw(key, flags);
  append_raw(key, t.bytes_per_item);
  append_raw(key, t.flops_per_item);
  append_raw(key, t.local_bytes_per_work_item);
  append_raw(key, size.extent);
  key += thread_tag();
  return key;
}

}  // namespace

Context::KernelObject Context::kernel_object(const KernelRef& ref, const std::string& plan_options) {
  std::string options = ref.compiler_flags.empty() ? plan_options
                        : plan_options.empty()     ? ref.compiler_flags
                                                   : plan_options + " " + ref.compiler_flags;
  if (!extra_build_options_.empty()) options += (options.empty() ? "" : " ") + extra_build_options_;
  std::string key = ref.file + '\0' + ref.source_text + '\0' + options + '\0' + ref.entry + '\0' + thread_tag();
  std::lock_guard<std::mutex> lock(cache_mutex_);
  auto cached = kernel_objects_.find(key);
  if (cached != kernel_objects_.end()) return cached->second;
  // Sources are read and expanded once per context, not on every launch.
  std::string source_key = ref.file + '\0' + ref.source_text;
  auto it = sources_.find(source_key);
  if (it == sources_.end()) {
    KernelSource loaded =
        ref.source_text.empty() ? kernels_.load(ref.file) : kernels_.from_text(ref.file, ref.source_text);
    it = sources_.emplace(std::move(source_key), std::move(loaded)).first;
  }
  cl::Program program = programs_->get(context_, device_.cl_device(), device_.info(), it->second, options, ref.entry);
  cl_int err = CL_SUCCESS;
  KernelObject made;
  made.kernel = cl::Kernel(program, ref.entry.c_str(), &err);
  check_cl(err, "clCreateKernel(" + ref.entry + " in " + ref.file + ")");
  std::size_t limit = 0;
  check_cl(made.kernel.getWorkGroupInfo(device_.cl_device(), CL_KERNEL_WORK_GROUP_SIZE, &limit),
           "clGetKernelWorkGroupInfo(" + ref.entry + ", CL_KERNEL_WORK_GROUP_SIZE)");
  made.work_group_limit = limit;
  kernel_objects_.emplace(std::move(key), made);
  return made;
}

PreparedKernel Context::prepare(const KernelRef& ref, const KernelTraits& traits, const ProblemSize& size,
                                const PlanOptions& options) {
  if (!options.leaves_plan_to_device()) return prepare_uncached(ref, traits, size, options);
  // The repeated call's path: one key, one lookup, no planning, no build.
  std::string key = shape_key(ref, traits, size);
  const std::uint64_t generation = plan_generation();
  {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    auto it = shapes_.find(key);
    if (it != shapes_.end() && it->second.generation == generation) return it->second.prepared;
  }
  PreparedKernel made = prepare_uncached(ref, traits, size, options);
  std::lock_guard<std::mutex> lock(cache_mutex_);
  shapes_[std::move(key)] = Shape{generation, made};
  return made;
}

std::shared_ptr<const void> Context::find_call(const std::string& key) {
  const std::string full = key + '\0' + thread_tag();
  const std::uint64_t generation = plan_generation();
  std::lock_guard<std::mutex> lock(cache_mutex_);
  auto it = calls_.find(full);
  return it != calls_.end() && it->second.generation == generation ? it->second.prepared : nullptr;
}

void Context::keep_call(const std::string& key, std::shared_ptr<const void> prepared, std::uint64_t generation) {
  std::lock_guard<std::mutex> lock(cache_mutex_);
  calls_[key + '\0' + thread_tag()] = Call{generation, std::move(prepared)};
}

PreparedKernel Context::prepare_uncached(const KernelRef& ref, const KernelTraits& traits, const ProblemSize& size,
                                         const PlanOptions& options) {
  LaunchPlan p = plan(traits, size, options);
  KernelObject k;
  try {
    k = kernel_object(ref, p.build_options());
  } catch (const Error& e) {
    // A tuned configuration that does not build is the database's fault,
    // not the call's: the rules plan it (reported once).
    if (!distrust_tuned_plan(p, e.what())) throw;
    return prepare_uncached(ref, traits, size, options);
  }
  if (k.work_group_limit && p.work_group_size() > k.work_group_limit) {
    // The compiled kernel holds fewer work-items (registers, local memory):
    // re-plan under its limit, and rebuild if the macros changed.
    PlanOptions tighter = options;
    tighter.kernel_work_group_limit = k.work_group_limit;
    LaunchPlan q = plan(traits, size, tighter);
    if (q.build_options() != p.build_options()) k = kernel_object(ref, q.build_options());
    p = std::move(q);
  }
  return PreparedKernel{k.kernel, std::move(p), ref.entry};
}

std::size_t Context::compiled_work_group_limit(const KernelRef& ref, const LaunchPlan& plan) {
  return kernel_object(ref, plan.build_options()).work_group_limit;
}

PreparedKernel Context::prepare(const KernelRef& ref, const LaunchPlan& plan) {
  KernelObject k = kernel_object(ref, plan.build_options());
  if (k.work_group_limit && plan.work_group_size() > k.work_group_limit)
    throw Error("plan for '" + ref.entry + "' uses work-groups of " + std::to_string(plan.work_group_size()) +
                " but the compiled kernel allows at most " + std::to_string(k.work_group_limit) + " on '" +
                info().name + "' (CL_KERNEL_WORK_GROUP_SIZE)");
  return PreparedKernel{k.kernel, plan, ref.entry};
}

Context::~Context() {
  // No error leaves a destructor: a queue that cannot finish has nothing
  // left worth waiting for.
  for (cl::CommandQueue& q : extra_queues_)
    if (q()) q.finish();
  if (queue_()) queue_.finish();
}

cl::Event Context::done() {
  cl::Event marker;
  check_cl(queue_.enqueueMarkerWithWaitList(nullptr, &marker), "clEnqueueMarkerWithWaitList");
  return marker;
}

void Context::after(const std::vector<cl::Event>& events) {
  if (events.empty()) return;
  check_cl(queue_.enqueueBarrierWithWaitList(&events), "clEnqueueBarrierWithWaitList");
}

cl::Event Context::launch(const PreparedKernel& k) { return launch(k, queue_, nullptr); }

cl::Event Context::launch(const PreparedKernel& k, cl::CommandQueue& queue, const std::vector<cl::Event>* wait) {
  const LaunchPlan& p = k.plan;
  if (p.empty())
    throw Error("zero-size launch of '" + k.name +
                "': the plan covers no work-items (an empty problem needs no launch)");
  cl::NDRange global, local;
  switch (p.dimensions) {
    case 1:
      global = cl::NDRange(p.global[0]);
      local = cl::NDRange(p.local[0]);
      break;
    case 2:
      global = cl::NDRange(p.global[0], p.global[1]);
      local = cl::NDRange(p.local[0], p.local[1]);
      break;
    default:
      global = cl::NDRange(p.global[0], p.global[1], p.global[2]);
      local = cl::NDRange(p.local[0], p.local[1], p.local[2]);
  }
  cl::Event ev;
  const cl_int status =
      queue.enqueueNDRangeKernel(k.kernel, cl::NullRange, global, local, wait && !wait->empty() ? wait : nullptr, &ev);
  if (status != CL_SUCCESS)  // the message is built only on failure: this is every call's path
    check_cl(status, "clEnqueueNDRangeKernel(" + k.name + ", global " + std::to_string(p.global[0]) + ", local " +
                         std::to_string(p.local[0]) + ")");
  if (recorder_) recorder_->push_back(ev);
  return ev;
}

cl::CommandQueue& Context::queue(unsigned index) {
  if (index == 0) return queue_;
  while (extra_queues_.size() < index) {
    cl_int err = CL_SUCCESS;
    extra_queues_.emplace_back(context_, device_.cl_device(), CL_QUEUE_PROFILING_ENABLE, &err);
    check_cl(err,
             "clCreateCommandQueue(" + device_.info().name + ", queue " + std::to_string(extra_queues_.size()) + ")");
  }
  return extra_queues_[index - 1];
}

const cl::Buffer& Context::scratch(const std::string& purpose, std::size_t bytes, bool zeroed) {
  std::lock_guard<std::recursive_mutex> held(scratch_mutex_);
  Scratch& s = scratch_[purpose];
  if (s.bytes < bytes || s.bytes == 0) {
    std::size_t want = std::max<std::size_t>(bytes, 64);
    if (info().max_mem_alloc_size && want > info().max_mem_alloc_size)
      throw Error("scratch memory '" + purpose + "' of " + std::to_string(want) +
                  " bytes exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE (" + std::to_string(info().max_mem_alloc_size) +
                  ") of '" + info().name + "'");
    cl_int err = CL_SUCCESS;
    cl::Buffer b(context_, CL_MEM_READ_WRITE, want, nullptr, &err);
    check_cl(err, "clCreateBuffer(scratch '" + purpose + "', " + std::to_string(want) + " bytes)");
    if (zeroed) {
      std::vector<unsigned char> zeros(want, 0);
      check_cl(queue_.enqueueWriteBuffer(b, CL_TRUE, 0, want, zeros.data()),
               "clEnqueueWriteBuffer(scratch '" + purpose + "')");
    }
    s.buffer = b;
    s.bytes = want;
    s.epoch = 0;
  }
  return s.buffer;
}

std::uint32_t Context::scratch_epoch(const std::string& purpose, std::uint32_t limit) {
  std::lock_guard<std::recursive_mutex> held(scratch_mutex_);
  auto it = scratch_.find(purpose);
  if (it == scratch_.end()) throw Error("scratch_epoch: no scratch buffer '" + purpose + "'");
  Scratch& s = it->second;
  if (++s.epoch >= limit) {
    check_cl(queue_.enqueueFillBuffer(s.buffer, cl_uchar(0), 0, s.bytes),
             "clEnqueueFillBuffer(scratch '" + purpose + "')");
    s.epoch = 1;
  }
  return s.epoch;
}

void Context::finish() { check_cl(queue_.finish(), "clFinish"); }

namespace {
// A finished command's start and end on the device clock, in nanoseconds.
std::pair<cl_ulong, cl_ulong> profiled_interval(const cl::Event& event) {
  cl_ulong start = 0, end = 0;
  check_cl(event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start), "clGetEventProfilingInfo(START)");
  check_cl(event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end), "clGetEventProfilingInfo(END)");
  return {start, end};
}
}  // namespace

double Context::elapsed_ms(const cl::Event& event) {
  check_cl(event.wait(), "clWaitForEvents");
  const auto [start, end] = profiled_interval(event);
  return static_cast<double>(end - start) * 1e-6;
}

double LaunchRecorder::span_ms() const {
  if (events_.empty()) return 0;
  // Launches may sit on several queues (adaptive CSR puts each row bin on
  // its own), so the last one recorded need not finish last: wait for all,
  // and span the earliest start to the latest end.
  check_cl(cl::WaitForEvents(events_), "clWaitForEvents");
  cl_ulong first_start = ~cl_ulong(0), last_end = 0;
  for (const cl::Event& e : events_) {
    const auto [start, end] = profiled_interval(e);
    first_start = std::min(first_start, start);
    last_end = std::max(last_end, end);
  }
  return last_end > first_start ? static_cast<double>(last_end - first_start) * 1e-6 : 0.0;
}

namespace detail {
void set_arg(const cl::Kernel& k, const std::string& name, unsigned index, std::size_t size, const void* value) {
  const cl_int status = ::clSetKernelArg(k(), index, size, value);
  if (status != CL_SUCCESS) check_cl(status, "clSetKernelArg(" + name + ", argument " + std::to_string(index) + ")");
}
}  // namespace detail

}  // namespace portacl
