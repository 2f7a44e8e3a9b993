#include "portacl/kernels/gemm.hpp"

#include "kernel_call.hpp"

namespace portacl {

KernelTraits gemm_traits(ElementType element) {
  KernelTraits t;
  t.name = "gemm";
  t.element = element;
  t.dimensions = 2;
  t.benefits_from_local_tiling = true;
  t.needs_barriers = true;
  t.has_barrier_free_variant = true;  // the cache-only variant
  t.vectorizable = false;
  // Per element of C: 2k flops over about (1/TS_M + 1/TS_N) k loads; the
  // planner only needs "compute-bound".
  t.bytes_per_item = 2.0 * static_cast<double>(size_of(element));
  t.flops_per_item = 64;
  // Slices of TS_K x (TS_M + TS_N + 2) values shared by WG_X x WG_Y
  // work-items: TS_K (WPT_M / WG_X + WPT_N / WG_Y) each, about 8 elements
  // with the default 16-deep slices of 4 x 4 blocks on a 16 x 16 group; 12
  // leaves room. The exact figure is checked at launch.
  t.local_bytes_per_work_item = 12 * size_of(element);
  return t;
}

const TuningSpace& gemm_tunables() {
  static const TuningSpace space{
      {knobs::use_local_memory(),
       {"WPT_M", {1, 2, 4, 8}, 4, "rows of C per work-item (register block)"},
       {"WPT_N", {1, 2, 4, 8}, 4, "columns of C per work-item (register block)"},
       {"TS_K", {8, 16, 32}, 16, "depth of the slices of A and B staged at a time"}},
      nullptr};
  return space;
}

namespace {

// How one operand is stored: `outer` lines of `inner` elements, `ld` apart.
struct Stored {
  std::size_t outer, inner;
};

// Rows and columns of the stored (untransposed) operand in the layout's terms.
Stored stored(Layout layout, std::size_t rows, std::size_t cols) {
  return layout == Layout::row_major ? Stored{rows, cols} : Stored{cols, rows};
}

void check_operand(const char* name, const Stored& s, std::size_t offset, std::size_t ld, std::size_t size,
                   Layout layout) {
  if (s.outer == 0 || s.inner == 0) return;
  if (ld < s.inner)
    throw Error(std::string("gemm: ld") + name + " is " + std::to_string(ld) + " but a stored " +
                (layout == Layout::row_major ? "row" : "column") + " of " + name + " has " +
                std::to_string(s.inner) + " elements");
  const std::size_t needed = offset + (s.outer - 1) * ld + s.inner;
  if (needed > size)
    throw Error(std::string("gemm: ") + name + " needs " + std::to_string(needed) + " elements (offset " +
                std::to_string(offset) + ", " + std::to_string(s.outer) + " x ld " + std::to_string(ld) +
                ") but its buffer has " + std::to_string(size));
}

// Strides of element (r, c) of a stored operand.
void strides(Layout layout, std::size_t ld, cl_ulong& row, cl_ulong& col) {
  row = layout == Layout::row_major ? ld : 1;
  col = layout == Layout::row_major ? 1 : ld;
}

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace

template <class T>
LaunchPlan gemm(Context& ctx, Layout layout, Transpose ta, Transpose tb, std::size_t m, std::size_t n,
                std::size_t k, T alpha, MatrixRef<T> a, MatrixRef<T> b, T beta, Buffer<T>& c, std::size_t offc,
                std::size_t ldc, const PlanOptions& options) {
  kernel_call::same_context(ctx, a.buffer, "gemm", "A");
  kernel_call::same_context(ctx, b.buffer, "gemm", "B");
  kernel_call::same_context(ctx, c, "gemm", "C");
  const bool trans_a = ta == Transpose::yes, trans_b = tb == Transpose::yes;
  check_operand("A", stored(layout, trans_a ? k : m, trans_a ? m : k), a.offset, a.ld, a.buffer.size(), layout);
  check_operand("B", stored(layout, trans_b ? n : k, trans_b ? k : n), b.offset, b.ld, b.buffer.size(), layout);
  check_operand("C", stored(layout, m, n), offc, ldc, c.size(), layout);

  const KernelTraits traits = gemm_traits(element_of<T>::value);
  LaunchPlan plan = ctx.plan(traits, ProblemSize(n, m), options);
  if (m == 0 || n == 0) return plan;
  const TuningSpace& space = gemm_tunables();
  const std::size_t wpt_m = static_cast<std::size_t>(space.value_in(plan, "WPT_M"));
  const std::size_t wpt_n = static_cast<std::size_t>(space.value_in(plan, "WPT_N"));
  const std::size_t ts_k = static_cast<std::size_t>(space.value_in(plan, "TS_K"));
  plan.macros["WPT_M"] = std::to_string(wpt_m);
  plan.macros["WPT_N"] = std::to_string(wpt_n);
  plan.macros["TS_K"] = std::to_string(ts_k);
  const std::size_t tile_m = plan.local[1] * wpt_m, tile_n = plan.local[0] * wpt_n;
  const std::size_t local_bytes = ts_k * (tile_m + tile_n + 2) * sizeof(T);
  if (plan.use_local_memory && ctx.info().local_mem_size && local_bytes > ctx.info().local_mem_size)
    throw Error("gemm: tiles of " + std::to_string(tile_m) + " x " + std::to_string(tile_n) + " x " +
                std::to_string(ts_k) + " need " + std::to_string(local_bytes) + " bytes of local memory; '" +
                ctx.info().name + "' has " + std::to_string(ctx.info().local_mem_size));
  plan.global = {{ceil_div(n, tile_n) * plan.local[0], ceil_div(m, tile_m) * plan.local[1], 1}};
  plan.work_groups = ceil_div(n, tile_n) * ceil_div(m, tile_m);
  plan.items_per_work_item = wpt_m * wpt_n;
  plan.decide("tiles", std::to_string(tile_m) + " x " + std::to_string(tile_n) + " x " + std::to_string(ts_k),
              "general.cover-problem",
              std::to_string(wpt_m) + " x " + std::to_string(wpt_n) + " elements of C per work-item");

  cl_ulong a_r, a_c, b_r, b_c, c_r, c_c;
  strides(layout, a.ld, a_r, a_c);
  strides(layout, b.ld, b_r, b_c);
  strides(layout, ldc, c_r, c_c);
  // op(A)(i, p) is stored (i, p), or (p, i) when transposed.
  const cl_ulong a_i = trans_a ? a_c : a_r, a_p = trans_a ? a_r : a_c;
  const cl_ulong b_p = trans_b ? b_c : b_r, b_j = trans_b ? b_r : b_c;
  PreparedKernel kernel = ctx.prepare(KernelRef{"gemm.cl", "gemm", ""}, plan);
  kernel_call::launch(ctx, kernel, static_cast<cl_ulong>(m), static_cast<cl_ulong>(n), static_cast<cl_ulong>(k),
                      alpha, beta, a.buffer, static_cast<cl_ulong>(a.offset), a_i, a_p, b.buffer,
                      static_cast<cl_ulong>(b.offset), b_p, b_j, c, static_cast<cl_ulong>(offc), c_r, c_c);
  return plan;
}

#define PORTACL_GEMM_INSTANTIATE(T)                                                                            \
  template LaunchPlan gemm<T>(Context&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t, T, \
                              MatrixRef<T>, MatrixRef<T>, T, Buffer<T>&, std::size_t, std::size_t,             \
                              const PlanOptions&);
PORTACL_GEMM_INSTANTIATE(float)
PORTACL_GEMM_INSTANTIATE(double)

}  // namespace portacl
