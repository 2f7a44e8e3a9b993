// SPDX-License-Identifier: Apache-2.0
#include "portacl/stencil.hpp"

#include "portacl/error.hpp"
#include "rules/stencil_rules.hpp"
#include "../kernel_call.hpp"
#include "stencil_traits.hpp"
#include "whole_rows_plan.hpp"
#include "plans.hpp"
#include "kernels/stencil/tunables.hpp"

namespace portacl {

using kernel_call::ceil_div;

KernelTraits convolution_traits(ElementType element) {
  // Each input read once, each output written once; a 5 x 5 mask (a call counts its own).
  return stencil_family_traits("convolution", element, 2.0 * static_cast<double>(size_of(element)), 50,
                               2 * size_of(element), convolution_tunables());
}

const TuningSpace& convolution_tunables() {
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256}),
                                  knobs::use_local_memory(),
                                  {"OUTPUTS_X", {1, 2, 4, 8}, std::nullopt, "outputs of a row per work-item"},
                                  {"OUTPUTS_Y", {1, 2, 4}, std::nullopt, "output rows per work-item (cache-reliant)"}},
                                 nullptr};
  return space;
}

std::pair<std::size_t, std::size_t> convolution_output_size(std::size_t rows, std::size_t cols, std::size_t mask_rows,
                                                            std::size_t mask_cols, Boundary boundary) {
  if (boundary != Boundary::valid) return {rows, cols};
  if (mask_rows > rows || mask_cols > cols)
    throw Error("convolution: a " + std::to_string(mask_rows) + " x " + std::to_string(mask_cols) +
                " mask does not fit a " + std::to_string(rows) + " x " + std::to_string(cols) +
                " input in valid mode (no output cell has its whole window inside)");
  return {rows - mask_rows + 1, cols - mask_cols + 1};
}

template <class T>
StencilLaunch plan_convolution(const Planner& planner, std::size_t rows, std::size_t cols, std::size_t mask_rows,
                               std::size_t mask_cols, const ConvolutionOptions& o) {
  const auto [out_rows, out_cols] = convolution_output_size(rows, cols, mask_rows, mask_cols, o.boundary);
  KernelTraits traits = convolution_traits(element_of<T>::value);
  traits.flops_per_item = 2.0 * double(mask_rows * mask_cols);
  // A single row plans in 1D (a 2D plan would give it idle rows of work-items).
  if (out_rows == 1) traits.dimensions = 1;
  StencilLaunch l;
  LaunchPlan& plan = l.plan;
  plan = planner.plan(traits, out_rows == 1 ? ProblemSize(std::max<std::size_t>(out_cols, 1))
                                            : ProblemSize(std::max<std::size_t>(out_cols, 1), out_rows));
  if (out_rows * out_cols == 0) return l;
  const bool valid = o.boundary == Boundary::valid;
  convolution_window(plan, mask_rows, mask_cols, valid, o.boundary == Boundary::clamp, to_string(o.boundary));
  mask_in_constant_memory(plan, planner.device, mask_rows * mask_cols * sizeof(T), o.constant_mask, "MASK_SPACE");

  const std::uint64_t bytes = (std::uint64_t(rows) * cols + std::uint64_t(out_rows) * out_cols) * sizeof(T);
  bool tiled = stencil_uses_tile(plan, planner.device, bytes, o.local_tile);
  // Rule cpu.large-grain: on CPUs a work-item streams chunks of whole rows,
  // unless the caller forced a variant or a count of outputs.
  const bool by_rows = stencil_walks_rows(plan, tiled) && !o.local_tile && !o.outputs_per_work_item;
  const std::size_t outputs =
      o.outputs_per_work_item ? caller_tuned_or_rule(plan, "outputs_per_work_item", o.outputs_per_work_item,
                                                     convolution_tunables(), "OUTPUTS_X", std::nullopt)
      : by_rows               ? 1
                : convolution_outputs_per_work_item(plan, sizeof(T), convolution_tunables().chosen(plan, "OUTPUTS_X"));
  // Output rows per work-item: the caller's, a tuned value, or rule
  // convolution.outputs-per-work-item (the cache-reliant variant only).
  std::size_t output_rows = 1;
  if (!by_rows && !tiled && out_rows > 1) {
    if (o.output_rows_per_work_item) {
      output_rows = caller_tuned_or_rule(plan, "output_rows_per_work_item", o.output_rows_per_work_item,
                                         convolution_tunables(), "OUTPUTS_Y", std::nullopt);
    } else {
      output_rows =
          convolution_output_rows_per_work_item(plan, mask_rows, convolution_tunables().chosen(plan, "OUTPUTS_Y"));
    }
  }
  if (tiled) {
    const std::size_t tile = (plan.local[1] + mask_rows - 1) * (plan.local[0] * outputs + mask_cols - 1) * sizeof(T);
    tiled = convolution_tile_fits(plan, planner.device, tile);
  }
  convolution_launch(plan, cols, out_rows, out_cols, outputs, output_rows, tiled, by_rows);

  if (by_rows) {
    const std::size_t chunk = kConvolutionRowChunk;
    l.plan = whole_rows_plan(planner, plan, "convolution_rows", out_rows * ceil_div(out_cols, chunk),
                             "chunks of " + std::to_string(chunk) + " outputs of a row per work-item");
    convolution_rows_chunk(l.plan);
    l.entry = "conv_rows";
  } else {
    l.entry = tiled ? "conv_tiled" : "conv_cached";
  }
  return l;
}

template StencilLaunch plan_convolution<float>(const Planner&, std::size_t, std::size_t, std::size_t, std::size_t,
                                               const ConvolutionOptions&);
template StencilLaunch plan_convolution<double>(const Planner&, std::size_t, std::size_t, std::size_t, std::size_t,
                                                const ConvolutionOptions&);

template <class T>
Decision plan_convolution_algorithm(const Planner& planner, std::size_t rows, std::size_t cols, std::size_t mask_rows,
                                    std::size_t mask_cols, const ConvolutionOptions& o) {
  const auto [out_rows, out_cols] = convolution_output_size(rows, cols, mask_rows, mask_cols, o.boundary);
  const ConvolutionFftGrid grid = convolution_fft_grid(rows, cols, mask_rows, mask_cols, o.boundary);
  LaunchPlan probe =
      planner.plan(convolution_fft_traits(element_of<T>::value), ProblemSize(std::max<std::size_t>(rows * cols, 1)));
  convolution_uses_fft(probe, mask_rows * mask_cols, out_rows * out_cols, grid.rows, grid.cols, o.fft);
  return *probe.decision("algorithm");
}

template Decision plan_convolution_algorithm<float>(const Planner&, std::size_t, std::size_t, std::size_t, std::size_t,
                                                    const ConvolutionOptions&);
template Decision plan_convolution_algorithm<double>(const Planner&, std::size_t, std::size_t, std::size_t, std::size_t,
                                                     const ConvolutionOptions&);

namespace {

// One pass of an MR x MC mask over in (rows x cols) into out.
template <class T>
LaunchPlan one_pass(Context& ctx, const Buffer<T>& in, std::size_t rows, std::size_t cols,
                    const ConvolutionMask<T>& mask, Buffer<T>& out, const ConvolutionOptions& o) {
  const auto [out_rows, out_cols] = convolution_output_size(rows, cols, mask.rows(), mask.cols(), o.boundary);
  const StencilLaunch l = plan_convolution<T>(live_planner(ctx, o.plan), rows, cols, mask.rows(), mask.cols(), o);
  if (l.entry.empty()) return l.plan;
  const PreparedKernel k = ctx.prepare(KernelRef{"stencil_convolution.cl", l.entry, ""}, l.plan);
  kernel_call::launch(ctx, k, static_cast<cl_ulong>(rows), static_cast<cl_ulong>(cols), static_cast<cl_ulong>(out_rows),
                      static_cast<cl_ulong>(out_cols), in, mask.buffer(), out);
  return k.plan;
}

template <class T>
void check_call(Context& ctx, const Buffer<T>& in, std::size_t rows, std::size_t cols, const ConvolutionMask<T>& mask,
                const Buffer<T>& out, const ConvolutionOptions& o) {
  kernel_call::same_context(ctx, in, "convolution", "in");
  kernel_call::same_context(ctx, out, "convolution", "out");
  if (&mask.context() != &ctx) throw Error("convolution: the mask belongs to another context");
  const std::size_t cells = checked_product(rows, cols, "convolution: rows x cols");
  if (in.size() != cells)
    throw Error("convolution: in has " + std::to_string(in.size()) + " elements but the input is " +
                std::to_string(rows) + " x " + std::to_string(cols) + " = " + std::to_string(cells));
  const auto [out_rows, out_cols] = convolution_output_size(rows, cols, mask.rows(), mask.cols(), o.boundary);
  if (out.size() != out_rows * out_cols)
    throw Error("convolution: out has " + std::to_string(out.size()) + " elements but the " + to_string(o.boundary) +
                " output is " + std::to_string(out_rows) + " x " + std::to_string(out_cols));
  aliasing::refuse_overlap("convolution", aliasing::whole(out), "out", aliasing::whole(in), "in",
                           "every output reads its neighbours' inputs");
  if (o.output_rows_per_work_item && (*o.output_rows_per_work_item < 1 || *o.output_rows_per_work_item > 8))
    throw Error("convolution: output_rows_per_work_item must be 1 to 8, not " +
                std::to_string(*o.output_rows_per_work_item));
  if (o.outputs_per_work_item && (*o.outputs_per_work_item < 1 || *o.outputs_per_work_item > 16))
    throw Error("convolution: outputs_per_work_item must be 1 to 16, not " + std::to_string(*o.outputs_per_work_item));
}

}  // namespace

template <class T, class>
LaunchPlan convolve2d(Context& ctx, const Buffer<T>& in, std::size_t rows, std::size_t cols,
                      const ConvolutionMask<T>& mask, Buffer<T>& out, const ConvolutionOptions& o) {
  check_call(ctx, in, rows, cols, mask, out, o);
  if (mask.separable() && o.use_separable && rows > 0 && cols > 0 && !o.fft.value_or(false)) {
    LaunchPlan probe = ctx.plan(convolution_traits(element_of<T>::value), ProblemSize(cols, rows), o.plan);
    if (convolution_uses_two_passes(probe, mask.rows(), mask.cols())) {
      // The vertical pass, then the horizontal one; the anchors split the
      // same way, so both boundaries compose exactly.
      const auto [mid_rows, mid_cols] = convolution_output_size(rows, cols, mask.rows(), 1, o.boundary);
      Buffer<T> mid(ctx, mid_rows * mid_cols);
      one_pass(ctx, in, rows, cols, *mask.column_factor(), mid, o);
      LaunchPlan plan = one_pass(ctx, mid, mid_rows, mid_cols, *mask.row_factor(), out, o);
      const Decision* passes = probe.decision("passes");
      plan.decide("passes", passes->value, passes->rule, passes->why);
      return plan;
    }
  }
  const auto [out_rows, out_cols] = convolution_output_size(rows, cols, mask.rows(), mask.cols(), o.boundary);
  if (out_rows * out_cols == 0) return one_pass(ctx, in, rows, cols, mask, out, o);
  const Decision algorithm =
      plan_convolution_algorithm<T>(live_planner(ctx, o.plan), rows, cols, mask.rows(), mask.cols(), o);
  if (algorithm.value == "fft") return convolve_by_fft(ctx, in, rows, cols, mask, out, o, algorithm);
  LaunchPlan plan = one_pass(ctx, in, rows, cols, mask, out, o);
  plan.decide(algorithm.what, algorithm.value, algorithm.rule, algorithm.why);
  return plan;
}

template <class T, class>
LaunchPlan convolve1d(Context& ctx, const Buffer<T>& in, std::size_t n, const ConvolutionMask<T>& mask, Buffer<T>& out,
                      const ConvolutionOptions& o) {
  if (mask.rows() != 1)
    throw Error("convolve1d: the mask has " + std::to_string(mask.rows()) + " rows; a 1D mask has one");
  return convolve2d(ctx, in, 1, n, mask, out, o);
}

#define PORTACL_CONVOLUTION(T)                                                                                       \
  template LaunchPlan convolve2d<T>(Context&, const Buffer<T>&, std::size_t, std::size_t, const ConvolutionMask<T>&, \
                                    Buffer<T>&, const ConvolutionOptions&);                                          \
  template LaunchPlan convolve1d<T>(Context&, const Buffer<T>&, std::size_t, const ConvolutionMask<T>&, Buffer<T>&,  \
                                    const ConvolutionOptions&);
PORTACL_CONVOLUTION(float)
PORTACL_CONVOLUTION(double)

}  // namespace portacl
