// SPDX-License-Identifier: Apache-2.0
#include "runtime/recorded_commands.hpp"

#include <map>
#include <mutex>

#include "portacl/error.hpp"

namespace portacl {

// The provisional 0.9 interface's calls, declared here by their calling
// convention rather than through the header's typedefs, whose type names
// have changed between header releases (properties are cl_properties
// lists, a sync point is a cl_uint, a command buffer and a mutable command
// are handles).
struct RecordedCommands::EntryPoints {
  using Create = void*(CL_API_CALL*)(cl_uint, const cl_command_queue*, const cl_ulong*, cl_int*);
  using Finalize = cl_int(CL_API_CALL*)(void*);
  using Release = cl_int(CL_API_CALL*)(void*);
  using Enqueue = cl_int(CL_API_CALL*)(cl_uint, cl_command_queue*, void*, cl_uint, const cl_event*, cl_event*);
  using NDRange = cl_int(CL_API_CALL*)(void*, cl_command_queue, const cl_ulong*, cl_kernel, cl_uint, const size_t*,
                                       const size_t*, const size_t*, cl_uint, const cl_uint*, cl_uint*, void**);
  Create create = nullptr;
  Finalize finalize = nullptr;
  Release release = nullptr;
  Enqueue enqueue = nullptr;
  NDRange ndrange = nullptr;
};

namespace {

constexpr cl_ulong kFlags = 0x1293;       // CL_COMMAND_BUFFER_FLAGS_KHR
constexpr cl_ulong kSimultaneousUse = 1;  // CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR

template <class F>
F entry(cl_platform_id platform, const char* name, const std::string& device) {
  void* f = ::clGetExtensionFunctionAddressForPlatform(platform, name);
  if (!f) throw Error("cl_khr_command_buffer: the platform of '" + device + "' gives no entry point " + name);
  return reinterpret_cast<F>(f);
}

}  // namespace

RecordedCommands::RecordedCommands(Context& ctx) : ctx_(ctx) {
  cl_platform_id platform = nullptr;
  check_cl(::clGetDeviceInfo(ctx.device().cl_device()(), CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr),
           "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
  // One table per platform, looked up once.
  static std::mutex mutex;
  static std::map<cl_platform_id, EntryPoints> tables;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = tables.find(platform);
    if (found == tables.end()) {
      const std::string& name = ctx.info().name;
      EntryPoints e;
      e.create = entry<EntryPoints::Create>(platform, "clCreateCommandBufferKHR", name);
      e.finalize = entry<EntryPoints::Finalize>(platform, "clFinalizeCommandBufferKHR", name);
      e.release = entry<EntryPoints::Release>(platform, "clReleaseCommandBufferKHR", name);
      e.enqueue = entry<EntryPoints::Enqueue>(platform, "clEnqueueCommandBufferKHR", name);
      e.ndrange = entry<EntryPoints::NDRange>(platform, "clCommandNDRangeKernelKHR", name);
      found = tables.emplace(platform, e).first;
    }
    api_ = &found->second;
  }
  const cl_command_queue queue = ctx.queue()();
  const cl_ulong properties[] = {kFlags, kSimultaneousUse, 0};
  cl_int status = CL_SUCCESS;
  buffer_ = api_->create(1, &queue, properties, &status);
  check_cl(status, "clCreateCommandBufferKHR");
}

RecordedCommands::~RecordedCommands() {
  // No error leaves a destructor; the driver keeps the recording alive
  // while an enqueue of it is pending.
  if (buffer_) api_->release(buffer_);
}

void RecordedCommands::record(const PreparedKernel& k) {
  if (finalized_) throw Error("RecordedCommands: '" + k.name + "' recorded after the recording was finalized");
  const LaunchPlan& p = k.plan;
  if (p.empty()) throw Error("RecordedCommands: zero-size launch of '" + k.name + "'");
  const size_t global[3] = {p.global[0], p.global[1], p.global[2]};
  const size_t local[3] = {p.local[0], p.local[1], p.local[2]};
  cl_uint sync_point = 0;
  // Each command waits for the one before: the recording runs in order
  // whatever the driver would otherwise allow.
  check_cl(api_->ndrange(buffer_, nullptr, nullptr, k.kernel(), p.dimensions, nullptr, global, local, commands_ ? 1 : 0,
                         commands_ ? &last_sync_point_ : nullptr, &sync_point, nullptr),
           "clCommandNDRangeKernelKHR(" + k.name + ")");
  last_sync_point_ = sync_point;
  ++commands_;
}

void RecordedCommands::finalize() {
  check_cl(api_->finalize(buffer_), "clFinalizeCommandBufferKHR");
  finalized_ = true;
}

cl::Event RecordedCommands::enqueue() {
  if (!finalized_) throw Error("RecordedCommands: enqueued before the recording was finalized");
  cl_event raw = nullptr;
  check_cl(api_->enqueue(0, nullptr, buffer_, 0, nullptr, &raw), "clEnqueueCommandBufferKHR");
  cl::Event event(raw);  // takes the reference the call returned
  ctx_.record(event);
  return event;
}

}  // namespace portacl
