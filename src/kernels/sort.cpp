// SPDX-License-Identifier: Apache-2.0
// The radix sort (kernels/sort_radix.cl): validate, plan (rules/sort_rules),
// then per digit a count, an exclusive scan of the counts (the scan
// family's) and a scatter between the caller's buffers and a scratch pair;
// or, in one sweep, every pass's digit counts at once and a single launch
// per digit that finds its places by look-back.
#include <string>
#include <type_traits>
#include <utility>

#include "aliasing.hpp"
#include "kernel_call.hpp"
#include "kernels/planner.hpp"
#include "kernels/sort_tunables.hpp"
#include "portacl/error.hpp"
#include "portacl/vectors.hpp"
#include "rules/sort_rules.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

KernelTraits sort_traits(std::size_t key_bytes, std::size_t value_bytes) {
  // element: the keys' words (32 or 64 bits), whatever they mean
  // benefits_from_local_tiling: tiles ranked in local memory
  // has_barrier_free_variant: the chunks
  // Per pass, each word read twice (count, scatter) and written once.
  const double moved = double(key_bytes + value_bytes);
  return kernel_traits(value_bytes ? "radix_sort_pairs" : "radix_sort",
                       key_bytes == 8 ? ElementType::i64 : ElementType::i32, 1,
                       traits::local_tiling | traits::barriers | traits::scalar, {moved * 3, 0}, &sort_tunables());
}

const TuningSpace& sort_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({64, 128, 256, 512}),
       knobs::groups_per_compute_unit(),
       knobs::use_local_memory(),
       {"RADIX_BITS",
        {2, 3, 4, 5, 6, 7, 8},
        std::nullopt,
        "key bits sorted per pass; unset, the rules decide (sort.work-item-chunks, sort.work-group-tiles)"},
       {"ITEMS", {1, 2, 4, 8, 12, 16}, std::nullopt, "keys per work-item of a tile (GPU variant); unset, 12"},
       {"ONE_SWEEP",
        {0, 1},
        std::nullopt,
        "tiles: 1 one launch a pass with look-back (needs global atomics), 0 count, scan and scatter; unset, the "
        "rules decide (sort.one-sweep)"}},
      nullptr};
  return space;
}

namespace {

// The one sweep's status words carry the pass's epoch above two state bits.
constexpr std::uint32_t kStatusEpochs = 1u << 30;

template <class T>
constexpr int key_kind() {
  return std::is_floating_point<T>::value ? 2 : std::is_signed<T>::value ? 1 : 0;
}

}  // namespace

SortLaunches plan_sort(const Planner& planner, const SortProblem& problem) {
  LaunchPlan plan = planner.plan(sort_traits(problem.key_bytes, problem.value_bytes),
                                 ProblemSize(std::max<std::size_t>(problem.n, 1)));
  if (problem.n < 2) {
    SortLaunches l;
    l.passes = l.histograms = plan;
    return l;
  }
  return plan_radix_sort(std::move(plan), sort_tunables(), planner.device, problem);
}

namespace {

// `values` (null: keys alone) hold value_bytes a value.
template <class K>
LaunchPlan radix_sort(Context& ctx, const char* op, Buffer<K>& keys, const BufferStorage* values,
                      std::size_t value_bytes, const SortOptions& o) {
  kernel_call::same_context(ctx, keys, op, "keys");
  const std::size_t n = keys.size();
  if (values) {
    kernel_call::same_context(ctx, *values, op, "values");
    kernel_call::same_length(op, "keys", n, "values", values->bytes() / value_bytes);
    aliasing::refuse_overlap(op, aliasing::whole(*values), "values", aliasing::whole(keys), "keys",
                             "each is moved to where the other is read");
  }
  constexpr unsigned width = 8 * sizeof(K);
  const unsigned key_bits = o.key_bits ? *o.key_bits : width;
  if (key_bits == 0 || key_bits > width)
    throw Error(std::string(op) + ": key_bits " + std::to_string(key_bits) + " is not between 1 and " +
                std::to_string(width) + " (the keys' width)");
  if (key_bits != width && key_kind<K>() != 0)
    throw Error(std::string(op) + ": key_bits " + std::to_string(key_bits) +
                " applies to unsigned keys only; signed and floating-point keys are ordered by all " +
                std::to_string(width) + " bits");
  if (n > 0xffffffffull)
    throw Error(std::string(op) + ": " + std::to_string(n) + " keys; places are 32-bit, at most 2^32 - 1 keys");
  SortProblem problem;
  problem.n = n;
  problem.key_bits = key_bits;
  problem.key_kind = key_kind<K>();
  problem.key_bytes = sizeof(K);
  problem.value_bytes = values ? value_bytes : 0;
  problem.descending = o.descending;
  const SortLaunches l = plan_sort(live_planner(ctx, o.plan), problem);
  if (n < 2) return l.passes;
  const SortShape& shape = l.shape;
  const LaunchPlan& plan = l.passes;
  if (shape.digit_bits == 0)
    throw Error(std::string(op) + ": a tile of " + std::to_string(plan.local[0]) + " x " + std::to_string(shape.items) +
                " keys needs " + std::to_string(shape.local_bytes) + " bytes of local memory; '" + ctx.info().name +
                "' has " + std::to_string(ctx.info().local_mem_size));

  auto held = ctx.hold_scratch();
  const std::size_t digits = std::size_t{1} << shape.digit_bits;
  const cl::Buffer& spare_keys = ctx.scratch("sort.keys", bytes_of<K>(n, "sort keys"));
  const cl::Buffer& spare_values = ctx.scratch("sort.values", values ? n * value_bytes : 4);
  const cl::Buffer* src_keys = &keys.cl_buffer();
  const cl::Buffer* src_values = values ? &values->cl_buffer() : &spare_values;
  const cl::Buffer* dst_keys = &spare_keys;
  const cl::Buffer* dst_values = &spare_values;
  const auto next_pass = [&] {
    std::swap(src_keys, dst_keys);
    if (values) std::swap(src_values, dst_values);
  };
  if (shape.one_sweep) {
    const cl::Buffer& histograms =
        ctx.scratch("sort.histograms",
                    bytes_of<cl_uint>(checked_product(digits, shape.passes, "sort histograms"), "sort histograms"));
    check_cl(ctx.queue().enqueueFillBuffer(histograms, cl_uint{0}, 0, digits * shape.passes * 4),
             "clEnqueueFillBuffer(sort histograms)");
    PreparedKernel histograms_k = ctx.prepare(KernelRef{"sort_radix.cl", "sort_histograms", ""}, l.histograms);
    kernel_call::launch(ctx, histograms_k, static_cast<cl_ulong>(n), *src_keys, histograms);
    const cl::Buffer& status =
        ctx.scratch("sort.status",
                    bytes_of<cl_ulong>(checked_product(digits, shape.units, "sort status words"), "sort status"), true);
    const cl::Buffer& ticket = ctx.scratch("sort.ticket", sizeof(cl_uint), true);
    PreparedKernel sweep_k = ctx.prepare(KernelRef{"sort_radix.cl", "sort_onesweep", ""}, plan);
    for (unsigned pass = 0; pass < shape.passes; ++pass) {
      const cl_uint epoch = ctx.scratch_epoch("sort.status", kStatusEpochs);
      kernel_call::launch(ctx, sweep_k, static_cast<cl_ulong>(n), static_cast<cl_uint>(pass * shape.digit_bits),
                          static_cast<cl_uint>(pass), *src_keys, *src_values, histograms, *dst_keys, *dst_values,
                          status, ticket, epoch);
      next_pass();
    }
  } else {
    Buffer<int> counts(ctx,
                       ctx.scratch("sort.counts", bytes_of<cl_uint>(checked_product(digits, shape.units, "sort counts"),
                                                                    "sort counts")),
                       digits * shape.units);
    // The scan of the counts plans as the sort does: another class's rules
    // and the live limits, not the sort's own override.
    PlanOptions scan_options = o.plan;
    scan_options.override_values.reset();
    const KernelRef count_ref{"sort_radix.cl", "sort_count", ""}, scatter_ref{"sort_radix.cl", "sort_scatter", ""};
    PreparedKernel count_k = ctx.prepare(count_ref, plan), scatter_k = ctx.prepare(scatter_ref, plan);
    for (unsigned pass = 0; pass < shape.passes; ++pass) {
      const cl_uint shift = pass * shape.digit_bits;
      const cl_ulong size = n, chunk = shape.chunk;
      const cl_uint units = static_cast<cl_uint>(shape.units);
      kernel_call::launch(ctx, count_k, size, chunk, units, shift, *src_keys, counts);
      exclusive_scan(ctx, counts, counts, scan_options);
      kernel_call::launch(ctx, scatter_k, size, chunk, units, shift, *src_keys, *src_values, counts, *dst_keys,
                          *dst_values);
      next_pass();
    }
  }
  if (shape.passes % 2) {  // the last pass wrote the scratch pair
    check_cl(ctx.queue().enqueueCopyBuffer(spare_keys, keys.cl_buffer(), 0, 0, n * sizeof(K)),
             "clEnqueueCopyBuffer(sort keys)");
    if (values)
      check_cl(ctx.queue().enqueueCopyBuffer(spare_values, values->cl_buffer(), 0, 0, n * value_bytes),
               "clEnqueueCopyBuffer(sort values)");
  }
  return plan;
}

}  // namespace

template <class K, class>
LaunchPlan sort(Context& ctx, Buffer<K>& keys, const SortOptions& options) {
  return radix_sort(ctx, "sort", keys, nullptr, 0, options);
}

template <class K, class V, class, class>
LaunchPlan sort_by_key(Context& ctx, Buffer<K>& keys, Buffer<V>& values, const SortOptions& options) {
  kernel_call::same_context(ctx, values, "sort_by_key", "values");
  return radix_sort(ctx, "sort_by_key", keys, &values, sizeof(V), options);
}

template LaunchPlan sort<std::uint32_t>(Context&, Buffer<std::uint32_t>&, const SortOptions&);
template LaunchPlan sort<int>(Context&, Buffer<int>&, const SortOptions&);
template LaunchPlan sort<float>(Context&, Buffer<float>&, const SortOptions&);
template LaunchPlan sort<std::uint64_t>(Context&, Buffer<std::uint64_t>&, const SortOptions&);
template LaunchPlan sort<std::int64_t>(Context&, Buffer<std::int64_t>&, const SortOptions&);
template LaunchPlan sort<double>(Context&, Buffer<double>&, const SortOptions&);
#define PORTACL_SORT_PAIRS(K, V) \
  template LaunchPlan sort_by_key<K, V>(Context&, Buffer<K>&, Buffer<V>&, const SortOptions&);
#define PORTACL_SORT_BY_KEY(K)         \
  PORTACL_SORT_PAIRS(K, std::uint32_t) \
  PORTACL_SORT_PAIRS(K, int)           \
  PORTACL_SORT_PAIRS(K, float)         \
  PORTACL_SORT_PAIRS(K, std::uint64_t) PORTACL_SORT_PAIRS(K, std::int64_t) PORTACL_SORT_PAIRS(K, double)
PORTACL_SORT_BY_KEY(std::uint32_t)
PORTACL_SORT_BY_KEY(int)
PORTACL_SORT_BY_KEY(float)
PORTACL_SORT_BY_KEY(std::uint64_t)
PORTACL_SORT_BY_KEY(std::int64_t)
PORTACL_SORT_BY_KEY(double)

}  // namespace portacl
