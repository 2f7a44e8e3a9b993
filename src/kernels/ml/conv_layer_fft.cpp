// SPDX-License-Identifier: Apache-2.0
// A convolution layer by FFT (kernels/ml_conv_fft.cl): the grid is the
// plan's (rule conv.fft), the transforms portacl's batched 2D real ones.
#include "kernels/ml/conv_layer_fft.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "kernels/kernel_call.hpp"
#include "rules/coverage_rules.hpp"
#include "portacl/fft.hpp"

namespace portacl {

namespace {

KernelRef kernel(const char* entry) { return KernelRef{"ml_conv_fft.cl", entry, ""}; }

struct Transforms {
  Fft filters, images, outputs;
};

}  // namespace

void run_conv_fft(Context& ctx, const ConvLaunch& l, const ConvLayerShape& s, const TensorStrides& in,
                  const TensorStrides& out, const Buffer<float>& input, const Buffer<float>& filters,
                  const BufferStorage& bias, Buffer<float>& output, const PlanOptions& plan) {
  const std::size_t rows = l.choice.grid_rows, cols = l.choice.grid_cols, chunk = l.choice.chunk;
  const std::size_t cells = rows * cols, values = rows * (cols / 2 + 1);
  const std::size_t cg = s.channels / s.groups, filter_planes = s.filters * cg;
  const std::size_t planes = std::max({chunk * s.channels, chunk * s.filters, filter_planes});
  Buffer<float> grid(ctx, ctx.scratch("conv.fft.grid", planes * cells * sizeof(float)), planes * cells);
  Buffer<float> spectra(ctx, ctx.scratch("conv.fft.images", chunk * s.channels * 2 * values * sizeof(float)),
                        chunk * s.channels * 2 * values);
  Buffer<float> weights(ctx, ctx.scratch("conv.fft.filters", filter_planes * 2 * values * sizeof(float)),
                        filter_planes * 2 * values);
  Buffer<float> products(ctx, ctx.scratch("conv.fft.products", chunk * s.filters * 2 * values * sizeof(float)),
                         chunk * s.filters * 2 * values);
  const std::vector<std::size_t> shape =
      rows == 1 ? std::vector<std::size_t>{cols} : std::vector<std::size_t>{rows, cols};
  const auto transform = [&](FftKind kind, std::size_t batch) {
    FftOptions o;
    o.kind = kind;
    o.batch = batch;
    o.plan = plan;
    o.plan.override_values.reset();  // the layer's knobs are not the FFT's
    return Fft(ctx, shape, o);
  };
  // The filters', whole chunks' (the last one's spare planes carry what
  // an earlier chunk left, never read back) and the outputs' transforms,
  // kept by the context for the next call of this shape.
  const auto make = [&] {
    return Transforms{transform(FftKind::r2c, filter_planes), transform(FftKind::r2c, chunk * s.channels),
                      transform(FftKind::c2r, chunk * s.filters)};
  };
  const std::string key = "conv_layer_fft " + std::to_string(rows) + "x" + std::to_string(cols) + " " +
                          std::to_string(filter_planes) + " " + std::to_string(chunk * s.channels) + " " +
                          std::to_string(chunk * s.filters);
  const std::shared_ptr<const Transforms> kept = plan.leaves_plan_to_device()
                                                     ? ctx.prepared_call<Transforms>(key, make)
                                                     : std::make_shared<const Transforms>(make());
  const auto u = [](std::size_t v) { return static_cast<cl_uint>(v); };
  kernel_call::launch(ctx, ctx.prepare(kernel("conv_fft_filters"), one_per_item(l.plan, filter_planes * cells)),
                      u(rows), u(cols), filters, grid);
  kept->filters.forward(grid, weights);
  const float scale = 1.0f / float(cells);
  for (std::size_t first = 0; first < s.images; first += chunk) {
    const std::size_t count = std::min(chunk, s.images - first);
    kernel_call::launch(ctx, ctx.prepare(kernel("conv_fft_images"), one_per_item(l.plan, count * s.channels * cells)),
                        u(first), u(count), u(s.height), u(s.width), u(rows), u(cols), in.n, in.c, in.y, in.x, input,
                        grid);
    kept->images.forward(grid, spectra);
    const std::size_t blocks = (count + l.choice.images - 1) / l.choice.images *
                               ((s.filters / s.groups + l.choice.filters - 1) / l.choice.filters) * s.groups;
    kernel_call::launch(ctx, ctx.prepare(kernel("conv_fft_accumulate"), one_per_item(l.plan, blocks * values)),
                        u(count), cl_ulong(values), spectra, weights, products);
    kept->outputs.inverse(products, grid);
    kernel_call::launch(ctx,
                        ctx.prepare(kernel("conv_fft_outputs"),
                                    one_per_item(l.plan, count * s.filters * s.out_height() * s.out_width())),
                        u(first), u(count), u(s.out_height()), u(s.out_width()), u(rows), u(cols), scale, out.n, out.c,
                        out.y, out.x, grid, bias, output);
  }
}

}  // namespace portacl
