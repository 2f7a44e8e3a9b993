// SPDX-License-Identifier: Apache-2.0
/// \file
/// Plans and their rules: a launch plan and the decisions that made it, the
/// kernel traits the rules read, the mapping rules, the rule book, and the
/// sparse method names.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "portacl/device.hpp"
#include "portacl/json.hpp"

// ---- kernel traits -----------------------------------------------------------
/// What a kernel is, as far as the mapping rules care: the rules decide from
/// these traits and the device, never from the kernel's name.
namespace portacl {

struct TuningSpace;

/// What the planner knows of a kernel: its shape of work, what its variants
/// need, and its traffic and arithmetic per element.
struct KernelTraits {
  std::string name;  ///< for explanations and tuning keys
  /// What the tuner may change (the family's declaration): tuned records
  /// are validated against it before they reach a plan.
  const TuningSpace* tunables = nullptr;
  ElementType element = ElementType::f32;   ///< the element it computes in
  unsigned dimensions = 1;                  ///< 1, 2 or 3
  bool benefits_from_local_tiling = false;  ///< has a local-memory variant worth using on GPUs
  bool needs_barriers = false;              ///< the local/tiled variant synchronises work-groups
  bool has_barrier_free_variant = true;     ///< a variant without barriers exists (CPU rule)
  bool vectorizable = true;                 ///< the .cl source takes a VW macro
  /// Its vectors only help SIMD CPUs: on SIMT GPUs neighbouring work-items
  /// already read neighbouring elements, and vectors would only leave fewer
  /// work-items (GEMV over contiguous columns: 73% of copy with float4 on
  /// the H100, 88% with floats).
  bool scalar_on_simt = false;
  double bytes_per_item = 0;  ///< global-memory traffic per element
  double flops_per_item = 0;  ///< arithmetic per element
  /// Local memory the tiled variant needs per work-item, in bytes; the rules
  /// check it against the device's local memory.
  std::size_t local_bytes_per_work_item = 0;
  /// A reduction or scan: the work-groups' partial results must be combined,
  /// so the planner also picks single- or two-pass and sub-group operations.
  bool combines_partials = false;
  /// How far, in powers of two of the problem size, a tuned record stands
  /// in for sizes it was not measured at (rule tuning.nearby-bucket); the
  /// stencil family keeps its records to sizes within 2x.
  int tuned_size_reach = 6;

  /// Memory-bound below one flop per byte (every device here does tens of
  /// flops per byte of bandwidth): such kernels want wide loads even on SIMT
  /// GPUs (16-byte transactions). A sum (1 flop per 4 bytes) is one.
  bool memory_bound() const { return bytes_per_item >= flops_per_item && bytes_per_item > 0; }
};

/// Extent of the problem in elements per dimension (unused dimensions are 1).
struct ProblemSize {
  std::array<std::size_t, 3> extent{{0, 1, 1}};  ///< x, y, z

  ProblemSize() = default;
  /// n elements in one dimension.
  explicit ProblemSize(std::size_t n) : extent{{n, 1, 1}} {}
  /// x by y by z elements.
  ProblemSize(std::size_t x, std::size_t y, std::size_t z = 1) : extent{{x, y, z}} {}

  std::size_t elements() const { return extent[0] * extent[1] * extent[2]; }  ///< all of them
};

}  // namespace portacl

// ---- launch plan -------------------------------------------------------------
/// A launch plan: every choice the runtime makes for one kernel launch, each
/// with the rule that made it and why, so a user can see the reasoning.
namespace portacl {

/// How host data reaches the device.
enum class MemoryStrategy {
  map_host_memory,  ///< zero copy: host-allocated buffer, mapped (CPUs, integrated GPUs)
  pinned_staging,   ///< copy through page-locked staging memory (discrete GPUs over PCIe)
  direct_copy,      ///< plain read/write from pageable memory
};
/// "map", "pinned-staging" or "copy".
std::string to_string(MemoryStrategy m);

/// One choice of a plan: what, the value, the rule and why.
struct Decision {
  std::string what;   ///< "work_group_size", "vector_width", ...
  std::string value;  ///< as shown to the user
  std::string rule;   ///< rule id from the rule book ("nvidia.wg-warp-multiple")
  std::string why;    ///< the reasoning with the device's numbers
};
/// {"what", "value", "rule", "why"}
Json to_json(const Decision& d);

/// A plan's decisions, shared between copies until one of them adds a
/// decision (copy on write): plans are copied on every call that returns
/// one, and a plan explains itself in a dozen strings.
class DecisionList {
 public:
  using const_iterator = std::vector<Decision>::const_iterator;                  ///< in order made
  using const_reverse_iterator = std::vector<Decision>::const_reverse_iterator;  ///< latest first
  const_iterator begin() const { return items().begin(); }                       ///< the first decision
  const_iterator end() const { return items().end(); }                           ///< past the last
  const_reverse_iterator rbegin() const { return items().rbegin(); }             ///< the latest decision
  const_reverse_iterator rend() const { return items().rend(); }                 ///< past the first
  std::size_t size() const { return items().size(); }                            ///< how many
  bool empty() const { return items().empty(); }                                 ///< none made
  /// Adds `d` (copying the list first where another plan shares it).
  void push_back(Decision d);

 private:
  const std::vector<Decision>& items() const;
  std::shared_ptr<std::vector<Decision>> items_;
};

/// Everything one launch needs, each choice explained (above).
struct LaunchPlan {
  KernelTraits traits;  ///< what the plan was made for; traits.name names the kernel (and its tuning key)
  DeviceClass device_class = DeviceClass::other_accelerator;  ///< the class whose rules made it
  unsigned dimensions = 1;                                    ///< of the NDRange: 1, 2 or 3
  std::array<std::size_t, 3> local{{1, 1, 1}};                ///< the work-group's shape
  std::array<std::size_t, 3> global{{0, 1, 1}};               ///< multiples of local
  unsigned vector_width = 1;                                  ///< elements a work-item loads at once (VW)
  bool use_local_memory = false;                              ///< the tiled variant, in local memory
  bool barrier_free_variant = false;                          ///< the variant without barriers (CPUs)
  /// Reductions and scans: 1 when the last work-group combines the partial
  /// results (a kernel argument, not a macro: both share one binary), else 2.
  unsigned passes = 1;
  std::size_t items_per_work_item = 1;                  ///< grid-stride iterations (of vectors) per work-item
  std::size_t work_groups = 0;                          ///< global / local, over every dimension
  MemoryStrategy memory = MemoryStrategy::direct_copy;  ///< how host data reaches the buffers
  std::map<std::string, std::string> macros;            ///< -D macros for the .cl source
  DecisionList decisions;                               ///< every choice, in the order made
  /// "rules" for the chapter-1 defaults, or the name of whatever overrode them
  /// (e.g. "tuning database: <file>").
  std::string provenance = "rules";

  std::size_t work_group_size() const { return local[0] * local[1] * local[2]; }  ///< work-items a group
  bool empty() const { return work_groups == 0; }  ///< covers no work-item: nothing to launch
  /// "-DVW=4 -DWG_SIZE=256 ..." in a stable order (part of the binary cache key).
  std::string build_options() const;
  /// One line per decision: what = value  [rule] why.
  std::string explain() const;
  /// One line in plain words: "work-group 256, 2112 work-groups, vector
  /// width 4, 8 items per work-item, no local memory, ...".
  std::string summary() const;
  /// Every field and decision as JSON (portacl-query --explain --json).
  Json to_json() const;

  /// Records a decision; `rule` must be in the rule book.
  void decide(std::string what, std::string value, std::string rule, std::string why);
  /// The latest decision on `what`, or nullptr when none was made.
  const Decision* decision(const std::string& what) const;
};

}  // namespace portacl

// ---- mapping rules -----------------------------------------------------------
/// The planner: device description + kernel traits + problem size -> launch
/// plan, by the chapter-1 rules, with live limits always winning and a hook
/// through which a tuning database can override the rules' defaults.
namespace portacl {

/// Ways a kernel can combine values across a sub-group (bits).
enum SubGroupOps : unsigned {
  sub_group_reduce = 1u,  ///< cl_khr_subgroups: sub_group_reduce_add
  warp_shuffle = 2u,      ///< NVIDIA: shfl.sync through inline PTX, warps of 32
};
/// The SubGroupOps bits `d` offers.
unsigned sub_group_ops_of(const DeviceInfo& d);

/// The hard limits a plan must respect.
struct DeviceLimits {
  std::size_t max_work_group_size = 0;                   ///< 0: unknown (no limit applied)
  std::array<std::size_t, 3> max_item_sizes{{0, 0, 0}};  ///< 0: unknown
  std::size_t local_mem_size = 0;                        ///< bytes a work-group may take; 0: unknown
  /// Capabilities a plan may rely on; unset: unknown, no restriction.
  std::optional<bool> global_atomics;     ///< 32-bit atomics on global memory
  std::optional<unsigned> sub_group_ops;  ///< SubGroupOps bits
  /// The compiler that builds the kernels orders global writes across
  /// work-groups only with an inline membar.gl (NVIDIA's own OpenCL, whose
  /// mem_fence is work-group scope): a fact of the device that runs the
  /// kernels, so a fixture's plan run there keeps the running device's value.
  std::optional<bool> nv_membar;
  std::string source;  ///< whose limits these are, for explanations

  /// The limits `d`'s description states.
  static DeviceLimits of(const DeviceInfo& d);
  /// The tighter of two sets of limits (a fixture's plan run on a real device).
  DeviceLimits intersect(const DeviceLimits& other) const;
};

/// Values a tuning database (or a caller) substitutes for the rules' choices.
struct PlanOverride {
  std::optional<std::size_t> work_group_size;             ///< work-items a group
  std::optional<std::array<std::size_t, 3>> local_shape;  ///< a 2D or 3D group's shape
  std::optional<unsigned> vector_width;                   ///< VW
  std::optional<std::size_t> work_groups;                 ///< cap on work-groups (grid stride)
  std::optional<bool> use_local_memory;                   ///< the tiled variant or not
  std::optional<unsigned> passes;                         ///< reductions and scans: 1 or 2
  std::map<std::string, std::string> macros;              ///< extra tunables for the .cl source
  std::string provenance = "override";                    ///< the plan's provenance when it applies
  /// Set by a provider whose stored result cannot be used here (why not):
  /// the rules plan, and the provenance says which result did not apply.
  std::string refused;
};

/// How a call is planned, beyond the device's rules.
struct PlanOptions {
  /// Also respect these limits (e.g. PoCL's, when running a fixture's plan).
  std::optional<DeviceLimits> live_limits;
  /// CL_KERNEL_WORK_GROUP_SIZE of the compiled kernel, once known (0: unknown).
  std::size_t kernel_work_group_limit = 0;
  /// An explicit override for this plan; takes precedence over the provider.
  std::optional<PlanOverride> override_values;
  bool consult_provider = true;  ///< read the tuning database (false: the rules alone)
  /// Plan by this device's rules instead of the context's own (the context's
  /// live limits still apply): how AMD or MIC plans are run on PoCL.
  std::optional<DeviceInfo> plan_as;
  /// True when the plan is left to the device's rules and the tuning
  /// database alone: such calls' preparations may be cached per shape.
  bool leaves_plan_to_device() const {
    return !live_limits && kernel_work_group_limit == 0 && !override_values && consult_provider && !plan_as;
  }
};

/// Throws portacl::Error naming kernel and device when `device` lacks the
/// precision `traits.element` needs (fp64, fp16).
void require_precision(const DeviceInfo& device, const KernelTraits& traits);

/// Throws portacl::Error when the request cannot be planned at all (double on
/// a device without fp64, dimensions outside 1..3).
LaunchPlan make_plan(const DeviceInfo& device, const KernelTraits& traits, const ProblemSize& size,
                     const PlanOptions& options = {});

}  // namespace portacl

namespace portacl {
/// How buffers on this device are best filled (the memory rule of the plan).
MemoryStrategy preferred_memory_strategy(const DeviceInfo& device);
}  // namespace portacl

// ---- rule book ---------------------------------------------------------------
/// The rule book (docs/mapping-rules.md) as data: every rule the planner
/// applies has an id, the class it belongs to, the section of its source and
/// its statement. Decisions cite these ids.
namespace portacl {

/// One rule of the rule book.
struct Rule {
  const char* id;            ///< "nvidia.wg-warp-multiple"
  const char* device_class;  ///< "cpu", "nvidia_gpu", ..., or "all"
  const char* section;       ///< "1.5.1", ...
  const char* statement;     ///< the rule in a sentence
};

/// Every rule, by class (docs/mapping-rules.md is its table).
const std::vector<Rule>& rule_book();
/// Throws portacl::Error for an id not in the rule book (catches typos in planners).
const Rule& rule(const std::string& id);

}  // namespace portacl

// ---- sparse method -----------------------------------------------------------
/// The ways a sparse matrix-vector product can be done: storage formats,
/// CSR variants, the statistics of a matrix the choice reads, and the
/// choice itself with its reasons. The rules that choose are internal
/// (src/rules/sparse_rules.hpp); spmv_choice (portacl/kernels/sparse/matrix.hpp)
/// asks them.
namespace portacl {

/// A sparse matrix's storage on the device.
enum class SparseFormat {
  csr,    ///< compressed sparse rows
  coo,    ///< coordinates, sorted by row
  ell,    ///< every row padded to the longest, column index -1 in padding
  ell_r,  ///< ELL with each row's length (ELLPACK-R): no padding is read
  hyb,    ///< ELL for each row's first K entries, coordinates for the rest
  dia,    ///< the occupied diagonals, for banded matrices
};

/// The ways of running a CSR product.
enum class CsrVariant {
  scalar,    ///< one work-item per row
  vector,    ///< a team (warp, wavefront or slice) per row
  block,     ///< a work-group per block of rows, staged in local memory
  adaptive,  ///< rows binned by length, one kernel per bin on its own queue
  cpu,       ///< a work-item per chunk of rows of equal entries, vector loads
  merge,     ///< equal shares of the merged rows' ends and entries (merge path)
};

/// A format and, for CSR, its variant: "csr-vector", "ell", "dia", ...
struct SpmvMethod {
  SparseFormat format = SparseFormat::csr;  ///< the storage
  CsrVariant variant = CsrVariant::scalar;  ///< for CSR, how it runs
  std::string name() const;                 ///< "csr-vector", "ell", ...
  /// The same format, and for CSR the same variant.
  bool operator==(const SpmvMethod& o) const {
    return format == o.format && (format != SparseFormat::csr || variant == o.variant);
  }
};

/// Every method.
const std::vector<SpmvMethod>& spmv_methods();
/// "csr-adaptive" and the like; throws portacl::Error listing the names.
SpmvMethod spmv_method_from_string(const std::string& name);

/// The row-length bins of the adaptive variant: empty rows, 1-7, 8-31,
/// 32-128 and more than 128 entries.
constexpr std::size_t kRowLengthBins = 5;
/// The largest row length of each bin but the last.
constexpr std::array<std::uint64_t, kRowLengthBins - 1> kRowLengthBinTops{{0, 7, 31, 128}};

/// The HYB widths the rule considers: 0 to 64.
constexpr std::size_t kHybWidthCandidates = 64;

/// What the rules read of a matrix: computed once per structure.
struct SparseShape {
  std::size_t rows = 0;                                   ///< the matrix's rows
  std::size_t cols = 0;                                   ///< its columns
  std::size_t nnz = 0;                                    ///< its stored entries
  std::uint64_t shortest_row = 0;                         ///< entries of the shortest row
  std::uint64_t longest_row = 0;                          ///< entries of the longest row
  double mean_row = 0;                                    ///< entries per row, on average
  double row_stddev = 0;                                  ///< their standard deviation
  std::array<std::size_t, kRowLengthBins> rows_in_bin{};  ///< how many rows each bin holds
  /// rows_with_at_least[k]: rows of k or more entries, k = 0 to
  /// kHybWidthCandidates (the HYB width is chosen among these).
  std::vector<std::size_t> rows_with_at_least;
  std::size_t diagonals = 0;  ///< occupied diagonals
};

/// The method chosen for a matrix on a device, with the decisions that
/// explain it (rule ids from the rule book).
struct SpmvChoice {
  SpmvMethod method;                ///< the method chosen
  std::vector<Decision> decisions;  ///< why
  /// The plan of the choice itself (traits spmv_method_traits): its
  /// provenance says whether the rules or a tuning record decided.
  LaunchPlan plan;
};

}  // namespace portacl
