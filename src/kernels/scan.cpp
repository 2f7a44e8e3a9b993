// SPDX-License-Identifier: Apache-2.0
#include "portacl/vectors.hpp"

#include <algorithm>
#include <limits>

#include "rules/coverage_rules.hpp"
#include "rules/scan_rules.hpp"
#include "kernel_call.hpp"
#include "kernels/planner.hpp"
#include "kernels/scan_tunables.hpp"
#include "kernels/reduce_tunables.hpp"

namespace portacl {

KernelTraits scan_traits(const std::string& kernel, ElementType element, std::size_t sum_bytes) {
  // A scan plans like a reduction that moves three arrays' worth of traffic
  // (the input read twice, the output written once).
  KernelTraits t = reduce_traits(kernel, element, 3, sum_bytes, true, 2);
  t.tunables = &scan_tunables();
  return t;
}

const TuningSpace& scan_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256, 512, 1024}),
       knobs::vector_width({1, 2, 4, 8}),
       knobs::use_local_memory(),
       knobs::passes(),
       // Bytes of input per work-item of the look-back scan: tiles large
       // against the cost of looking back, small enough that a tile is
       // still in the cache when it is read the second time. NVIDIA GPUs
       // take 128 with the tile in registers (rule nvidia.scan-tiles).
       {"SCAN_BYTES",
        {16, 32, 64, 128, 256},
        64,
        "input bytes per work-item (single pass); the rules take 128 on NVIDIA GPUs, else 64"},
       {"SCAN_KEEP",
        {0, 1},
        0,
        "hold the tile in registers (1) or read it twice (0) (single pass); the rules hold it on NVIDIA GPUs"},
       // KiB of input per chunk of the barrier-free single pass (CPUs):
       // summed from memory, then scanned again while still in the core's
       // cache (rule general.scan-chunks). PoCL, 2^24 elements: 256 KiB
       // best, 4 KiB a third slower (the look-back chain), 1024 KiB 2%.
       {"SCAN_CHUNK_KIB",
        {4, 16, 64, 256, 1024},
        256,
        "KiB of input per chunk (barrier-free single pass, CPUs): small enough to be scanned from the cache"}},
      [](const Configuration& c) -> std::string {
        const bool single = c.count("passes") && c.at("passes") == 1;
        const bool lookback = single && c.count("use_local_memory") && c.at("use_local_memory") == 1;
        // The other variants ignore the single passes' knobs: their
        // fallbacks only. (On CPUs, barrier-free whatever the local-memory
        // knob says, every single pass is the chunked one.)
        const auto fallback_unless = [](bool used, const char* knob, const Configuration& c) {
          return used || !c.count(knob) || c.at(knob) == *scan_tunables().at(knob).fallback;
        };
        for (const char* knob : {"SCAN_BYTES", "SCAN_KEEP"})
          if (!fallback_unless(lookback, knob, c)) return std::string(knob) + " only shapes the look-back single pass";
        if (!fallback_unless(single, "SCAN_CHUNK_KIB", c)) return "SCAN_CHUNK_KIB only shapes the single pass";
        return "";
      }};
  return space;
}

ScanLaunch plan_scan(const Planner& planner, const std::string& kernel, ElementType element, std::size_t element_bytes,
                     std::size_t n, std::size_t sum_bytes) {
  LaunchPlan plan = planner.plan(scan_traits(kernel, element, sum_bytes), ProblemSize(n));
  if (n == 0) {
    ScanLaunch l;
    l.plan = std::move(plan);
    return l;
  }
  return plan_scan_launch(std::move(plan), scan_tunables(), n, element_bytes, sum_bytes);
}

namespace {

// One scan-shaped job: what scan.cl sums and writes (see its header).
struct ScanJob {
  std::string name;
  std::string definitions;
  std::size_t sum_bytes;
  std::string compiler_flags = "";
};

// Tile status words carry the launch's epoch above two state bits.
constexpr std::uint32_t lookback_epochs = 1u << 30;

// The single passes' shared state: a status word, an aggregate and a
// prefix per tile, and the ticket that hands tiles out in order.
struct LookbackScratch {
  const cl::Buffer& status;
  cl_uint epoch;
  const cl::Buffer& aggregates;
  const cl::Buffer& prefixes;
  const cl::Buffer& ticket;
};

LookbackScratch lookback_scratch(Context& ctx, std::size_t tiles, std::size_t sum_bytes) {
  const cl::Buffer& status = ctx.scratch("scan.status", bytes_of<cl_ulong>(tiles, "scan status words"), true);
  const cl_uint epoch = ctx.scratch_epoch("scan.status", lookback_epochs);
  const cl::Buffer& aggregates = ctx.scratch("scan.aggregates", checked_product(tiles, sum_bytes, "scan aggregates"));
  const cl::Buffer& prefixes = ctx.scratch("scan.prefixes", tiles * sum_bytes);
  const cl::Buffer& ticket = ctx.scratch("scan.ticket", sizeof(cl_uint), true);
  return {status, epoch, aggregates, prefixes, ticket};
}

// Enqueues the scan planned (plan_scan); the total (what compaction keeps,
// job.sum_bytes wide) lands in `count`. The caller holds the scratch memory.
template <class T>
void enqueue(Context& ctx, const ScanJob& job, const Buffer<T>& x, Buffer<T>& y, bool inclusive,
             const cl::Buffer& count, const PlanOptions& options, LaunchPlan* used) {
  const std::size_t n = x.size();
  const ScanLaunch l =
      plan_scan(live_planner(ctx, options), job.name, element_of<T>::value, sizeof(T), n, job.sum_bytes);
  if (used) *used = l.plan;
  if (l.variant == ScanVariant::none) {
    check_cl(ctx.queue().enqueueFillBuffer(count, cl_uchar{0}, 0, job.sum_bytes), "clEnqueueFillBuffer(empty count)");
    return;
  }
  const std::string source = "#include \"portacl_common.cl\"\n" + job.definitions + "#include \"scan.cl\"\n";
  const auto kernel = [&](const char* entry) {
    return ctx.prepare(KernelRef{job.name + ".cl", entry, source, job.compiler_flags}, l.plan);
  };
  const cl_ulong size = n, span = l.span;
  const cl_uint inclusive_flag = inclusive;
  if (l.variant == ScanVariant::reduce_then_scan) {
    PreparedKernel totals_k = kernel("scan_totals"), blocks_k = kernel("scan_blocks");
    const cl::Buffer& totals = ctx.scratch("scan.totals", l.units * job.sum_bytes);
    kernel_call::launch(ctx, totals_k, size, span, x, totals);
    kernel_call::launch(ctx, blocks_k, size, span, x, totals, y, inclusive_flag, count);
    return;
  }
  const LookbackScratch s = lookback_scratch(ctx, l.units, job.sum_bytes);
  if (l.variant == ScanVariant::lookback) {
    PreparedKernel k = kernel("scan_lookback");
    kernel_call::launch(ctx, k, size, x, y, inclusive_flag, count, s.status, s.aggregates, s.prefixes, s.ticket,
                        s.epoch);
  } else {
    PreparedKernel k = kernel("scan_chunks");
    kernel_call::launch(ctx, k, size, span, x, y, inclusive_flag, count, s.status, s.aggregates, s.prefixes, s.ticket,
                        s.epoch);
  }
}

template <class T>
cl_ulong run(Context& ctx, const ScanJob& job, const Buffer<T>& x, Buffer<T>& y, bool inclusive, bool want_total,
             const PlanOptions& options, LaunchPlan* used) {
  auto held = ctx.hold_scratch();  // tiles, status words and the count until it is read
  const cl::Buffer& count = ctx.scratch("scan.count", sizeof(cl_ulong));
  enqueue(ctx, job, x, y, inclusive, count, options, used);
  if (!want_total || x.size() == 0) return 0;
  cl_ulong wide = 0;
  cl_uint narrow = 0;
  void* total = job.sum_bytes == sizeof narrow ? static_cast<void*>(&narrow) : static_cast<void*>(&wide);
  check_cl(ctx.queue().enqueueReadBuffer(count, CL_TRUE, 0, job.sum_bytes, total),
           "clEnqueueReadBuffer(" + job.name + " count)");
  return job.sum_bytes == sizeof narrow ? narrow : wide;
}

template <class T>
LaunchPlan scan(Context& ctx, const char* op, const Buffer<T>& x, Buffer<T>& y, bool inclusive, const PlanOptions& o) {
  kernel_call::same_context(ctx, x, op, "x");
  kernel_call::same_context(ctx, y, op, "y");
  kernel_call::same_length(op, "x", x.size(), "y", y.size());
  aliasing::refuse_shifted_overlap(op, aliasing::whole(y), "y", aliasing::whole(x), "x");
  ScanJob job{"prefix_sum", "#define S T\n#define VALUE(v) (v)\n#define COMPACT 0\n", sizeof(T)};
  LaunchPlan used;
  run(ctx, job, x, y, inclusive, false, o, &used);
  return used;
}

}  // namespace

template <class T, class>
LaunchPlan inclusive_scan(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& o) {
  return scan(ctx, "inclusive_scan", x, y, true, o);
}

template <class T, class>
LaunchPlan exclusive_scan(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& o) {
  return scan(ctx, "exclusive_scan", x, y, false, o);
}

namespace {

// Compaction's job after checking its operands.
template <class T>
ScanJob compaction(Context& ctx, const char* op, const std::string& predicate, const Buffer<T>& x, const Buffer<T>& y) {
  kernel_call::same_context(ctx, x, op, "x");
  kernel_call::same_context(ctx, y, op, "y");
  if (y.size() < x.size())
    throw Error(std::string(op) + ": y has " + std::to_string(y.size()) + " elements but x has " +
                std::to_string(x.size()) + "; y must be able to hold every element of x");
  aliasing::refuse_overlap(op, aliasing::whole(y), "y", aliasing::whole(x), "x",
                           "a kept element moves to an earlier place that another work-item may not have read yet");
  kernel_call::check_expression(op, "predicate", predicate);
  // Counts fit 32 bits below 2^32 elements: half the bytes per partial
  // count, and the look-back scan's status word holds the count itself.
  const bool narrow = x.size() <= std::numeric_limits<cl_uint>::max();
  const std::string count_type = narrow ? "uint" : "ulong";
  return ScanJob{"compact",
                 "#define PREDICATE(x) (" + predicate + ")\n#define S " + count_type +
                     "\n#define VALUE(v) ((PREDICATE(v)) ? (" + count_type + ")1 : (" + count_type +
                     ")0)\n#define COMPACT 1\n",
                 narrow ? sizeof(cl_uint) : sizeof(cl_ulong), kernel_call::expression_flags(element_of<T>::value)};
}

}  // namespace

template <class T, class>
std::size_t compact(Context& ctx, const std::string& predicate, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& o,
                    LaunchPlan* used) {
  const ScanJob job = compaction(ctx, "compact", predicate, x, y);
  return static_cast<std::size_t>(run(ctx, job, x, y, false, true, o, used));
}

template <class T, class>
DeviceValue<std::uint64_t> compact_async(Context& ctx, const std::string& predicate, const Buffer<T>& x, Buffer<T>& y,
                                         const PlanOptions& o, LaunchPlan* used) {
  const ScanJob job = compaction(ctx, "compact_async", predicate, x, y);
  auto held = ctx.hold_scratch();  // the in-order queue serialises the kernels that reuse it
  cl_int err = CL_SUCCESS;
  cl::Buffer count(ctx.cl_context(), CL_MEM_READ_WRITE, job.sum_bytes, nullptr, &err);
  check_cl(err, "clCreateBuffer(compact_async count)");
  enqueue(ctx, job, x, y, false, count, o, used);
  return DeviceValue<std::uint64_t>(ctx, std::move(count), ctx.done(), job.sum_bytes);
}

#define PORTACL_SCAN_INSTANTIATE(T)                                                                                \
  template LaunchPlan inclusive_scan<T>(Context&, const Buffer<T>&, Buffer<T>&, const PlanOptions&);               \
  template LaunchPlan exclusive_scan<T>(Context&, const Buffer<T>&, Buffer<T>&, const PlanOptions&);               \
  template std::size_t compact<T>(Context&, const std::string&, const Buffer<T>&, Buffer<T>&, const PlanOptions&,  \
                                  LaunchPlan*);                                                                    \
  template DeviceValue<std::uint64_t> compact_async<T>(Context&, const std::string&, const Buffer<T>&, Buffer<T>&, \
                                                       const PlanOptions&, LaunchPlan*);
PORTACL_SCAN_INSTANTIATE(int)
PORTACL_SCAN_INSTANTIATE(float)
PORTACL_SCAN_INSTANTIATE(double)

}  // namespace portacl
