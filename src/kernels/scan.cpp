#include "portacl/kernels/scan.hpp"

#include "kernel_call.hpp"
#include "portacl/kernels/reduce.hpp"

namespace portacl {

KernelTraits scan_traits(const std::string& kernel, ElementType element, std::size_t sum_bytes) {
  // A scan plans like a reduction that moves three arrays' worth of traffic
  // (the input read twice, the output written once).
  return reduce_traits(kernel, element, 3, sum_bytes, true, 2);
}

namespace {

// One scan-shaped job: what scan.cl sums and writes (see its header).
struct ScanJob {
  std::string name;
  std::string definitions;
  std::size_t sum_bytes;
};

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Runs both passes; returns the total (what compaction keeps) when
// `want_total`, which costs a blocking read.
template <class T>
cl_ulong run(Context& ctx, const ScanJob& job, const Buffer<T>& x, Buffer<T>& y, bool inclusive, bool want_total,
             const PlanOptions& options, LaunchPlan* used) {
  const std::size_t n = x.size();
  KernelTraits traits = scan_traits(job.name, element_of<T>::value, job.sum_bytes);
  if (n == 0) {
    if (used) *used = ctx.plan(traits, ProblemSize(0), options);
    return 0;
  }
  const std::string source = "#include \"portacl_common.cl\"\n" + job.definitions + "#include \"scan.cl\"\n";
  PreparedKernel totals_k = ctx.prepare(KernelRef{job.name + ".cl", "scan_totals", source}, traits, ProblemSize(n),
                                        options);
  LaunchPlan plan = totals_k.plan;
  const bool per_item = plan.barrier_free_variant || !plan.use_local_memory;
  const std::size_t wg = plan.work_group_size();
  // Blocks: contiguous, whole tiles, at most one per unit the plan offers.
  const std::size_t unit_limit = per_item ? plan.global[0] : plan.work_groups;
  const std::size_t granule = per_item ? 1 : wg * plan.vector_width;
  const std::size_t block = ceil_div(ceil_div(n, unit_limit), granule) * granule;
  const std::size_t units = ceil_div(n, block);
  plan.work_groups = per_item ? ceil_div(units, wg) : units;
  plan.global[0] = plan.work_groups * wg;
  plan.items_per_work_item = per_item ? block : ceil_div(block, wg);
  totals_k.plan = plan;
  PreparedKernel blocks_k = ctx.prepare(KernelRef{job.name + ".cl", "scan_blocks", source}, plan);

  const cl::Buffer& totals = ctx.scratch("scan.totals", units * job.sum_bytes);
  const cl::Buffer& count = ctx.scratch("scan.count", sizeof(cl_ulong));
  kernel_call::launch(ctx, totals_k, static_cast<cl_ulong>(n), static_cast<cl_ulong>(block), x, totals);
  kernel_call::launch(ctx, blocks_k, static_cast<cl_ulong>(n), static_cast<cl_ulong>(block), x, totals, y,
                      static_cast<cl_uint>(inclusive), count);
  cl_ulong total = 0;
  if (want_total)
    check_cl(ctx.queue().enqueueReadBuffer(count, CL_TRUE, 0, sizeof total, &total),
             "clEnqueueReadBuffer(" + job.name + " count)");
  if (used) *used = plan;
  return total;
}

template <class T>
LaunchPlan scan(Context& ctx, const char* op, const Buffer<T>& x, Buffer<T>& y, bool inclusive,
                const PlanOptions& o) {
  kernel_call::same_context(ctx, x, op, "x");
  kernel_call::same_context(ctx, y, op, "y");
  kernel_call::same_length(op, "x", x.size(), "y", y.size());
  ScanJob job{"prefix_sum", "#define S T\n#define VALUE(v) (v)\n#define COMPACT 0\n", sizeof(T)};
  LaunchPlan used;
  run(ctx, job, x, y, inclusive, false, o, &used);
  return used;
}

}  // namespace

template <class T>
LaunchPlan inclusive_scan(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& o) {
  return scan(ctx, "inclusive_scan", x, y, true, o);
}

template <class T>
LaunchPlan exclusive_scan(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& o) {
  return scan(ctx, "exclusive_scan", x, y, false, o);
}

template <class T>
std::size_t compact(Context& ctx, const std::string& predicate, const Buffer<T>& x, Buffer<T>& y,
                    const PlanOptions& o, LaunchPlan* used) {
  kernel_call::same_context(ctx, x, "compact", "x");
  kernel_call::same_context(ctx, y, "compact", "y");
  if (y.size() < x.size())
    throw Error("compact: y has " + std::to_string(y.size()) + " elements but x has " + std::to_string(x.size()) +
                "; y must be able to hold every element of x");
  if (&x == &y) throw Error("compact: x and y must be different buffers");
  kernel_call::check_expression("compact", "predicate", predicate);
  ScanJob job{"compact",
              "#define PREDICATE(x) (" + predicate +
                  ")\n#define S ulong\n#define VALUE(v) ((PREDICATE(v)) ? (ulong)1 : (ulong)0)\n#define COMPACT 1\n",
              sizeof(cl_ulong)};
  return static_cast<std::size_t>(run(ctx, job, x, y, false, true, o, used));
}

#define PORTACL_SCAN_INSTANTIATE(T)                                                                            \
  template LaunchPlan inclusive_scan<T>(Context&, const Buffer<T>&, Buffer<T>&, const PlanOptions&);           \
  template LaunchPlan exclusive_scan<T>(Context&, const Buffer<T>&, Buffer<T>&, const PlanOptions&);           \
  template std::size_t compact<T>(Context&, const std::string&, const Buffer<T>&, Buffer<T>&, const PlanOptions&, \
                                  LaunchPlan*);
PORTACL_SCAN_INSTANTIATE(int)
PORTACL_SCAN_INSTANTIATE(float)
PORTACL_SCAN_INSTANTIATE(double)

}  // namespace portacl
