// SPDX-License-Identifier: Apache-2.0
// Convolution layers (kernels/ml_conv_layer.cl, ml_conv_winograd.cl): validate,
// plan (rules/conv_rules), then either the direct kernel, or per chunk of
// images and per group the taps unrolled, portacl's GEMM and an epilogue
// into the output's layout, or Winograd's transforms around 16 GEMMs, or
// the FFT (conv_layer_fft.cpp).
#include <algorithm>
#include <map>
#include <utility>
#include <vector>
#include <string>

#include "kernels/aliasing.hpp"
#include "kernels/kernel_call.hpp"
#include "kernels/ml/layer_kernels.hpp"
#include "kernels/ml/tensor_strides.hpp"
#include "kernels/ml/conv_layer_fft.hpp"
#include "kernels/ml/conv_layer_tunables.hpp"
#include "portacl/error.hpp"
#include "portacl/blas.hpp"
#include "kernels/kernel_traits.hpp"

namespace portacl {

std::size_t ConvLayerShape::out_height() const {
  const std::size_t extent = dilation_h * (filter_height - 1) + 1, padded = height + 2 * pad_h;
  return padded < extent || stride_h == 0 ? 0 : (padded - extent) / stride_h + 1;
}
std::size_t ConvLayerShape::out_width() const {
  const std::size_t extent = dilation_w * (filter_width - 1) + 1, padded = width + 2 * pad_w;
  return padded < extent || stride_w == 0 ? 0 : (padded - extent) / stride_w + 1;
}

constexpr std::size_t kMaxConvExtent = 0xffffffffull;  // strides and counts are 32-bit in the kernels

bool winograd_fits(const ConvLayerShape& s) {
  return s.filter_height == 3 && s.filter_width == 3 && s.stride_h == 1 && s.stride_w == 1 && s.dilation_h == 1 &&
         s.dilation_w == 1;
}
std::size_t winograd_tile_rows(const ConvLayerShape& s) { return (s.out_height() + 1) / 2; }
std::size_t winograd_tile_columns(const ConvLayerShape& s) { return (s.out_width() + 1) / 2; }

KernelTraits conv_layer_traits() {
  return kernel_traits("conv_layer", ElementType::f32, 1, traits::scalar, {4, 0}, &conv_layer_tunables());
}

const TuningSpace& conv_layer_tunables() {
  static const TuningSpace space{{knobs::work_group_size({64, 128, 256}),
                                  {"ALGORITHM",
                                   {0, 1, 2, 3},
                                   std::nullopt,
                                   "direct, the taps unrolled and multiplied by the GEMM, Winograd F(2x2, 3x3), or "
                                   "the FFT",
                                   {"direct", "im2col", "winograd", "fft"}},
                                  {"IB", {1, 2, 4}, std::nullopt, "images a work-item (direct)"},
                                  {"FB", {1, 2, 4, 8}, std::nullopt, "filters a work-item (direct)"}},
                                 nullptr};
  return space;
}

ConvLaunch plan_conv_layer(const Planner& planner, const ConvLayerShape& shape, const ConvLayerOptions& options,
                           bool has_bias) {
  ConvLaunch l;
  const std::size_t positions = shape.out_height() * shape.out_width();
  const std::size_t cg = shape.channels / shape.groups, fg = shape.filters / shape.groups;
  l.plan = planner.plan(conv_layer_traits(),
                        ProblemSize(std::max<std::size_t>(shape.images * shape.filters * positions, 1)));
  conv_layer_build(l.plan,
                   {{"R", shape.filter_height},
                    {"S", shape.filter_width},
                    {"CG", cg},
                    {"FG", fg},
                    {"GROUPS", shape.groups},
                    {"SH", shape.stride_h},
                    {"SW", shape.stride_w},
                    {"PH", shape.pad_h},
                    {"PW", shape.pad_w},
                    {"DH", shape.dilation_h},
                    {"DW", shape.dilation_w}},
                   has_bias, options.relu);
  ConvGeometry g;
  g.images = shape.images;
  g.taps = cg * shape.filter_height * shape.filter_width;
  g.filters_per_group = fg;
  g.positions = positions;
  g.channels_per_group = cg;
  g.winograd_tiles = winograd_fits(shape) ? winograd_tile_rows(shape) * winograd_tile_columns(shape) : 0;
  g.channels = shape.channels;
  g.filters = shape.filters;
  g.fft_rows = conv_fft_extent(shape.height, shape.pad_h, shape.dilation_h * (shape.filter_height - 1) + 1);
  g.fft_cols = conv_fft_extent(shape.width, shape.pad_w, shape.dilation_w * (shape.filter_width - 1) + 1);
  g.filter_positions = shape.filter_height * shape.filter_width;
  const ConvMethod asked = options.algorithm == ConvAlgorithm::direct        ? ConvMethod::direct
                           : options.algorithm == ConvAlgorithm::im2col_gemm ? ConvMethod::im2col
                           : options.algorithm == ConvAlgorithm::fft         ? ConvMethod::fft
                                                                             : ConvMethod::winograd;
  l.choice =
      choose_conv(l.plan, conv_layer_tunables(), g, options.algorithm == ConvAlgorithm::automatic ? nullptr : &asked);
  return l;
}

void check_conv_shape(const char* op, const ConvLayerShape& s) {
  const std::string o(op);
  if (s.images == 0 || s.channels == 0 || s.height == 0 || s.width == 0 || s.filters == 0 || s.filter_height == 0 ||
      s.filter_width == 0)
    throw Error(o + ": a size is 0 (images " + std::to_string(s.images) + ", channels " + std::to_string(s.channels) +
                ", " + std::to_string(s.height) + " x " + std::to_string(s.width) + ", filters " +
                std::to_string(s.filters) + " of " + std::to_string(s.filter_height) + " x " +
                std::to_string(s.filter_width) + ")");
  if (s.stride_h == 0 || s.stride_w == 0 || s.dilation_h == 0 || s.dilation_w == 0)
    throw Error(o + ": strides and dilations must be at least 1");
  if (s.groups == 0 || s.channels % s.groups || s.filters % s.groups)
    throw Error(o + ": groups " + std::to_string(s.groups) + " must divide the channels (" +
                std::to_string(s.channels) + ") and the filters (" + std::to_string(s.filters) + ")");
  if (s.out_height() == 0 || s.out_width() == 0)
    throw Error(o + ": the filter (" + std::to_string(s.filter_height) + " x " + std::to_string(s.filter_width) +
                ", dilation " + std::to_string(s.dilation_h) + " x " + std::to_string(s.dilation_w) +
                ") is larger than the padded image (" + std::to_string(s.height + 2 * s.pad_h) + " x " +
                std::to_string(s.width + 2 * s.pad_w) + ")");
  const std::size_t image = checked_product(checked_product(s.channels, s.height, o), s.width, o);
  const std::size_t out_image = checked_product(checked_product(s.filters, s.out_height(), o), s.out_width(), o);
  checked_product(s.channels / s.groups, s.filter_height * s.filter_width, o);
  if (image > kMaxConvExtent || out_image > kMaxConvExtent || s.images > kMaxConvExtent)
    throw Error(o + ": an image of C x H x W or F x P x Q past 2^32 - 1 floats");
}

TensorLayout preferred_tensor_layout(Context& ctx) {
  return prefers_channels_first(classify(ctx.info()).device_class) ? TensorLayout::nchw : TensorLayout::nhwc;
}

namespace {

constexpr std::size_t kMaxExtent = 0xffffffffull;  // strides and counts are 32-bit in the kernels

KernelRef kernel(const char* entry) { return KernelRef{"ml_conv_layer.cl", entry, ""}; }
KernelRef winograd(const char* entry) { return KernelRef{"ml_conv_winograd.cl", entry, ""}; }

void check_layer(const char* op, Context& ctx, const ConvLayerShape& s, const Buffer<float>& input,
                 const Buffer<float>& filters, const Buffer<float>* bias, const Buffer<float>& output,
                 const char* output_name = "output", bool output_written = true) {
  kernel_call::same_context(ctx, input, op, "input");
  kernel_call::same_context(ctx, filters, op, "filters");
  kernel_call::same_context(ctx, output, op, output_name);
  if (bias) kernel_call::same_context(ctx, *bias, op, "bias");
  check_conv_shape(op, s);
  const std::string o(op);
  const std::size_t image = s.channels * s.height * s.width, out_image = s.filters * s.out_height() * s.out_width();
  const std::size_t taps = s.channels / s.groups * s.filter_height * s.filter_width;
  kernel_call::need_elements(op, "input", input.size(), checked_product(s.images, image, o),
                             std::to_string(s.images) + " images of " + std::to_string(image));
  kernel_call::need_elements(op, "filters", filters.size(), checked_product(s.filters, taps, o),
                             std::to_string(s.filters) + " filters of " + std::to_string(taps));
  if (bias) kernel_call::need_elements(op, "bias", bias->size(), s.filters, "a value a filter");
  kernel_call::need_elements(op, output_name, output.size(), checked_product(s.images, out_image, o),
                             std::to_string(s.images) + " outputs of " + std::to_string(out_image));
  if (!output_written) return;  // backward reads its output's gradient
  aliasing::refuse_overlap(op, aliasing::whole(output), "output", aliasing::whole(input), "input",
                           "the output is written while the input is read");
  aliasing::refuse_overlap(op, aliasing::whole(output), "output", aliasing::whole(filters), "filters",
                           "the output is written while the filters are read");
  if (bias)
    aliasing::refuse_overlap(op, aliasing::whole(output), "output", aliasing::whole(*bias), "bias",
                             "the output is written while the bias is read");
}

void run_direct(Context& ctx, const ConvLaunch& l, const ConvLayerShape& s, const TensorStrides& in,
                const TensorStrides& out, const Buffer<float>& input, const Buffer<float>& filters,
                const BufferStorage& bias, Buffer<float>& output) {
  const std::size_t fg = s.filters / s.groups;
  const std::size_t blocks = (fg + l.choice.filters - 1) / l.choice.filters * s.groups;
  const std::size_t items =
      s.out_height() * s.out_width() * blocks * ((s.images + l.choice.images - 1) / l.choice.images);
  kernel_call::launch(ctx, ctx.prepare(kernel("conv_direct"), one_per_item(l.plan, items)),
                      static_cast<cl_uint>(s.images), static_cast<cl_uint>(s.height), static_cast<cl_uint>(s.width),
                      static_cast<cl_uint>(s.out_height()), static_cast<cl_uint>(s.out_width()), in.n, in.c, in.y, in.x,
                      out.n, out.c, out.y, out.x, input, filters, bias, output);
}

void run_im2col(Context& ctx, const ConvLaunch& l, const ConvLayerShape& s, const TensorStrides& in,
                const TensorStrides& out, const Buffer<float>& input, const Buffer<float>& filters,
                const BufferStorage& bias, Buffer<float>& output, const PlanOptions& plan) {
  const std::size_t positions = s.out_height() * s.out_width(), fg = s.filters / s.groups;
  const std::size_t taps = s.channels / s.groups * s.filter_height * s.filter_width, chunk = l.choice.chunk;
  Buffer<float> cols(ctx, ctx.scratch("conv.cols", chunk * positions * taps * sizeof(float)), chunk * positions * taps);
  Buffer<float> product(ctx, ctx.scratch("conv.product", chunk * positions * fg * sizeof(float)),
                        chunk * positions * fg);
  GemmOptions gemm_options(plan);
  gemm_options.plan.override_values.reset();  // the layer's knobs are not the GEMM's
  const auto u = [](std::size_t v) { return static_cast<cl_uint>(v); };
  for (std::size_t first = 0; first < s.images; first += chunk) {
    const std::size_t count = std::min(chunk, s.images - first), rows = count * positions;
    for (std::size_t g = 0; g < s.groups; ++g) {
      kernel_call::launch(ctx, ctx.prepare(kernel("conv_im2col"), one_per_item(l.plan, rows * taps)), u(first),
                          u(count), u(g), u(s.height), u(s.width), u(s.out_height()), u(s.out_width()), in.n, in.c,
                          in.y, in.x, input, cols);
      gemm<float>(ctx, Layout::row_major, Transpose::no, Transpose::yes, rows, fg, taps, 1.0f,
                  MatrixRef<float>{cols, 0, taps}, MatrixRef<float>{filters, g * fg * taps, taps}, 0.0f, product, 0, fg,
                  gemm_options);
      kernel_call::launch(ctx, ctx.prepare(kernel("conv_epilogue"), one_per_item(l.plan, rows * fg)), u(first),
                          u(count), u(g), u(s.out_height()), u(s.out_width()), out.n, out.c, out.y, out.x, product,
                          bias, output);
    }
  }
}

// The filters transformed once, then per chunk of images and group: the
// tiles transformed, the 16 products M_p = U_p V_p (FG x CG by CG x tiles)
// as one strided batch, and the products transformed back into the output.
void run_winograd(Context& ctx, const ConvLaunch& l, const ConvLayerShape& s, const TensorStrides& in,
                  const TensorStrides& out, const Buffer<float>& input, const Buffer<float>& filters,
                  const BufferStorage& bias, Buffer<float>& output, const PlanOptions& plan) {
  constexpr std::size_t points = 16;
  const std::size_t cg = s.channels / s.groups, fg = s.filters / s.groups, chunk = l.choice.chunk;
  const std::size_t th = winograd_tile_rows(s), tw = winograd_tile_columns(s), most_tiles = chunk * th * tw;
  Buffer<float> u(ctx, ctx.scratch("conv.winograd.filters", points * s.filters * cg * sizeof(float)),
                  points * s.filters * cg);
  Buffer<float> v(ctx, ctx.scratch("conv.cols", points * cg * most_tiles * sizeof(float)), points * cg * most_tiles);
  Buffer<float> m(ctx, ctx.scratch("conv.product", points * fg * most_tiles * sizeof(float)), points * fg * most_tiles);
  const auto u32 = [](std::size_t x) { return static_cast<cl_uint>(x); };
  kernel_call::launch(ctx, ctx.prepare(winograd("winograd_filters"), one_per_item(l.plan, s.filters * cg)),
                      u32(s.filters), filters, u);
  GemmOptions gemm_options(plan);
  gemm_options.plan.override_values.reset();  // the layer's knobs are not the GEMM's
  for (std::size_t first = 0; first < s.images; first += chunk) {
    const std::size_t count = std::min(chunk, s.images - first), tiles = count * th * tw;
    for (std::size_t g = 0; g < s.groups; ++g) {
      kernel_call::launch(ctx, ctx.prepare(winograd("winograd_inputs"), one_per_item(l.plan, tiles * cg)), u32(first),
                          u32(count), u32(g), u32(s.height), u32(s.width), u32(th), u32(tw), in.n, in.c, in.y, in.x,
                          input, v);
      // The 16 products in one batch: one of them alone leaves a large GPU half idle.
      gemm_strided_batched<float>(ctx, Layout::row_major, Transpose::no, Transpose::no, fg, tiles, cg, 1.0f,
                                  MatrixRef<float>{u, g * points * fg * cg, cg}, fg * cg, MatrixRef<float>{v, 0, tiles},
                                  cg * tiles, 0.0f, m, 0, tiles, fg * tiles, points, gemm_options);
      kernel_call::launch(ctx, ctx.prepare(winograd("winograd_outputs"), one_per_item(l.plan, tiles * fg)), u32(first),
                          u32(count), u32(g), u32(s.out_height()), u32(s.out_width()), u32(th), u32(tw), out.n, out.c,
                          out.y, out.x, m, bias, output);
    }
  }
}

}  // namespace

LaunchPlan conv_layer_forward(Context& ctx, const ConvLayerShape& s, const Buffer<float>& input,
                              const Buffer<float>& filters, const Buffer<float>* bias, Buffer<float>& output,
                              const ConvLayerOptions& o) {
  check_layer("conv_layer_forward", ctx, s, input, filters, bias, output);
  if (o.algorithm == ConvAlgorithm::winograd && !winograd_fits(s))
    throw Error("conv_layer_forward: Winograd F(2x2, 3x3) needs a 3 x 3 filter of stride 1 and dilation 1, not " +
                std::to_string(s.filter_height) + " x " + std::to_string(s.filter_width) + " of stride " +
                std::to_string(s.stride_h) + " x " + std::to_string(s.stride_w) + " and dilation " +
                std::to_string(s.dilation_h) + " x " + std::to_string(s.dilation_w));
  const ConvLaunch l = plan_conv_layer(live_planner(ctx, o.plan), s, o, bias != nullptr);
  const TensorStrides in = tensor_strides(o.layout, s.channels, s.height, s.width);
  const TensorStrides out = tensor_strides(o.layout, s.filters, s.out_height(), s.out_width());
  const BufferStorage& bias_or_unused =
      bias ? static_cast<const BufferStorage&>(*bias) : filters;  // HAS_BIAS 0: unread
  auto held = ctx.hold_scratch();
  if (l.choice.method == ConvMethod::direct)
    run_direct(ctx, l, s, in, out, input, filters, bias_or_unused, output);
  else if (l.choice.method == ConvMethod::im2col)
    run_im2col(ctx, l, s, in, out, input, filters, bias_or_unused, output, o.plan);
  else if (l.choice.method == ConvMethod::fft)
    run_conv_fft(ctx, l, s, in, out, input, filters, bias_or_unused, output, o.plan);
  else
    run_winograd(ctx, l, s, in, out, input, filters, bias_or_unused, output, o.plan);
  return l.plan;
}

namespace {

void check_gradient(const char* op, Context& ctx, const Buffer<float>* g, const char* name, std::size_t need,
                    const std::vector<std::pair<const BufferStorage*, const char*>>& read) {
  if (!g) return;
  kernel_call::same_context(ctx, *g, op, name);
  kernel_call::need_elements(op, name, g->size(), need, std::string("the ") + name + " gradient");
  for (const auto& [other, other_name] : read)
    if (other)
      aliasing::refuse_overlap(op, aliasing::whole(*g), name, aliasing::whole(*other), other_name,
                               "a gradient is written while it is used");
}

}  // namespace

LaunchPlan conv_layer_backward(Context& ctx, const ConvLayerShape& s, const Buffer<float>& input,
                               const Buffer<float>& filters, const Buffer<float>* output,
                               const Buffer<float>& grad_output, const ConvLayerGradients& grads,
                               const ConvLayerOptions& o) {
  const char* op = "conv_layer_backward";
  check_layer(op, ctx, s, input, filters, nullptr, grad_output, "grad_output", false);
  const std::size_t positions = s.out_height() * s.out_width(), fg = s.filters / s.groups;
  const std::size_t taps = s.channels / s.groups * s.filter_height * s.filter_width;
  if (o.relu && !output)
    throw Error("conv_layer_backward: with relu, the forward output is needed to mask the gradient");
  if (output) {
    kernel_call::same_context(ctx, *output, op, "output");
    kernel_call::need_elements(op, "output", output->size(), s.images * s.filters * positions, "the forward output");
  }
  const std::vector<std::pair<const BufferStorage*, const char*>> read{
      {&input, "input"},  {&filters, "filters"},           {&grad_output, "grad_output"},
      {output, "output"}, {grads.input, "input gradient"}, {grads.filters, "filters gradient"}};
  check_gradient(op, ctx, grads.input, "input", s.images * s.channels * s.height * s.width,
                 {read.begin(), read.begin() + 4});
  check_gradient(op, ctx, grads.filters, "filters", s.filters * taps, {read.begin(), read.begin() + 5});
  check_gradient(op, ctx, grads.bias, "bias", s.filters, read);
  ConvLayerOptions unrolled = o;
  unrolled.algorithm = ConvAlgorithm::im2col_gemm;
  const Planner planner = live_planner(ctx, o.plan);
  ConvLaunch l = plan_conv_layer(planner, s, unrolled, false);  // its decisions gain the gradient's
  const TensorStrides in = tensor_strides(o.layout, s.channels, s.height, s.width);
  const TensorStrides out = tensor_strides(o.layout, s.filters, s.out_height(), s.out_width());
  const BufferStorage& forward_output =
      output ? static_cast<const BufferStorage&>(*output) : grad_output;  // RELU 0: unread
  const auto u = [](std::size_t v) { return static_cast<cl_uint>(v); };
  auto held = ctx.hold_scratch();
  // The bias's gradient, and the filters' where a reduction a weight
  // fills the device better than the GEMM's few output tiles.
  const bool reduce_filters =
      grads.filters && reduce_filter_gradient(l.plan, fg, taps, s.groups, planner.device.compute_units);
  if (grads.bias || reduce_filters) {
    // Its own plan (its work-groups share local memory), the layer's geometry compiled in.
    const std::size_t groups = reduce_filters ? s.filters * (taps + 1) : s.filters;
    PlanOptions reduction = o.plan;
    reduction.override_values.reset();  // the layer's knobs are not the reduction's
    LaunchPlan p = ctx.plan(conv_weight_grad_traits(), ProblemSize(groups), reduction);
    share_build(p, l.plan);
    grid_of_groups(p, groups);
    const BufferStorage& filters_out = reduce_filters ? static_cast<const BufferStorage&>(*grads.filters) : input;
    const BufferStorage& bias_out = grads.bias ? static_cast<const BufferStorage&>(*grads.bias) : input;  // unwritten
    kernel_call::launch(ctx, ctx.prepare(kernel("conv_weight_grad"), p), u(s.images), u(s.height), u(s.width),
                        u(s.out_height()), u(s.out_width()), in.n, in.c, in.y, in.x, out.n, out.c, out.y, out.x,
                        u(!reduce_filters), u(grads.bias != nullptr), grad_output, forward_output, input, filters_out,
                        bias_out, kernel_call::LocalBytes{p.local[0] * sizeof(float)});
  }
  const bool gemm_filters = grads.filters && !reduce_filters;
  if (!grads.input && !gemm_filters) return l.plan;
  const std::size_t chunk = l.choice.chunk;
  Buffer<float> cols(ctx, ctx.scratch("conv.cols", chunk * positions * taps * sizeof(float)), chunk * positions * taps);
  Buffer<float> product(ctx, ctx.scratch("conv.product", chunk * positions * fg * sizeof(float)),
                        chunk * positions * fg);
  GemmOptions gemm_options(o.plan);
  gemm_options.plan.override_values.reset();
  for (std::size_t first = 0; first < s.images; first += chunk) {
    const std::size_t count = std::min(chunk, s.images - first), rows = count * positions;
    for (std::size_t g = 0; g < s.groups; ++g) {
      kernel_call::launch(ctx, ctx.prepare(kernel("conv_gather_grad"), one_per_item(l.plan, rows * fg)), u(first),
                          u(count), u(g), u(s.out_height()), u(s.out_width()), out.n, out.c, out.y, out.x, grad_output,
                          forward_output, product);
      if (gemm_filters) {
        kernel_call::launch(ctx, ctx.prepare(kernel("conv_im2col"), one_per_item(l.plan, rows * taps)), u(first),
                            u(count), u(g), u(s.height), u(s.width), u(s.out_height()), u(s.out_width()), in.n, in.c,
                            in.y, in.x, input, cols);
        // dW_g += G^T cols: the first chunk overwrites, the later ones add.
        gemm<float>(ctx, Layout::row_major, Transpose::yes, Transpose::no, fg, taps, rows, 1.0f,
                    MatrixRef<float>{product, 0, fg}, MatrixRef<float>{cols, 0, taps}, first == 0 ? 0.0f : 1.0f,
                    *grads.filters, g * fg * taps, taps, gemm_options);
      }
      if (grads.input) {
        // The unrolled input's gradient G W_g, folded back onto the input.
        gemm<float>(ctx, Layout::row_major, Transpose::no, Transpose::no, rows, taps, fg, 1.0f,
                    MatrixRef<float>{product, 0, fg}, MatrixRef<float>{filters, g * fg * taps, taps}, 0.0f, cols, 0,
                    taps, gemm_options);
        const std::size_t elements = count * (s.channels / s.groups) * s.height * s.width;
        kernel_call::launch(ctx, ctx.prepare(kernel("conv_col2im"), one_per_item(l.plan, elements)), u(first), u(count),
                            u(g), u(s.height), u(s.width), u(s.out_height()), u(s.out_width()), in.n, in.c, in.y, in.x,
                            cols, *grads.input);
      }
    }
  }
  return l.plan;
}

LaunchPlan convert_tensor_layout(Context& ctx, std::size_t images, std::size_t channels, std::size_t height,
                                 std::size_t width, const Buffer<float>& in, TensorLayout from, Buffer<float>& out,
                                 TensorLayout to) {
  const char* op = "convert_tensor_layout";
  kernel_call::same_context(ctx, in, op, "in");
  kernel_call::same_context(ctx, out, op, "out");
  const std::size_t image = checked_product(checked_product(channels, height, op), width, op);
  if (image > kMaxExtent || images > kMaxExtent) throw Error(std::string(op) + ": an image past 2^32 - 1 floats");
  const std::size_t total = checked_product(images, image, op);
  const std::string why = std::to_string(images) + " x " + std::to_string(image) + " floats";
  kernel_call::need_elements(op, "in", in.size(), total, why);
  kernel_call::need_elements(op, "out", out.size(), total, why);
  aliasing::refuse_overlap(op, aliasing::whole(out), "out", aliasing::whole(in), "in",
                           "the tensor is written while it is read");
  LaunchPlan plan = ctx.plan(conv_layer_traits(), ProblemSize(std::max<std::size_t>(total, 1)));
  if (total == 0) return plan;
  const TensorStrides a = tensor_strides(from, channels, height, width),
                      b = tensor_strides(to, channels, height, width);
  kernel_call::launch(ctx,
                      ctx.prepare(KernelRef{"ml_tensor_relayout.cl", "tensor_relayout", ""}, one_per_item(plan, total)),
                      static_cast<cl_uint>(images), static_cast<cl_uint>(channels), static_cast<cl_uint>(height),
                      static_cast<cl_uint>(width), a.n, a.c, a.y, a.x, b.n, b.c, b.y, b.x, in, out);
  return plan;
}

}  // namespace portacl
