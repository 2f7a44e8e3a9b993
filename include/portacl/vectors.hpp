// SPDX-License-Identifier: Apache-2.0
/// \file
/// The vector family: element types, streaming, reductions, scans, sort,
/// histograms and fused pipelines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "portacl/device.hpp"
#include "portacl/plan.hpp"

// ---- element -----------------------------------------------------------------
/// The ElementType of a host type, for the typed kernel APIs.
namespace portacl {

template <class T>
struct element_of;
/// float: f32.
template <>
struct element_of<float> {
  static constexpr ElementType value = ElementType::f32;  ///< the element type
};
/// double: f64.
template <>
struct element_of<double> {
  static constexpr ElementType value = ElementType::f64;  ///< the element type
};
/// int: i32.
template <>
struct element_of<int> {
  static constexpr ElementType value = ElementType::i32;  ///< the element type
};
/// std::int64_t: i64.
template <>
struct element_of<std::int64_t> {
  static constexpr ElementType value = ElementType::i64;  ///< the element type
};
/// std::uint32_t: u32.
template <>
struct element_of<std::uint32_t> {
  static constexpr ElementType value = ElementType::u32;  ///< the element type
};
/// std::uint64_t: u64.
template <>
struct element_of<std::uint64_t> {
  static constexpr ElementType value = ElementType::u64;  ///< the element type
};

/// The element types an operation is built for (its template's second
/// parameter, defaulted): a call with another type stops at compile time
/// here, naming the type and the list, instead of failing to link.
template <class T, class... Built>
struct built_for {
  static_assert((std::is_same<T, Built>::value || ...),
                "portacl: this operation is not built for this element type; the error's context shows "
                "built_for<your type, the types it is built for>");
  using type = void;  ///< void, where T is one of Built
};
/// void where T is one of Built; a compile error naming them where not.
template <class T, class... Built>
using only_for = typename built_for<T, Built...>::type;
/// only_for every element type a buffer of numbers may hold: float, double,
/// int, std::int64_t, std::uint32_t and std::uint64_t.
template <class T>
using only_for_numbers = only_for<T, float, double, int, std::int64_t, std::uint32_t, std::uint64_t>;

}  // namespace portacl

// ---- stream ------------------------------------------------------------------
/// Streaming kernels: AXPY, copy, fill, scale, AXPBY and a user-defined
/// element-wise map, float and double, any length; copy, fill and map also
/// take int, std::int64_t, std::uint32_t and std::uint64_t (the expression is
/// then integer OpenCL C: signed overflow is undefined there, as in C). Each returns the plan it ran under.
/// x and y may be the same memory (in place). Errors (before any launch):
/// lengths differ, a buffer of another context, x and y overlapping at
/// different offsets (sub-buffers of one parent), a map expression that does
/// not compile (BuildError with the log).
namespace portacl {

/// y = a*x + y
template <class T, class = only_for<T, float, double>>
LaunchPlan axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options = {});
/// With a given plan (e.g. another device class's plan, clamped to this device).
template <class T, class = only_for<T, float, double>>
void axpy(Context& ctx, T a, const Buffer<T>& x, Buffer<T>& y, const LaunchPlan& plan);

/// y = x
template <class T, class = only_for_numbers<T>>
LaunchPlan copy(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options = {});
/// y = value in every element
template <class T, class = only_for_numbers<T>>
LaunchPlan fill(Context& ctx, Buffer<T>& y, T value, const PlanOptions& options = {});
/// y = a*y
template <class T, class = only_for<T, float, double>>
LaunchPlan scale(Context& ctx, T a, Buffer<T>& y, const PlanOptions& options = {});
/// y = a*x + b*y
template <class T, class = only_for<T, float, double>>
LaunchPlan axpby(Context& ctx, T a, const Buffer<T>& x, T b, Buffer<T>& y, const PlanOptions& options = {});
/// y = expression(x) element by element; `expression` is OpenCL C in `x`,
/// e.g. "x * x + 1" or "sqrt(fabs(x))" (valid for scalars and vectors).
template <class T, class = only_for_numbers<T>>
LaunchPlan map(Context& ctx, const std::string& expression, const Buffer<T>& x, Buffer<T>& y,
               const PlanOptions& options = {});
/// z = expression(x, y) element by element over two buffers of one length;
/// `expression` is OpenCL C in `x` and `y`, e.g. "x * y" or "fmax(x, y)".
/// z may be x or y (in place).
template <class T, class = only_for_numbers<T>>
LaunchPlan map(Context& ctx, const std::string& expression, const Buffer<T>& x, const Buffer<T>& y, Buffer<T>& z,
               const PlanOptions& options = {});
/// z = expression(x, y) with y one value for every element (a kernel
/// argument: a new value needs no new program), e.g. "x / y" or "pow(x, y)".
template <class T, class = only_for_numbers<T>>
LaunchPlan map(Context& ctx, const std::string& expression, const Buffer<T>& x, T y, Buffer<T>& z,
               const PlanOptions& options = {});

}  // namespace portacl

// ---- reduce ------------------------------------------------------------------
/// Reductions over a buffer: sum, dot, 2-norm, min, max, argmin, argmax,
/// iamax and count-if, float and double (sum: int, int64 and uint32 too, in
/// 64 bits; min and max: every type of only_for_numbers), any length. The plan picks the
/// variant (per-work-item partials without barriers on CPUs, local memory and
/// warp shuffles on GPUs; single pass where the device has global atomics).
///
/// IEEE semantics: NaN anywhere makes sum, dot, nrm2, min and max NaN (min
/// and max propagate NaN like IEEE 754-2019 minimum/maximum, unlike fmin);
/// infinities add as IEEE says (inf + -inf is NaN). argmin/argmax/iamax
/// return the first NaN if there is one, otherwise the first index holding
/// the extreme value. min, max and the arg* of an empty buffer are errors;
/// sum, dot, nrm2 and count_if of one are 0.
namespace portacl {

/// An extreme element and where it is.
template <class T>
struct Extremum {
  T value;            ///< the compared value (|x[index]| for iamax)
  std::size_t index;  ///< first index holding it
};

/// What sum returns for elements of T: T for float and double, a 64-bit
/// integer for int and int64 (int elements are added in 64 bits, so their
/// sum does not wrap where it fits in 64; a 64-bit sum that does not fit is
/// not detected).
template <class T>
using sum_type = std::conditional_t<std::is_floating_point<T>::value, T, std::int64_t>;

/// Every call may also report the plan it ran under through `used`.
template <class T, class = only_for<T, float, double, int, std::int64_t, std::uint32_t>>
sum_type<T> sum(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// x . y
template <class T, class = only_for<T, float, double>>
T dot(Context& ctx, const Buffer<T>& x, const Buffer<T>& y, const PlanOptions& options = {},
      LaunchPlan* used = nullptr);
/// sqrt(sum x^2); float input accumulates in double where the device has it
/// (no overflow of the squares), double input does not scale.
template <class T, class = only_for<T, float, double>>
T nrm2(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// The smallest element (NaN where any is NaN).
template <class T, class = only_for_numbers<T>>
T min(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// The largest element (NaN where any is NaN).
template <class T, class = only_for_numbers<T>>
T max(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// The smallest element and its first index.
template <class T, class = only_for<T, float, double>>
Extremum<T> argmin(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// The largest element and its first index.
template <class T, class = only_for<T, float, double>>
Extremum<T> argmax(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// BLAS i_amax: the first index of the largest |x|.
template <class T, class = only_for<T, float, double>>
Extremum<T> iamax(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// How many elements satisfy `predicate`, an OpenCL C condition in `x`
/// (e.g. "x > 0.5f", "isnan(x)", "x >= 1 && x < 2"); it is compiled for
/// vectors too, so write it with comparisons, not `if`.
template <class T, class = only_for<T, float, double>>
std::uint64_t count_if(Context& ctx, const std::string& predicate, const Buffer<T>& x, const PlanOptions& options = {},
                       LaunchPlan* used = nullptr);

/// Asynchronous forms: they enqueue and return at once; the value stays in
/// device memory (DeviceValue: pass buffer() to later kernels, wait on
/// ready(), or get() it). The blocking forms above are these plus a read.
template <class T, class = only_for<T, float, double, int, std::int64_t, std::uint32_t>>
DeviceValue<sum_type<T>> sum_async(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {},
                                   LaunchPlan* used = nullptr);
/// dot, left on the device.
template <class T, class = only_for<T, float, double>>
DeviceValue<T> dot_async(Context& ctx, const Buffer<T>& x, const Buffer<T>& y, const PlanOptions& options = {},
                         LaunchPlan* used = nullptr);
/// nrm2, left on the device.
template <class T, class = only_for<T, float, double>>
DeviceValue<T> nrm2_async(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {},
                          LaunchPlan* used = nullptr);
/// min, left on the device.
template <class T, class = only_for_numbers<T>>
DeviceValue<T> min_async(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// max, left on the device.
template <class T, class = only_for_numbers<T>>
DeviceValue<T> max_async(Context& ctx, const Buffer<T>& x, const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// count_if, left on the device.
template <class T, class = only_for<T, float, double>>
DeviceValue<std::uint64_t> count_if_async(Context& ctx, const std::string& predicate, const Buffer<T>& x,
                                          const PlanOptions& options = {}, LaunchPlan* used = nullptr);

}  // namespace portacl

// ---- scan --------------------------------------------------------------------
/// Prefix sums (inclusive and exclusive; int, float, double) and stream
/// compaction built on them, any length. Reduce-then-scan: the input is read
/// twice and the output written once. The plan picks per-work-item blocks
/// without barriers on CPUs and work-group tiles in local memory (warp
/// shuffles on NVIDIA) on GPUs.
///
/// x and y may be the same buffer (an in-place scan), not overlapping parts
/// of one (refused). Integer sums wrap on
/// overflow as int arithmetic does; float sums are not bit-identical to a
/// sequential loop (the order of additions differs).
namespace portacl {

/// y[i] = x[0] + ... + x[i]
template <class T, class = only_for<T, int, float, double>>
LaunchPlan inclusive_scan(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options = {});
/// y[i] = x[0] + ... + x[i-1], y[0] = 0
template <class T, class = only_for<T, int, float, double>>
LaunchPlan exclusive_scan(Context& ctx, const Buffer<T>& x, Buffer<T>& y, const PlanOptions& options = {});

/// Copies, in order, the elements of x for which `predicate` (OpenCL C in
/// `x`, e.g. "x > 0.5f" or "!isnan(x)") holds to the front of y and returns
/// how many there are; the rest of y is left as it was. y must be at least as
/// long as x, and must not share memory with x (refused).
template <class T, class = only_for<T, int, float, double>>
std::size_t compact(Context& ctx, const std::string& predicate, const Buffer<T>& x, Buffer<T>& y,
                    const PlanOptions& options = {}, LaunchPlan* used = nullptr);
/// The same, returning at once: the count stays on the device (DeviceValue).
template <class T, class = only_for<T, int, float, double>>
DeviceValue<std::uint64_t> compact_async(Context& ctx, const std::string& predicate, const Buffer<T>& x, Buffer<T>& y,
                                         const PlanOptions& options = {}, LaunchPlan* used = nullptr);

}  // namespace portacl

// ---- sort --------------------------------------------------------------------
/// Radix sort of 32-bit or 64-bit keys, alone or with 32-bit or 64-bit
/// values carried along: stable (equal keys keep their order), any length,
/// in place (the sorted keys and values replace the inputs), ascending or
/// descending.
///
/// Key order: unsigned and signed keys by value; float and double keys in
/// IEEE order with -0.0 equal to +0.0 (their order is kept, as
/// std::stable_sort with operator< keeps it) and every NaN after +infinity,
/// NaNs in their input order. The bits of every key, NaN payloads
/// included, are moved unchanged. 64-bit keys take twice the passes of
/// 32-bit ones (a pass per digit of the key's width). Descending is that
/// order reversed (NaNs first), equal keys still in their input order.
///
/// The plan says how: on CPUs each work-item counts and moves a contiguous
/// chunk of keys with private counters (no local memory, no barriers); on
/// GPUs each work-group ranks a tile of keys in local memory and writes it
/// out digit by digit. Each pass sorts by one digit (the plan's digit
/// width) and the passes run from the lowest digit up; a pass is a count,
/// a scan of the counts and a scatter. The scatter needs a second array of
/// the keys (and values) that the context keeps as scratch memory.
///
/// Errors, before any launch: buffers of another context, values of
/// another length than the keys, values sharing memory with the keys, more
/// than 2^32 - 1 keys, key_bits outside 1 to the keys' width or below it
/// for signed and floating-point keys.
namespace portacl {

/// How sort and sort_by_key order.
struct SortOptions {
  /// Unsigned keys only: the keys are below 2^key_bits, so only their low
  /// key_bits bits are sorted (cell indices below 2^20 need 20, not 32,
  /// which saves whole passes). Keys with higher bits set end in an
  /// unspecified order; they are never lost. Unset: the keys' width (32
  /// or 64).
  std::optional<unsigned> key_bits;
  /// Largest first; equal keys keep their input order either way.
  bool descending = false;
  PlanOptions plan;  ///< for every launch of the sort
};

/// Sorts `keys` in place. Returns the scatter's plan; its decisions name
/// the variant, the digit width and the passes.
template <class K, class = only_for<K, std::uint32_t, int, float, std::uint64_t, std::int64_t, double>>
LaunchPlan sort(Context& ctx, Buffer<K>& keys, const SortOptions& options = {});

/// Sorts `keys` in place and moves `values` with them: values[i] follows
/// keys[i] (a stable sort of pairs by key).
template <class K, class V, class = only_for<K, std::uint32_t, int, float, std::uint64_t, std::int64_t, double>,
          class = only_for<V, std::uint32_t, int, float, std::uint64_t, std::int64_t, double>>
LaunchPlan sort_by_key(Context& ctx, Buffer<K>& keys, Buffer<V>& values, const SortOptions& options = {});

}  // namespace portacl

// ---- histogram ---------------------------------------------------------------
/// Histogram of 32-bit unsigned keys: counts[b] is how many keys fall in bin
/// b, for the counts.size() bins of the call. A key's bin is key >> shift,
/// or with `wrap` (key >> shift) mod bins, the digit a radix sort counts
/// (bins then a power of two). Keys whose bin is counts.size() or more are
/// not counted: the counts add up to the keys in range. Any number of keys
/// and bins (1 to 2^28). Counts are overwritten. Errors, before any launch:
/// no bins, more than 2^28 bins, wrap with a bin count that is not a power
/// of two, a shift of 32 or more, more than 2^32 - 1 keys (a count would
/// overflow), buffers of another context or sharing memory.
namespace portacl {

/// How keys are binned.
struct HistogramOptions {
  unsigned shift = 0;  ///< bits dropped from each key before binning
  bool wrap = false;   ///< bin = (key >> shift) mod bins instead of refusing keys past the last bin
  PlanOptions plan;    ///< for every launch of the histogram
};

/// Returns the plan of the counting launch; its decisions say which variant
/// ran and why (local-memory bins, global atomics or per-work-item rows).
LaunchPlan histogram(Context& ctx, const Buffer<std::uint32_t>& keys, Buffer<std::uint32_t>& counts,
                     const HistogramOptions& options = {});

}  // namespace portacl

// ---- pipeline ----------------------------------------------------------------
/// Streaming over host memory in chunks, overlapping upload, kernel and
/// download on several in-order queues joined by events (003 11.4-11.5).
/// The host arrays stay the caller's. Staging each chunk through pinned
/// memory is optional: on the H100 the extra host memcpy cost more than the
/// faster DMA gained (docs/benchmarks.md), so pageable transfers are the
/// default.
/// The result is bit for bit that of upload + kernel + download.
namespace portacl {

/// How a pipeline chunks and overlaps.
struct PipelineOptions {
  std::size_t chunk_elements = 0;  ///< 0: n / (4 * queues), at least 2^18
  unsigned queues = 2;             ///< 1 runs the same steps without overlap
  /// Stage through pinned host memory (unset: no).
  std::optional<bool> pinned_staging;
};

/// What a pipeline did.
struct PipelineReport {
  std::size_t chunks = 0;          ///< chunks sent
  std::size_t chunk_elements = 0;  ///< elements a chunk (the last may hold fewer)
  unsigned queues = 0;             ///< queues the chunks went round
  bool pinned_staging = false;     ///< chunks went through pinned host memory
  double wall_ms = 0;              ///< enqueue of the first chunk to the last result in y
};

/// y = a*x + y over n host elements.
template <class T, class = only_for<T, float, double>>
PipelineReport axpy_pipelined(Context& ctx, T a, const T* x, T* y, std::size_t n, const PipelineOptions& options = {});
/// The same over pinned host memory (HostBuffer): every chunk moves by DMA
/// straight from and into the caller's memory, with no staging copy (the
/// options' pinned_staging is not used). Throws portacl::Error when x and y
/// differ in size or belong to another Context.
template <class T, class = only_for<T, float, double>>
PipelineReport axpy_pipelined(Context& ctx, T a, const HostBuffer<T>& x, HostBuffer<T>& y,
                              const PipelineOptions& options = {});
/// y = expression(x) over n host elements (see map in stream.hpp).
template <class T, class = only_for<T, float, double>>
PipelineReport map_pipelined(Context& ctx, const std::string& expression, const T* x, T* y, std::size_t n,
                             const PipelineOptions& options = {});

}  // namespace portacl
