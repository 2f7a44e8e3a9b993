// SPDX-License-Identifier: Apache-2.0
// Heat 2D steps, 2D convolution (correlation form), 3D stencils and
// normalised cross-correlation on NumPy arrays.
#include "bindings.hpp"

#include <optional>
#include <tuple>

namespace portacl::python {

namespace {

template <class T>
py::tuple heat(Context& ctx, const py::array& u, std::size_t steps, double r, const py::object& sides) {
  const auto hu = checked<T>(u, 2, "heat2d: u");
  const std::size_t rows = std::size_t(hu.shape(0)), cols = std::size_t(hu.shape(1));
  HeatOptions<T> o;
  o.steps = steps;
  o.r = T(r);
  if (!sides.is_none()) {
    const auto s = sides.cast<std::tuple<double, double, double, double>>();
    o.sides = HeatSides<T>{T(std::get<0>(s)), T(std::get<1>(s)), T(std::get<2>(s)), T(std::get<3>(s))};
  }
  Buffer<T> field = uploaded(ctx, hu);
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = heat2d(ctx, field, rows, cols, o);
  }
  return with_plan(download(field, {py::ssize_t(rows), py::ssize_t(cols)}), plan);
}

Boundary boundary_of(const std::string& name, const char* op) {
  if (name == "zero") return Boundary::zero;
  if (name == "clamp") return Boundary::clamp;
  if (name == "valid") return Boundary::valid;
  throw py::value_error(std::string(op) + ": boundary must be 'zero', 'clamp' or 'valid', not '" + name + "'");
}

template <class T>
py::tuple convolve(Context& ctx, const py::array& image, const py::array& mask, const std::string& boundary,
                   const std::string& method) {
  if (method != "auto" && method != "direct" && method != "fft")
    throw py::value_error("convolve2d: method must be 'auto', 'direct' or 'fft', not '" + method + "'");
  const auto hi = checked<T>(image, 2, "convolve2d: image"), hm = checked<T>(mask, 2, "convolve2d: mask");
  const std::size_t rows = std::size_t(hi.shape(0)), cols = std::size_t(hi.shape(1));
  const Boundary b = boundary_of(boundary, "convolve2d");
  const ConvolutionMask<T> weights(ctx, values(hm), std::size_t(hm.shape(0)), std::size_t(hm.shape(1)), true);
  const auto [out_rows, out_cols] = convolution_output_size(rows, cols, weights.rows(), weights.cols(), b);
  const Buffer<T> in = uploaded(ctx, hi);
  Buffer<T> out(ctx, out_rows * out_cols);
  ConvolutionOptions o;
  o.boundary = b;
  if (method != "auto") o.fft = method == "fft";
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = convolve2d(ctx, in, rows, cols, weights, out, o);
  }
  return with_plan(download(out, {py::ssize_t(out_rows), py::ssize_t(out_cols)}), plan);
}

// A 3D stencil on a (nz, ny, nx) array (x fastest, as the library stores
// grids): the star of weights c[0..R] when `points` is None, else the
// general stencil of (dx, dy, dz, weight) points.
template <class T>
py::tuple stencil(Context& ctx, const py::array& u, const py::object& star, const py::object& points,
                  const std::string& boundary) {
  const auto hu = checked<T>(u, 3, "stencil3d: u");
  const Extent3 extent{std::size_t(hu.shape(2)), std::size_t(hu.shape(1)), std::size_t(hu.shape(0))};
  Stencil3dOptions o;
  o.boundary = boundary_of(boundary, "stencil3d");
  const Buffer<T> in = uploaded(ctx, hu);
  std::optional<StarWeights<T>> weights;
  std::optional<StencilPoints<T>> general;
  if (points.is_none()) {
    weights.emplace(ctx, star.cast<std::vector<T>>());
  } else {
    std::vector<StencilPoint<T>> list;
    for (const auto& p : points.cast<std::vector<std::tuple<int, int, int, double>>>())
      list.push_back({std::get<0>(p), std::get<1>(p), std::get<2>(p), T(std::get<3>(p))});
    general.emplace(ctx, std::move(list));
  }
  const Extent3 out_extent =
      stencil3d_output_extent(extent, weights ? weights->radius() : general->reach(), o.boundary);
  Buffer<T> out(ctx, out_extent.cells());
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = weights ? star_stencil3d(ctx, in, extent, *weights, out, o) : stencil3d(ctx, in, extent, *general, out, o);
  }
  return with_plan(download(out, {py::ssize_t(out_extent.nz), py::ssize_t(out_extent.ny), py::ssize_t(out_extent.nx)}),
                   plan);
}

// The normalised cross-correlation map of a template over an image (uint8
// or float32, both 2-D), and where it peaks.
template <class P>
py::tuple correlation_map(Context& ctx, const py::array& image, const py::array& templ) {
  const auto hi = checked<P>(image, 2, "ncc: image"), ht = checked<P>(templ, 2, "ncc: template");
  const std::size_t rows = std::size_t(hi.shape(0)), cols = std::size_t(hi.shape(1));
  const NccTemplate<P> t(ctx, values(ht), std::size_t(ht.shape(0)), std::size_t(ht.shape(1)));
  const auto [map_rows, map_cols] = ncc_map_size(rows, cols, t.rows(), t.cols());
  const Buffer<P> in = uploaded(ctx, hi);
  Buffer<float> map(ctx, map_rows * map_cols);
  LaunchPlan plan;
  NccMatch best;
  {
    py::gil_scoped_release release;
    plan = ncc(ctx, in, rows, cols, t, map);
    best = ncc_best_match(ctx, map, map_rows, map_cols);
  }
  py::array_t<float> values_out = download(map, {py::ssize_t(map_rows), py::ssize_t(map_cols)});
  return with_plan(py::make_tuple(values_out, py::make_tuple(best.row, best.col), best.score), plan);
}

}  // namespace

void bind_stencil(py::module_& m) {
  m.def("ncc", [](Context& ctx, const py::array& image, const py::array& templ) {
    if (holds<std::uint8_t>(image)) return correlation_map<std::uint8_t>(ctx, image, templ);
    if (holds<float>(image)) return correlation_map<float>(ctx, image, templ);
    if (holds<double>(image)) return correlation_map<double>(ctx, image, templ);
    throw py::type_error("ncc: dtype " + dtype_name(image) + " is not uint8, float32 or float64");
  });
  m.def("stencil3d", [](Context& ctx, const py::array& u, const py::object& star, const py::object& points,
                        const std::string& boundary) {
    return by_real_dtype("stencil3d", u, [&](auto t) { return stencil<decltype(t)>(ctx, u, star, points, boundary); });
  });
  m.def("heat2d", [](Context& ctx, const py::array& u, std::size_t steps, double r, const py::object& sides) {
    return by_real_dtype("heat2d", u, [&](auto t) { return heat<decltype(t)>(ctx, u, steps, r, sides); });
  });
  m.def("convolve2d", [](Context& ctx, const py::array& image, const py::array& mask, const std::string& boundary,
                         const std::string& method) {
    return by_real_dtype("convolve2d", image,
                         [&](auto t) { return convolve<decltype(t)>(ctx, image, mask, boundary, method); });
  });
}

}  // namespace portacl::python
