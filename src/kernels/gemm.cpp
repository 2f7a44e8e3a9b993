// SPDX-License-Identifier: Apache-2.0
#include "portacl/blas.hpp"

#include "gemm_clblast.hpp"
#include "rules/gemm_rules.hpp"
#include "rules/coverage_rules.hpp"
#include "rules/tuning_database.hpp"
#include "kernel_call.hpp"
#include "matrix_checks.hpp"
#include "kernels/gemm_tunables.hpp"
#include "gemm_plans.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

KernelTraits gemm_traits(ElementType element) {
  // has_barrier_free_variant: the cache-only variant
  // Per element of C: 2k flops over about (1/TS_M + 1/TS_N) k loads; the
  // planner only needs "compute-bound".
  // Slices of TS_K x (TS_M + TS_N + 2) values shared by WG_X x WG_Y
  // work-items: TS_K (WPT_M / WG_X + WPT_N / WG_Y) each. 16 is what 8-deep
  // double-buffered slices of 8 x 8 blocks take on a 16 x 16 group: enough
  // to ask for local memory where it is real; the rules then fit the slice
  // depth to the device (general.gemm-register-tiles: 48 a work-item for
  // 16-deep slices of 8 x 16 float blocks) and the exact figure is checked
  // at launch.
  return kernel_traits("gemm", element, 2, traits::local_tiling | traits::barriers | traits::scalar,
                       {2.0 * static_cast<double>(size_of(element)), 64, 16 * size_of(element)}, &gemm_tunables());
}

const TuningSpace& gemm_tunables() {
  static const TuningSpace space{
      {knobs::work_group_size({16, 64, 128, 256}),
       knobs::use_local_memory(),
       {"PACK",
        {0, 1},
        std::nullopt,
        "copy op(A) and op(B) into tile-padded panels first (1), or read the user's matrices through strides (0); "
        "the rules pack from 64^3 multiply-adds on CPUs and 640^3 on GPUs"},
       {"WPT_M", {1, 2, 4, 8, 16}, std::nullopt, "rows of C per work-item (register block); the rules take 8"},
       {"WPT_N",
        {1, 2, 4, 8, 16, 32},
        std::nullopt,
        "columns of C per work-item (register block); the rules take 4 with local memory, else the SIMD width"},
       {"TS_K",
        {8, 16, 32},
        std::nullopt,
        "depth of the slices of A and B staged at a time; the rules take the deepest whose tiles fill at most "
        "half the local memory (16 without local memory)"},
       {"VEC",
        {1, 2, 4, 8, 16},
        std::nullopt,
        "elements per load from the packed panels; the rules take 4 with local memory, else the SIMD width"},
       {"UNROLL",
        {1, 4, 8, 16},
        std::nullopt,
        "unrolling of the loop over a slice's depth; the rules unroll a whole double-buffered slice, else 8"},
       {"PREFETCH",
        {0, 1},
        std::nullopt,
        "double-buffered slices, the next one's loads issued before the current one's multiply-adds (1), or one "
        "buffer loaded between two barriers (0); packed operands in local memory only; the rules take 1"},
       {"BACKEND", {0, 1}, 0, "portacl's kernels (0) or CLBlast's Xgemm (1), measured as an alternative"}},
      [](const Configuration& c) -> std::string {
        auto get = [&](const char* k) { return c.count(k) ? c.at(k) : -1; };
        const long pack = get("PACK"), vec = get("VEC"), unroll = get("UNROLL");
        // The strided kernel reads neither knob: other values would repeat a launch.
        if (pack == 0 && vec > 1) return "VEC only applies to packed operands";
        if (pack == 0 && unroll != -1 && unroll != 8) return "UNROLL only applies to packed operands";
        if (get("PREFETCH") == 1 && (pack == 0 || get("use_local_memory") == 0))
          return "PREFETCH double-buffers packed slices in local memory";
        if (vec > 0 && ((get("WPT_M") != -1 && get("WPT_M") % vec) || (get("WPT_N") != -1 && get("WPT_N") % vec)))
          return "VEC must divide WPT_M and WPT_N";
        if (unroll > 0 && get("TS_K") > 0 && unroll > get("TS_K")) return "UNROLL exceeds TS_K";
        // CLBlast has its own kernels: portacl's knobs would repeat its launch.
        if (get("BACKEND") == 1 && c.size() > 1) return "BACKEND=1 (CLBlast) takes no other knob";
        return "";
      },
      {{{"BACKEND", 1}}}};
  return space;
}

namespace {

using namespace matrix_checks;

void check_local_memory(const DeviceInfo& device, const LaunchPlan& plan, const GemmShape& g, std::size_t element) {
  const std::size_t pad = g.pack ? 0 : 2;
  const std::size_t bytes = (g.prefetch ? 2 : 1) * g.ts_k * (g.tile_m + g.tile_n + pad) * element;
  if (plan.use_local_memory && device.local_mem_size && bytes > device.local_mem_size)
    throw Error("gemm: tiles of " + std::to_string(g.tile_m) + " x " + std::to_string(g.tile_n) + " x " +
                std::to_string(g.ts_k) + " need " + std::to_string(bytes) + " bytes of local memory; '" + device.name +
                "' has " + std::to_string(device.local_mem_size));
}

}  // namespace

GemmPlans plan_gemm(const Planner& planner, ElementType element, std::size_t m, std::size_t n, std::size_t k,
                    const GemmOptions& gemm_options) {
  GemmPlans l;
  l.plan = planner.plan(gemm_traits(element), ProblemSize(n, m));
  LaunchPlan& plan = l.plan;
  l.clblast = gemm_options.backend == GemmBackend::clblast ||
              (gemm_options.backend == GemmBackend::automatic && gemm_tunables().value_in(plan, "BACKEND") == 1);
  if (l.clblast) {
    decide_gemm_clblast(plan, gemm_options.backend == GemmBackend::clblast);
    return l;
  }
  const std::size_t element_bytes = size_of(element);
  const PlanOptions& options = gemm_options.plan;
  l.g = choose_gemm_shape(plan, sizing_device(planner.device, options), gemm_tunables(), m, n, k);
  const GemmShape& g = l.g;
  check_local_memory(planner.device, plan, g, element_bytes);
  gemm_launches(l, planner.device, element_bytes, m, n, k);
  return l;
}

namespace {

// Everything a GEMM call of one shape needs besides its operands: the plans
// (plan_gemm) and the prepared kernels of its launches (one direct kernel,
// or two packing kernels and the tiled one). Made once per shape and thread
// and kept by the context (Context::prepared_call), so a repeated call
// plans and builds nothing.
struct GemmLaunches : GemmPlans {
  PreparedKernel direct, pack_a, pack_b, tiled;
};

GemmLaunches prepare_gemm(Context& ctx, ElementType element, std::size_t m, std::size_t n, std::size_t k,
                          const GemmOptions& gemm_options) {
  GemmLaunches l;
  static_cast<GemmPlans&>(l) = plan_gemm(live_planner(ctx, gemm_options.plan), element, m, n, k, gemm_options);
  if (l.clblast) return l;
  if (!l.g.pack) {
    l.direct = ctx.prepare(KernelRef{"gemm.cl", "gemm", ""}, l.plan);
    return l;
  }
  if (l.k_pad) {
    l.pack_a = ctx.prepare(KernelRef{"gemm_packed.cl", "gemm_pack", ""}, l.pack_a_plan);
    l.pack_b = ctx.prepare(KernelRef{"gemm_packed.cl", "gemm_pack", ""}, l.pack_b_plan);
  }
  l.tiled = ctx.prepare(KernelRef{"gemm_packed.cl", l.g.cpu_block ? "gemm_cpu" : "gemm_tiled", ""}, l.plan);
  return l;
}

// The cache key of a call shape: element type, m, n, k and the backend asked for.
std::string gemm_key(ElementType element, std::size_t m, std::size_t n, std::size_t k, GemmBackend backend) {
  std::string key = "gemm";
  for (std::size_t v : {static_cast<std::size_t>(element), m, n, k, static_cast<std::size_t>(backend)})
    key.append(reinterpret_cast<const char*>(&v), sizeof v);
  return key;
}

}  // namespace

namespace {

// Launches `prepared` over `batch` products (a third dimension); a single
// product launches the prepared kernel as it is, with no copy of its plan.
template <class... Args>
void launch_over_batch(Context& ctx, const PreparedKernel& prepared, std::size_t batch, const Args&... args) {
  if (batch == 1) return kernel_call::launch(ctx, prepared, args...);
  PreparedKernel k = prepared;
  over_batch(k.plan, batch);
  kernel_call::launch(ctx, k, args...);
}

// The bytes the `batch` matrices of a strided operand touch, first to last.
aliasing::Touched touched_batch(const BufferStorage& b, std::size_t element, const Stored& s, std::size_t offset,
                                std::size_t ld, std::size_t stride, std::size_t batch) {
  aliasing::Touched t = touched(b, element, s, offset, ld);
  if (t.count) t.count += (batch - 1) * stride * element;
  return t;
}

// C = alpha op(A) op(B) + beta C for `batch` products, matrix i of each
// operand `stride` elements after matrix i - 1 (the single product: batch
// 1). Validates, plans once, and launches: the packed path as one launch of
// each kernel over the batch, the others once a product.
template <class T>
LaunchPlan gemm_products(const char* op, Context& ctx, Layout layout, Transpose ta, Transpose tb, std::size_t m,
                         std::size_t n, std::size_t k, T alpha, MatrixRef<T> a, std::size_t stride_a, MatrixRef<T> b,
                         std::size_t stride_b, T beta, Buffer<T>& c, std::size_t offc, std::size_t ldc,
                         std::size_t stride_c, std::size_t batch, const GemmOptions& gemm_options) {
  const PlanOptions& options = gemm_options.plan;
  kernel_call::same_context(ctx, a.buffer, op, "A");
  kernel_call::same_context(ctx, b.buffer, op, "B");
  kernel_call::same_context(ctx, c, op, "C");
  const bool trans_a = ta == Transpose::yes, trans_b = tb == Transpose::yes;
  const Stored sa = stored(layout, trans_a ? k : m, trans_a ? m : k),
               sb = stored(layout, trans_b ? n : k, trans_b ? k : n);
  const Stored sc = stored(layout, m, n);
  const ElementType element = element_of<T>::value;
  if (batch == 0) return ctx.plan(gemm_traits(element), ProblemSize(n, m), options);
  const std::size_t last = batch - 1;
  const auto shifted = [&](std::size_t offset, std::size_t stride, const char* what) {
    return offset + checked_product(last, stride, std::string(op) + ": " + what + "'s last matrix");
  };
  check_matrix(op, "A", sa, shifted(a.offset, stride_a, "A"), a.ld, a.buffer.size(), layout);
  check_matrix(op, "B", sb, shifted(b.offset, stride_b, "B"), b.ld, b.buffer.size(), layout);
  check_matrix(op, "C", sc, shifted(offc, stride_c, "C"), ldc, c.size(), layout);
  if (batch > 1 && m > 0 && n > 0 && stride_c < (sc.outer - 1) * ldc + sc.inner)
    throw Error(std::string(op) + ": stride_c " + std::to_string(stride_c) + " is shorter than a C matrix (" +
                std::to_string((sc.outer - 1) * ldc + sc.inner) +
                " elements): the products would overwrite each other");
  const aliasing::Touched c_span = touched_batch(c, sizeof(T), sc, offc, ldc, stride_c, batch);
  aliasing::refuse_overlap(op, c_span, "C", touched_batch(a.buffer, sizeof(T), sa, a.offset, a.ld, stride_a, batch),
                           "A", "every element of C is a sum over a row of op(A)");
  aliasing::refuse_overlap(op, c_span, "C", touched_batch(b.buffer, sizeof(T), sb, b.offset, b.ld, stride_b, batch),
                           "B", "every element of C is a sum over a column of op(B)");

  if (m == 0 || n == 0) return ctx.plan(gemm_traits(element), ProblemSize(n, m), options);
  if ((alpha == T(0) && k > 0) || (k == 0 && gemm_options.backend != GemmBackend::portacl)) {
    // BLAS: with alpha = 0 (or k = 0) A and B are not read, C = beta C, so
    // NaN in A or B cannot reach C. The library's own kernel does that as an
    // empty product (k = 0) on either backend; CLBlast refuses k = 0.
    GemmOptions own(GemmBackend::portacl);
    own.plan = options;
    return gemm_products(op, ctx, layout, ta, tb, m, n, std::size_t(0), alpha, a, stride_a, b, stride_b, beta, c, offc,
                         ldc, stride_c, batch, own);
  }
  auto make = [&] {
    try {
      return prepare_gemm(ctx, element, m, n, k, gemm_options);
    } catch (const Error& e) {
      // A tuned configuration that does not build falls back to the rules
      // (reported once): only the database's plan is distrusted.
      if (!distrust_tuned_plan(ctx.plan(gemm_traits(element), ProblemSize(n, m), options), e.what())) throw;
      return prepare_gemm(ctx, element, m, n, k, gemm_options);
    }
  };
  const std::shared_ptr<const GemmLaunches> prepared =
      options.leaves_plan_to_device()
          ? ctx.prepared_call<GemmLaunches>(gemm_key(element, m, n, k, gemm_options.backend), make)
          : std::make_shared<const GemmLaunches>(make());
  const GemmLaunches& l = *prepared;

  if (l.clblast) {
    for (std::size_t i = 0; i < batch; ++i) {
      const MatrixRef<T> ai{a.buffer, a.offset + i * stride_a, a.ld}, bi{b.buffer, b.offset + i * stride_b, b.ld};
      const std::size_t ci = offc + i * stride_c;
      if (beta == T(0) && k > 0) {
        // BLAS: beta = 0 never reads C. CLBlast multiplies C by 0, so NaN in
        // C would survive: clear it first (the own kernel with k = 0): quirk
        // clblast.beta-zero-reads-c.
        GemmOptions clear(GemmBackend::portacl);
        clear.plan = options;
        gemm(ctx, layout, ta, tb, m, n, std::size_t(0), T(0), ai, bi, T(0), c, ci, ldc, clear);
      }
      clblast_backend::gemm(ctx, layout, ta, tb, m, n, k, alpha, ai, bi, beta, c, ci, ldc);
    }
    return l.plan;
  }

  cl_ulong a_r, a_c, b_r, b_c, c_r, c_c;
  strides(layout, a.ld, a_r, a_c);
  strides(layout, b.ld, b_r, b_c);
  strides(layout, ldc, c_r, c_c);
  // op(A)(i, p) is stored (i, p), or (p, i) when transposed.
  const cl_ulong a_i = trans_a ? a_c : a_r, a_p = trans_a ? a_r : a_c;
  const cl_ulong b_p = trans_b ? b_c : b_r, b_j = trans_b ? b_r : b_c;
  const auto u64 = [](std::size_t v) { return static_cast<cl_ulong>(v); };
  if (!l.g.pack) {
    for (std::size_t i = 0; i < batch; ++i)
      kernel_call::launch(ctx, l.direct, u64(m), u64(n), u64(k), alpha, beta, a.buffer, u64(a.offset + i * stride_a),
                          a_i, a_p, b.buffer, u64(b.offset + i * stride_b), b_p, b_j, c, u64(offc + i * stride_c), c_r,
                          c_c);
    return l.plan;
  }
  auto held = ctx.hold_scratch();  // the panels until the multiply is queued
  if (l.k_pad) {
    const std::size_t a_panels = checked_product(l.k_pad, l.m_pad, "gemm: A's panel");
    const std::size_t b_panels = checked_product(l.k_pad, l.n_pad, "gemm: B's panel");
    const cl::Buffer& ap =
        ctx.scratch("gemm.a", bytes_of<T>(checked_product(a_panels, batch, "gemm: A's panels"), "gemm: A's panel"));
    const cl::Buffer& bp =
        ctx.scratch("gemm.b", bytes_of<T>(checked_product(b_panels, batch, "gemm: B's panels"), "gemm: B's panel"));
    auto pack = [&](const PreparedKernel& kernel, std::size_t rows, std::size_t rows_pad, std::size_t panel,
                    const Buffer<T>& src, std::size_t off, cl_ulong s_i, cl_ulong s_p, const cl::Buffer& dst,
                    std::size_t src_batch, std::size_t dst_batch) {
      launch_over_batch(ctx, kernel, batch, u64(rows), u64(k), src, u64(off), s_i, s_p, dst, u64(rows_pad),
                        u64(l.k_pad), u64(panel), u64(src_batch), u64(dst_batch));
    };
    pack(l.pack_a, m, l.m_pad, l.g.tile_m, a.buffer, a.offset, a_i, a_p, ap, stride_a, a_panels);
    pack(l.pack_b, n, l.n_pad, l.g.tile_n, b.buffer, b.offset, b_j, b_p, bp, stride_b, b_panels);
    launch_over_batch(ctx, l.tiled, batch, u64(m), u64(n), u64(l.k_pad), alpha, beta, ap, bp, c, u64(offc), c_r, c_c,
                      u64(a_panels), u64(b_panels), u64(stride_c));
  } else {
    // k = 0: C = beta C, which the tiled kernel does with an empty loop.
    const cl::Buffer& none = ctx.scratch("gemm.a", sizeof(T) * 4);
    launch_over_batch(ctx, l.tiled, batch, u64(m), u64(n), cl_ulong(0), alpha, beta, none, none, c, u64(offc), c_r, c_c,
                      cl_ulong(0), cl_ulong(0), u64(stride_c));
  }
  return l.plan;
}

}  // namespace

template <class T, class>
LaunchPlan gemm(Context& ctx, Layout layout, Transpose ta, Transpose tb, std::size_t m, std::size_t n, std::size_t k,
                T alpha, MatrixRef<T> a, MatrixRef<T> b, T beta, Buffer<T>& c, std::size_t offc, std::size_t ldc,
                const GemmOptions& gemm_options) {
  return gemm_products("gemm", ctx, layout, ta, tb, m, n, k, alpha, a, 0, b, 0, beta, c, offc, ldc, 0, 1, gemm_options);
}

template <class T, class>
LaunchPlan gemm_strided_batched(Context& ctx, Layout layout, Transpose ta, Transpose tb, std::size_t m, std::size_t n,
                                std::size_t k, T alpha, MatrixRef<T> a, std::size_t stride_a, MatrixRef<T> b,
                                std::size_t stride_b, T beta, Buffer<T>& c, std::size_t offc, std::size_t ldc,
                                std::size_t stride_c, std::size_t batch, const GemmOptions& gemm_options) {
  return gemm_products("gemm_strided_batched", ctx, layout, ta, tb, m, n, k, alpha, a, stride_a, b, stride_b, beta, c,
                       offc, ldc, stride_c, batch, gemm_options);
}

#define PORTACL_GEMM_INSTANTIATE(T)                                                                                    \
  template LaunchPlan gemm<T>(Context&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t, T,        \
                              MatrixRef<T>, MatrixRef<T>, T, Buffer<T>&, std::size_t, std::size_t,                     \
                              const GemmOptions&);                                                                     \
  template LaunchPlan gemm_strided_batched<T>(Context&, Layout, Transpose, Transpose, std::size_t, std::size_t,        \
                                              std::size_t, T, MatrixRef<T>, std::size_t, MatrixRef<T>, std::size_t, T, \
                                              Buffer<T>&, std::size_t, std::size_t, std::size_t, std::size_t,          \
                                              const GemmOptions&);
PORTACL_GEMM_INSTANTIATE(float)
PORTACL_GEMM_INSTANTIATE(double)

}  // namespace portacl
