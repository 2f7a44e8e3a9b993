// SPDX-License-Identifier: Apache-2.0
// Binary matrix products (kernels/binary_gemm.cl): validate, plan (rules/
// binary_gemm_rules), launch; and the sign packing both operands take.
#include "portacl/blas.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "aliasing.hpp"
#include "kernel_call.hpp"
#include "matrix_checks.hpp"
#include "kernels/binary_gemm_tunables.hpp"
#include "portacl/error.hpp"
#include "rules/coverage_rules.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

using kernel_call::ceil_div;

KernelTraits binary_gemm_traits() {
  // element: 32 signs a word
  // vectorizable: the rows' words
  // bytes_per_item: a word of each operand, from the cache mostly
  return kernel_traits("binary_gemm", ElementType::i32, 1, traits::local_tiling | traits::barriers, {8, 0},
                       &binary_gemm_tunables());
}

KernelTraits sign_packing_traits() { return kernel_traits("pack_signs", ElementType::f32, 1, traits::scalar, {4, 0}); }

const TuningSpace& binary_gemm_tunables() {
  static const TuningSpace space{
      {knobs::vector_width({1, 4, 8, 16}),
       knobs::use_local_memory(),
       {"RM", {1, 2, 4, 8}, 4, "rows of C a work-item (tiles)"},
       {"RN", {1, 2, 4, 8}, 4, "columns of C a work-item (tiles)"},
       {"SLICE", {4, 8, 16, 32}, 8, "words of K staged in local memory at a time (tiles)"},
       {"COLUMNS", {1, 4, 8, 16}, 8, "columns of C a work-item (rows, the barrier-free variant)"}},
      [](const Configuration& c) -> std::string {
        // The other variant's knobs take their fallbacks only.
        const bool tiles = c.count("use_local_memory") && c.at("use_local_memory") == 1;
        for (const char* knob : {"RM", "RN", "SLICE"})
          if (!tiles && c.count(knob) && c.at(knob) != *binary_gemm_tunables().at(knob).fallback)
            return std::string(knob) + " only shapes the tiles";
        return "";
      }};
  return space;
}

namespace {

constexpr std::size_t kMaxK = static_cast<std::size_t>(std::numeric_limits<int>::max());

// A plan of one work-item per element (packing, unpacking).
LaunchPlan element_plan(Context& ctx, std::size_t items, const PlanOptions& o) {
  LaunchPlan plan = ctx.plan(sign_packing_traits(), ProblemSize(std::max<std::size_t>(items, 1)), o);
  cover_items(plan, std::max<std::size_t>(items, 1), 1, "elements");
  return plan;
}

}  // namespace

BinaryGemmLaunch plan_binary_gemm(const Planner& planner, std::size_t m, std::size_t n) {
  BinaryGemmLaunch l;
  l.plan = planner.plan(binary_gemm_traits(), ProblemSize(std::max<std::size_t>(checked_product(m, n, "m x n"), 1)));
  l.shape = choose_binary_gemm(l.plan, binary_gemm_tunables(), m, n);
  l.entry = l.shape.tiles ? "bgemm_tiles" : "bgemm_rows";
  return l;
}

namespace {

// The checks packing and unpacking share: contexts, k, the two buffers'
// sizes for rows x k signs, and no overlap (`packing`: the words are
// written, else the signs). Returns the words a row takes.
std::size_t check_packing(const char* op, Context& ctx, const Buffer<float>& signs, const Buffer<std::uint32_t>& packed,
                          std::size_t rows, std::size_t k, bool packing) {
  kernel_call::same_context(ctx, signs, op, "x");
  kernel_call::same_context(ctx, packed, op, "packed");
  if (k > kMaxK) throw Error(std::string(op) + ": k " + std::to_string(k) + " is past 2^31 - 1");
  if (rows > 0xffffffffull) throw Error(std::string(op) + ": " + std::to_string(rows) + " rows; at most 2^32 - 1");
  const std::size_t words = packed_words(k);
  kernel_call::need_elements(op, "x", signs.size(), checked_product(rows, k, std::string(op) + ": rows x k"),
                             std::to_string(rows) + " x " + std::to_string(k) + " signs");
  kernel_call::need_elements(op, "packed", packed.size(),
                             checked_product(rows, words, std::string(op) + ": rows x words"),
                             std::to_string(rows) + " rows of " + std::to_string(words) + " words");
  if (packing)
    aliasing::refuse_overlap(op, aliasing::whole(packed), "packed", aliasing::whole(signs), "x",
                             "the words are written while the signs are read");
  else
    aliasing::refuse_overlap(op, aliasing::whole(signs), "x", aliasing::whole(packed), "packed",
                             "the signs are written while the words are read");
  return words;
}

}  // namespace

LaunchPlan pack_signs(Context& ctx, const Buffer<float>& x, std::size_t rows, std::size_t k,
                      Buffer<std::uint32_t>& packed, const PackOptions& o) {
  const std::size_t words = check_packing("pack_signs", ctx, x, packed, rows, k, true);
  const LaunchPlan plan = element_plan(ctx, rows * words, o.plan);
  if (rows * words == 0) return plan;
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"binary_gemm.cl", "pack_signs", ""}, plan), static_cast<cl_uint>(rows),
                      static_cast<cl_uint>(k), static_cast<cl_uint>(words), static_cast<cl_uint>(o.by_columns), x,
                      packed);
  return plan;
}

LaunchPlan unpack_signs(Context& ctx, const Buffer<std::uint32_t>& packed, std::size_t rows, std::size_t k,
                        Buffer<float>& x, const PlanOptions& o) {
  const std::size_t words = check_packing("unpack_signs", ctx, x, packed, rows, k, false);
  const LaunchPlan plan = element_plan(ctx, rows * k, o);
  if (rows * k == 0) return plan;
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"binary_gemm.cl", "unpack_signs", ""}, plan),
                      static_cast<cl_uint>(rows), static_cast<cl_uint>(k), static_cast<cl_uint>(words), packed, x);
  return plan;
}

LaunchPlan binary_gemm(Context& ctx, std::size_t m, std::size_t n, std::size_t k, const Buffer<std::uint32_t>& a,
                       const Buffer<std::uint32_t>& b, Buffer<int>& c, std::size_t ldc, const PlanOptions& o) {
  const char* op = "binary_gemm";
  kernel_call::same_context(ctx, a, op, "a");
  kernel_call::same_context(ctx, b, op, "b");
  kernel_call::same_context(ctx, c, op, "c");
  if (k > kMaxK) throw Error(std::string(op) + ": k " + std::to_string(k) + " is past 2^31 - 1, C's int range");
  if (m > 0xffffffffull || n > 0xffffffffull || ldc > 0xffffffffull)
    throw Error(std::string(op) + ": m, n and ldc must be below 2^32 (" + std::to_string(m) + ", " + std::to_string(n) +
                ", " + std::to_string(ldc) + ")");
  const std::size_t words = packed_words(k);
  kernel_call::need_elements(op, "a", a.size(), checked_product(m, words, "binary_gemm: m x words"),
                             std::to_string(m) + " packed rows of " + std::to_string(words) + " words");
  kernel_call::need_elements(op, "b", b.size(), checked_product(n, words, "binary_gemm: n x words"),
                             std::to_string(n) + " packed columns of " + std::to_string(words) + " words");
  const matrix_checks::Stored stored_c{m, n};
  matrix_checks::check_matrix(op, "c", stored_c, 0, ldc, c.size(), Layout::row_major);
  const aliasing::Touched written = matrix_checks::touched(c, sizeof(int), stored_c, 0, ldc);
  aliasing::refuse_overlap(op, written, "c", aliasing::whole(a), "a", "C is written while A is read");
  aliasing::refuse_overlap(op, written, "c", aliasing::whole(b), "b", "C is written while B is read");
  const BinaryGemmLaunch l = plan_binary_gemm(live_planner(ctx, o), m, n);
  if (m == 0 || n == 0) return l.plan;
  kernel_call::launch(ctx, ctx.prepare(KernelRef{"binary_gemm.cl", l.entry, ""}, l.plan), static_cast<cl_uint>(m),
                      static_cast<cl_uint>(n), static_cast<cl_uint>(k), static_cast<cl_uint>(words), a, b, c,
                      static_cast<cl_uint>(ldc));
  return l.plan;
}

}  // namespace portacl
