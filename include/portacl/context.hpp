// SPDX-License-Identifier: Apache-2.0
/// \file
/// A context on one device (queues, programs, plans, tuning), and a device
/// group of several.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "portacl/cl.hpp"
#include "portacl/device.hpp"
#include "portacl/plan.hpp"
#include "portacl/programs.hpp"

// ---- context -----------------------------------------------------------------
/// A device, its context and one in-order profiling queue, the program cache
/// and the kernel sources: everything a launch needs, owned in one RAII value.
namespace portacl {

/// Where a kernel lives: its .cl file and entry point.
struct KernelRef {
  std::string file;   ///< the .cl file on the kernel path ("stream.cl")
  std::string entry;  ///< the __kernel function's name
  /// When set, the source is this text (named `file` in messages; its
  /// #includes resolve from the kernel library): user-fused kernels.
  std::string source_text;
  /// Compiler options beyond the plan's macros (user expressions in float:
  /// -cl-single-precision-constant, see kernel_call::expression_flags).
  std::string compiler_flags = "";
};

/// A kernel object with its plan. Kernel objects are cached per context,
/// program, entry point and thread: each thread sets arguments on its own
/// object, so two threads never race on one cl_kernel's arguments.
struct PreparedKernel {
  cl::Kernel kernel;  ///< this thread's kernel object
  LaunchPlan plan;    ///< the plan it was built for, and launches under
  std::string name;   ///< entry point, for messages
};

class Context;

/// How a plan from a tuning database is checked at its first use: run the
/// plan's operations under the stored configuration on a small problem and
/// compare with the host reference; "" when right, else what was wrong. A
/// failure distrusts the record (distrust_tuned_plan), so the rules plan
/// from then on. An empty function checks nothing.
using TunedPlanCheck = std::function<std::string(Context&, const LaunchPlan&, const ProblemSize&, const PlanOptions&)>;

/// What a Context is built with beyond its device.
struct ContextOptions {
  /// Disk cache directory; unset: ProgramCache::default_directory(); "" disables.
  std::optional<std::string> cache_directory;
  /// Kernel sources; unset: KernelLibrary::standard().
  std::optional<KernelLibrary> kernels;
  /// How this context checks a tuned plan at its first use; unset: the
  /// library's check (it re-runs the operation the record tuned and compares
  /// with its host reference), once per device and record in the process. A
  /// check given here runs once per record in this context.
  std::optional<TunedPlanCheck> tuned_plan_check;
  /// OpenCL C compiler options added to every program this context builds
  /// (part of the caches' keys). A device group gives each of its PoCL
  /// members a define of its own (quirk pocl.dlhandle-cache-release).
  std::string extra_build_options;
};

/// Threads: a Context may be shared. Its caches are guarded by a lock, its
/// kernel objects are per thread (two threads never race on one cl_kernel's
/// arguments), and an operation that uses the Context's scratch memory
/// (reductions, scans, compaction, GEMM's panels, GEMV's and SPMV's partial
/// sums, heat2d's second grid) holds it from its first launch to its last read-back
/// (hold_scratch), so such operations from several threads run one after
/// the other on the shared in-order queue. For work that should overlap,
/// give each thread its own Context.
class Context {
 public:
  Context();  ///< select_device("") : PORTACL_DEVICE or the default
  /// The device `selector` picks (device.hpp's grammar; "" as PORTACL_DEVICE).
  explicit Context(const std::string& selector, ContextOptions options = {});
  /// On `device`.
  explicit Context(Device device, ContextOptions options = {});
  /// Joins OpenCL code the program already has: its context and in-order
  /// queue are used as they are (retained, not copied), the device is the
  /// queue's, and portacl's work goes on that queue in order with the
  /// program's own. Buffers of that context can be wrapped (Buffer<T>'s
  /// wrapping constructors). Throws portacl::Error when the queue belongs to
  /// another context or executes out of order (portacl's launches rely on
  /// order). A queue without CL_QUEUE_PROFILING_ENABLE works; only timing
  /// (elapsed_ms, LaunchRecorder) then fails.
  Context(const cl::Context& context, const cl::CommandQueue& queue, ContextOptions options = {});
  /// As the constructor above, from C handles (retained).
  Context(::cl_context context, ::cl_command_queue queue, ContextOptions options = {});
  /// Waits for the work still queued on every queue of this context (a
  /// kernel may still be running on buffers the caller is about to free,
  /// and some drivers, PoCL among them, compile lazily on worker threads
  /// that must not outlive the program objects).
  ~Context();
  /// Buffers and kernels refer back to their context: it does not move.
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Device& device() const { return device_; }                  ///< the device
  const DeviceInfo& info() const { return device_.info(); }         ///< its description
  const cl::Context& cl_context() const { return context_; }        ///< the OpenCL context
  cl::CommandQueue& queue() { return queue_; }                      ///< the in-order queue every call uses
  ProgramCache& programs() { return *programs_; }                   ///< the compiled programs, kept
  const KernelLibrary& kernel_library() const { return kernels_; }  ///< where kernel sources come from

  /// The rule-based (or tuned) plan for this device. A plan from a tuning
  /// database is checked at its first use (ContextOptions::tuned_plan_check):
  /// the rules plan instead when its results are wrong.
  LaunchPlan plan(const KernelTraits& traits, const ProblemSize& size, const PlanOptions& options = {});

  /// Loads, compiles (through both caches) and returns the kernel with a plan
  /// that also respects the compiled kernel's CL_KERNEL_WORK_GROUP_SIZE.
  PreparedKernel prepare(const KernelRef& ref, const KernelTraits& traits, const ProblemSize& size,
                         const PlanOptions& options = {});
  /// Same with a plan made elsewhere (e.g. another device class's plan);
  /// throws if the plan exceeds this kernel's or device's limits.
  PreparedKernel prepare(const KernelRef& ref, const LaunchPlan& plan);
  /// Compiles (through both caches) the kernel `plan` builds and returns its
  /// CL_KERNEL_WORK_GROUP_SIZE: the most work-items a group of it may hold
  /// (0: unknown). What a shape search asks before it settles on a shape.
  std::size_t compiled_work_group_limit(const KernelRef& ref, const LaunchPlan& plan);

  /// An operation's prepared work for one call shape (its plans and kernels,
  /// however many launches it takes), made by `make()` on this thread's
  /// first call and again whenever the plan inputs change
  /// (plan_generation()). `key` names the operation and everything its
  /// preparation depends on; use it only for calls whose options
  /// leave_plan_to_device(). The repeated call then costs one lookup.
  template <class Prepared, class Make>
  std::shared_ptr<const Prepared> prepared_call(const std::string& key, Make make) {
    if (auto found = find_call(key)) return std::static_pointer_cast<const Prepared>(found);
    const std::uint64_t generation = current_plan_generation();
    auto made = std::make_shared<const Prepared>(make());
    keep_call(key, made, generation);
    return made;
  }

  /// Enqueues the kernel over the plan's ranges. A plan that covers no
  /// work-items is an error: skip the launch for empty problems instead.
  cl::Event launch(const PreparedKernel& k);
  /// Same on another queue of this context, after `wait` (pipelines).
  cl::Event launch(const PreparedKernel& k, cl::CommandQueue& queue, const std::vector<cl::Event>* wait = nullptr);
  /// Waits for everything enqueued on queue() so far (clFinish).
  void finish();

  /// The asynchronous story. Every call enqueues its work on queue(), which
  /// runs in order, and returns once it is enqueued, except those that hand
  /// a value to the host: Buffer upload/download/map, the scalar forms of
  /// the reductions (sum, dot, nrm2, min, max, arg*, iamax, count_if),
  /// compact (its count) and axpy_pipelined; their *_async forms leave the
  /// value on the device (DeviceValue). done() is an event that completes
  /// when everything enqueued so far has (a marker); after(events) makes
  /// everything enqueued next wait for events from elsewhere (another
  /// queue, a user event), through a barrier on queue().
  cl::Event done();
  /// Everything enqueued next waits for `events` (see above).
  void after(const std::vector<cl::Event>& events);

  /// Extra in-order profiling queues (index 0 is queue()), created on first
  /// use: independent streams of work that may overlap.
  cl::CommandQueue& queue(unsigned index);

  /// Device memory the library's kernels reuse between calls (partial
  /// results, tickets), named by purpose; grown on demand. New memory is
  /// zero-filled when `zeroed`. Kernels that use the same purpose must not
  /// run concurrently on different queues.
  const cl::Buffer& scratch(const std::string& purpose, std::size_t bytes, bool zeroed = false);
  /// Held by an operation for as long as it uses scratch memory, launches
  /// and read-back included; recursive, so an operation built of others
  /// (compaction: a scan, then its count) holds it once for all.
  std::unique_lock<std::recursive_mutex> hold_scratch() {
    return std::unique_lock<std::recursive_mutex>(scratch_mutex_);
  }
  /// A number, 1 to limit-1, that differs from every earlier call's since
  /// the zeroed scratch buffer `purpose` was made: kernels tag what they
  /// write with it, so stale flags from an earlier launch read as unset
  /// without clearing the buffer before every launch. Once the numbers run
  /// out the buffer is zeroed again and they restart.
  std::uint32_t scratch_epoch(const std::string& purpose, std::uint32_t limit);

  /// While set, every launch's event is also appended here (how tools time
  /// operations made of several kernels).
  void record_launches(std::vector<cl::Event>* sink) { recorder_ = sink; }
  /// Work another library enqueued on queue() (CLBlast) joins the record.
  void record(const cl::Event& event) {
    if (recorder_) recorder_->push_back(event);
  }

  /// Kernel run time from profiling events.
  static double elapsed_ms(const cl::Event& event);

 private:
  /// A kernel object of this thread with its CL_KERNEL_WORK_GROUP_SIZE.
  struct KernelObject {
    cl::Kernel kernel;
    std::size_t work_group_limit = 0;
  };
  KernelObject kernel_object(const KernelRef& ref, const std::string& options);
  PreparedKernel prepare_uncached(const KernelRef& ref, const KernelTraits& traits, const ProblemSize& size,
                                  const PlanOptions& options);
  std::shared_ptr<const void> find_call(const std::string& key);
  void keep_call(const std::string& key, std::shared_ptr<const void> prepared, std::uint64_t generation);
  /// What a prepared call is valid for: the plan inputs' generation now.
  static std::uint64_t current_plan_generation();

  Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  KernelLibrary kernels_;
  std::string extra_build_options_;  ///< ContextOptions::extra_build_options
  /// ContextOptions::tuned_plan_check; own_check_ says it was given there,
  /// so the records it has seen are this context's (checked_).
  TunedPlanCheck tuned_check_;
  bool own_check_ = false;
  std::set<std::string> checked_;
  void use_check(std::optional<TunedPlanCheck> check);
  friend std::string check_tuned_plan_once(Context&, const LaunchPlan&, const ProblemSize&, const PlanOptions&);
  std::mutex cache_mutex_;                                        ///< guards sources_, kernel_objects_, shapes_, calls_
  std::map<std::string, KernelSource> sources_;                   ///< by file and source text
  std::unordered_map<std::string, KernelObject> kernel_objects_;  ///< by source, options, entry, thread
  /// Prepared kernels per call shape (kernel, traits, problem size, thread)
  /// for calls with default options, valid while the plan inputs' generation holds.
  struct Shape {
    std::uint64_t generation = 0;
    PreparedKernel prepared;
  };
  std::unordered_map<std::string, Shape> shapes_;
  /// prepared_call()'s entries, by key and thread.
  struct Call {
    std::uint64_t generation = 0;
    std::shared_ptr<const void> prepared;
  };
  std::unordered_map<std::string, Call> calls_;
  std::unique_ptr<ProgramCache> programs_;
  std::vector<cl::CommandQueue> extra_queues_;
  struct Scratch {
    cl::Buffer buffer;
    std::size_t bytes = 0;
    std::uint32_t epoch = 0;
  };
  std::map<std::string, Scratch> scratch_;
  std::recursive_mutex scratch_mutex_;  ///< see hold_scratch
  std::vector<cl::Event>* recorder_ = nullptr;
};

/// Records the launches of its scope: Context::record_launches, undone on exit.
class LaunchRecorder {
 public:
  /// Records ctx's launches from here to the end of the scope.
  explicit LaunchRecorder(Context& ctx) : ctx_(ctx) { ctx_.record_launches(&events_); }
  ~LaunchRecorder() { ctx_.record_launches(nullptr); }
  LaunchRecorder(const LaunchRecorder&) = delete;
  LaunchRecorder& operator=(const LaunchRecorder&) = delete;
  const std::vector<cl::Event>& events() const { return events_; }  ///< one event a launch, in order
  /// From the earliest launch start to the latest end, in milliseconds,
  /// after waiting for every launch (they may sit on several queues).
  double span_ms() const;

 private:
  Context& ctx_;
  std::vector<cl::Event> events_;
};

/// Sets kernel arguments in order; errors name the kernel and the argument.
namespace detail {
void set_arg(const cl::Kernel& k, const std::string& name, unsigned index, std::size_t size, const void* value);
}

}  // namespace portacl

// ---- device group ------------------------------------------------------------
/// Several devices used together: GPUs, a CPU, or parts of one device
/// (sub-devices made by clCreateSubDevices), each member with a Context of
/// its own (its own OpenCL context and in-order queue), so that the members
/// work at the same time and a slow one never holds up another's queue.
///
/// Selector grammar (also through PORTACL_DEVICE):
///   "all"               every device of every platform
///   "gpu:0,gpu:1"       devices by position, comma-separated (each part a
///                       position: "gpu:1", "cpu:0", "accelerator:0", an
///                       index "2" or "platform:device" "1:0")
///   "cpu+gpu"           single-device selectors (device.hpp's grammar,
///                       conditions included) joined by "+"
///   "SEL/N"             device SEL split into N sub-devices of equal
///                       compute units ("cpu/2", "pocl/2"), alone or as a
///                       part of the forms above ("gpu:0+cpu/2")
///   ""                  PORTACL_DEVICE; a selector of one device is a
///                       group of one.
/// Errors name the problem: a part that selects nothing (with the devices
/// listed), a device named twice, N of 0 or more than the device's compute
/// units, a device that cannot be split (no CL_DEVICE_PARTITION_EQUALLY).
namespace portacl {

/// The members of a group (above), each with its Context, and how work is
/// split among them.
class DeviceGroup {
 public:
  /// The devices `selector` names (the grammar above), each member's
  /// Context built with `options`.
  explicit DeviceGroup(const std::string& selector = "", const ContextOptions& options = {});
  /// These devices, in this order.
  explicit DeviceGroup(const std::vector<Device>& devices, const ContextOptions& options = {});
  ~DeviceGroup();
  DeviceGroup(const DeviceGroup&) = delete;
  DeviceGroup& operator=(const DeviceGroup&) = delete;

  std::size_t size() const;                        ///< the members
  Context& context(std::size_t member);            ///< a member's Context
  const Device& device(std::size_t member) const;  ///< a member's device
  /// "member 0: [0] (0:0) NVIDIA H100 ..., 132 compute units" a line each.
  std::string describe() const;

  /// Each member's weight in a split: its relative speed (1 each unless
  /// set). Throws portacl::Error for a count that is not the members', a
  /// weight that is negative or not finite, or weights that are all 0.
  void set_weights(const std::vector<double>& weights);
  const std::vector<double>& weights() const { return weights_; }  ///< as set_weights left them
  /// Contiguous shares of n items by weight (rule group.split): member i's
  /// run from offsets[i] to offsets[i + 1] (members + 1 offsets).
  std::vector<std::size_t> split(std::size_t n) const;
  /// The split of n items in words, as plans explain their decisions.
  std::string explain_split(std::size_t n) const;

 private:
  struct Member;
  std::vector<std::unique_ptr<Member>> members_;
  std::vector<double> weights_;
};

/// Parts of `device`: `parts` sub-devices of equal compute units (the
/// device's units divided by `parts`, rounded down), as Devices a Context
/// can take. Throws portacl::Error when the device cannot be split so.
std::vector<Device> split_device(const Device& device, std::size_t parts);

}  // namespace portacl
