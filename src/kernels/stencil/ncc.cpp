// SPDX-License-Identifier: Apache-2.0
#include "portacl/stencil.hpp"

#include <cmath>
#include <type_traits>

#include "portacl/error.hpp"
#include "portacl/vectors.hpp"
#include "rules/stencil_rules.hpp"
#include "../kernel_call.hpp"
#include "stencil_traits.hpp"
#include "kernels/stencil/tunables.hpp"
#include "plans.hpp"

namespace portacl {

using kernel_call::ceil_div;

KernelTraits ncc_traits(ElementType pixel) {
  // A pixel read, a coefficient written; a 16 x 16 template (a call counts its own).
  return stencil_family_traits("ncc", pixel, static_cast<double>(size_of(pixel)) + 4, 6.0 * 16 * 16, 4 * size_of(pixel),
                               ncc_tunables());
}

const TuningSpace& ncc_tunables() {
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256}),
                                  knobs::use_local_memory(),
                                  {"OUTPUTS_X", {1, 2, 4, 8}, std::nullopt, "offsets of a row per work-item"}},
                                 nullptr};
  return space;
}

std::pair<std::size_t, std::size_t> ncc_map_size(std::size_t rows, std::size_t cols, std::size_t template_rows,
                                                 std::size_t template_cols) {
  if (template_rows == 0 || template_cols == 0)
    throw Error("ncc: the template is " + std::to_string(template_rows) + " x " + std::to_string(template_cols) +
                ", empty");
  if (template_rows > rows || template_cols > cols)
    throw Error("ncc: a " + std::to_string(template_rows) + " x " + std::to_string(template_cols) +
                " template does not fit a " + std::to_string(rows) + " x " + std::to_string(cols) + " image");
  return {rows - template_rows + 1, cols - template_cols + 1};
}

namespace {

// The template's share of the coefficient, and what goes to constant
// memory: 8-bit templates as they are, with S_T and n S_TT - S_T^2 exact;
// float templates less their mean, with 0 and sum T'^2.
struct TemplateSums {
  std::uint64_t sum = 0, variance = 0;  // 8-bit
  double centred_squares = 0;           // float
};

TemplateSums template_sums(std::vector<std::uint8_t>& t) {
  TemplateSums s;
  std::uint64_t squares = 0;
  for (std::uint8_t v : t) {
    s.sum += v;
    squares += std::uint64_t(v) * v;
  }
  s.variance = std::uint64_t(t.size()) * squares - s.sum * s.sum;
  return s;
}

template <class P>
TemplateSums template_sums(std::vector<P>& t) {
  double mean = 0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (!std::isfinite(t[k])) throw Error("ncc: template pixel " + std::to_string(k) + " is not a finite number");
    mean += t[k];
  }
  mean /= double(t.size());
  TemplateSums s;
  for (P& v : t) {
    v = static_cast<P>(double(v) - mean);
    s.centred_squares += double(v) * double(v);
  }
  return s;
}

}  // namespace

template <class P>
StencilLaunch plan_ncc(const Planner& planner, std::size_t rows, std::size_t cols, std::size_t template_rows,
                       std::size_t template_cols, const NccOptions& o) {
  const ElementType pixel = std::is_same<P, std::uint8_t>::value ? ElementType::i8
                            : std::is_same<P, double>::value     ? ElementType::f64
                                                                 : ElementType::f32;
  const auto [map_rows, map_cols] = ncc_map_size(rows, cols, template_rows, template_cols);
  const std::size_t n = template_rows * template_cols;
  KernelTraits traits = ncc_traits(pixel);
  traits.flops_per_item = 6.0 * double(n);
  StencilLaunch l;
  LaunchPlan& plan = l.plan;
  plan = planner.plan(traits, ProblemSize(map_cols, map_rows));
  const bool fp64 = planner.device.fp64;
  if (pixel == ElementType::f64 && !fp64)
    throw Error("ncc: double images need a device with fp64; " + planner.device.name + " has none");
  ncc_build(plan, pixel, fp64, template_rows, template_cols);
  // Rule convolution.mask-in-constant: the template in constant memory
  // where it fits.
  mask_in_constant_memory(plan, planner.device, n * sizeof(P), o.constant_template, "TEMPLATE_SPACE");

  // Rule ncc.outputs-per-work-item: 4 offsets of a row per work-item (one
  // when the row has fewer).
  const std::size_t outputs =
      ncc_outputs_within_row(plan,
                             caller_tuned_or_rule(plan, "outputs_per_work_item", o.outputs_per_work_item,
                                                  ncc_tunables(), "OUTPUTS_X", ncc_outputs_per_work_item()),
                             map_cols);
  // Rule ncc.image-tile: the image block in local memory where the plan
  // takes local memory and the block fits.
  const std::size_t tile =
      (plan.local[1] + template_rows - 1) * (plan.local[0] * outputs + template_cols - 1) * sizeof(P);
  const bool tiled = ncc_uses_tile(plan, planner.device, tile, o.local_tile);
  ncc_launch(plan, map_rows, map_cols, outputs, tiled);
  l.entry = tiled ? "ncc_tiled" : "ncc_cached";
  return l;
}

template StencilLaunch plan_ncc<std::uint8_t>(const Planner&, std::size_t, std::size_t, std::size_t, std::size_t,
                                              const NccOptions&);
template StencilLaunch plan_ncc<float>(const Planner&, std::size_t, std::size_t, std::size_t, std::size_t,
                                       const NccOptions&);
template StencilLaunch plan_ncc<double>(const Planner&, std::size_t, std::size_t, std::size_t, std::size_t,
                                        const NccOptions&);

template <class P>
NccTemplate<P>::NccTemplate(Context& ctx, std::vector<P> pixels, std::size_t rows, std::size_t cols)
    : rows_(rows), cols_(cols), buffer_(ctx, prepared(std::move(pixels))) {}

// Checks the pixels, forms the sums, centres float pixels: what is uploaded.
template <class P>
std::vector<P> NccTemplate<P>::prepared(std::vector<P> pixels) {
  if (rows_ == 0 || cols_ == 0)
    throw Error("ncc: the template is " + std::to_string(rows_) + " x " + std::to_string(cols_) + ", empty");
  if (pixels.size() != rows_ * cols_)
    throw Error("ncc: " + std::to_string(pixels.size()) + " template pixels for a " + std::to_string(rows_) + " x " +
                std::to_string(cols_) + " template");
  const TemplateSums s = template_sums(pixels);
  sum_ = s.sum;
  variance_ = s.variance;
  centred_squares_ = s.centred_squares;
  return pixels;
}

template <class P, class>
LaunchPlan ncc(Context& ctx, const Buffer<P>& image, std::size_t rows, std::size_t cols, const std::vector<P>& templ,
               std::size_t template_rows, std::size_t template_cols, Buffer<float>& map, const NccOptions& o) {
  return ncc(ctx, image, rows, cols, NccTemplate<P>(ctx, templ, template_rows, template_cols), map, o);
}

template <class P, class>
LaunchPlan ncc(Context& ctx, const Buffer<P>& image, std::size_t rows, std::size_t cols, const NccTemplate<P>& templ,
               Buffer<float>& map, const NccOptions& o) {
  constexpr bool exact = std::is_same<P, std::uint8_t>::value;
  kernel_call::same_context(ctx, image, "ncc", "image");
  kernel_call::same_context(ctx, templ.buffer(), "ncc", "template");
  kernel_call::same_context(ctx, map, "ncc", "map");
  aliasing::refuse_overlap("ncc", aliasing::whole(map), "map", aliasing::whole(image), "image",
                           "every score reads a window of the image");
  const std::size_t pixels = checked_product(rows, cols, "ncc: rows x cols");
  if (image.size() != pixels)
    throw Error("ncc: the image buffer has " + std::to_string(image.size()) + " pixels but the image is " +
                std::to_string(rows) + " x " + std::to_string(cols) + " = " + std::to_string(pixels));
  const std::size_t template_rows = templ.rows(), template_cols = templ.cols();
  const auto [map_rows, map_cols] = ncc_map_size(rows, cols, template_rows, template_cols);
  if (map.size() != map_rows * map_cols)
    throw Error("ncc: map has " + std::to_string(map.size()) + " elements but the map is " + std::to_string(map_rows) +
                " x " + std::to_string(map_cols));
  if (o.outputs_per_work_item && (*o.outputs_per_work_item < 1 || *o.outputs_per_work_item > 16))
    throw Error("ncc: outputs_per_work_item must be 1 to 16, not " + std::to_string(*o.outputs_per_work_item));
  const StencilLaunch l = plan_ncc<P>(live_planner(ctx, o.plan), rows, cols, template_rows, template_cols, o);
  const LaunchPlan& plan = l.plan;
  const bool fp64 = plan.macros.at("REAL") == "double";
  const bool tiled = l.entry == "ncc_tiled";
  const PreparedKernel k = ctx.prepare(KernelRef{"stencil_ncc.cl", l.entry, ""}, plan);
  unsigned arg = 0;
  if (tiled) kernel_call::set(k, arg++, static_cast<cl_ulong>(rows));
  kernel_call::set(k, arg++, static_cast<cl_ulong>(cols));
  kernel_call::set(k, arg++, static_cast<cl_ulong>(map_rows));
  kernel_call::set(k, arg++, static_cast<cl_ulong>(map_cols));
  kernel_call::set(k, arg++, image);
  kernel_call::set(k, arg++, templ.buffer());
  if (exact) {
    kernel_call::set(k, arg++, static_cast<cl_ulong>(templ.sum()));
    kernel_call::set(k, arg++, static_cast<cl_ulong>(templ.variance()));
  } else if (fp64) {
    kernel_call::set(k, arg++, 0.0);
    kernel_call::set(k, arg++, templ.centred_squares());
  } else {
    kernel_call::set(k, arg++, 0.0f);
    kernel_call::set(k, arg++, static_cast<float>(templ.centred_squares()));
  }
  kernel_call::set(k, arg++, map);
  ctx.launch(k);
  return k.plan;
}

NccMatch ncc_best_match(Context& ctx, const Buffer<float>& map, std::size_t map_rows, std::size_t map_cols) {
  if (map.size() != map_rows * map_cols || map.size() == 0)
    throw Error("ncc_best_match: map has " + std::to_string(map.size()) + " elements, not " + std::to_string(map_rows) +
                " x " + std::to_string(map_cols) + " (and at least one)");
  const Extremum<float> best = argmax(ctx, map);
  return {best.index / map_cols, best.index % map_cols, best.value};
}

template LaunchPlan ncc<std::uint8_t>(Context&, const Buffer<std::uint8_t>&, std::size_t, std::size_t,
                                      const std::vector<std::uint8_t>&, std::size_t, std::size_t, Buffer<float>&,
                                      const NccOptions&);
template LaunchPlan ncc<float>(Context&, const Buffer<float>&, std::size_t, std::size_t, const std::vector<float>&,
                               std::size_t, std::size_t, Buffer<float>&, const NccOptions&);
template LaunchPlan ncc<double>(Context&, const Buffer<double>&, std::size_t, std::size_t, const std::vector<double>&,
                                std::size_t, std::size_t, Buffer<float>&, const NccOptions&);
template class NccTemplate<std::uint8_t>;
template class NccTemplate<float>;
template class NccTemplate<double>;
template LaunchPlan ncc<std::uint8_t>(Context&, const Buffer<std::uint8_t>&, std::size_t, std::size_t,
                                      const NccTemplate<std::uint8_t>&, Buffer<float>&, const NccOptions&);
template LaunchPlan ncc<float>(Context&, const Buffer<float>&, std::size_t, std::size_t, const NccTemplate<float>&,
                               Buffer<float>&, const NccOptions&);
template LaunchPlan ncc<double>(Context&, const Buffer<double>&, std::size_t, std::size_t, const NccTemplate<double>&,
                                Buffer<float>&, const NccOptions&);

}  // namespace portacl
