// SPDX-License-Identifier: Apache-2.0
// Heat 2D steps and 2D convolution (correlation form) on NumPy images.
#include "bindings.hpp"

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
  Buffer<T> field(ctx, values(hu));
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = heat2d(ctx, field, rows, cols, o);
  }
  return with_plan(download(field, {py::ssize_t(rows), py::ssize_t(cols)}), plan);
}

Boundary boundary_of(const std::string& name) {
  if (name == "zero") return Boundary::zero;
  if (name == "clamp") return Boundary::clamp;
  if (name == "valid") return Boundary::valid;
  throw py::value_error("convolve2d: boundary must be 'zero', 'clamp' or 'valid', not '" + name + "'");
}

template <class T>
py::tuple convolve(Context& ctx, const py::array& image, const py::array& mask, const std::string& boundary) {
  const auto hi = checked<T>(image, 2, "convolve2d: image"), hm = checked<T>(mask, 2, "convolve2d: mask");
  const std::size_t rows = std::size_t(hi.shape(0)), cols = std::size_t(hi.shape(1));
  const Boundary b = boundary_of(boundary);
  const ConvolutionMask<T> weights(ctx, values(hm), std::size_t(hm.shape(0)), std::size_t(hm.shape(1)), true);
  const auto [out_rows, out_cols] = convolution_output_size(rows, cols, weights.rows(), weights.cols(), b);
  const Buffer<T> in(ctx, values(hi));
  Buffer<T> out(ctx, out_rows * out_cols);
  ConvolutionOptions o;
  o.boundary = b;
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = convolve2d(ctx, in, rows, cols, weights, out, o);
  }
  return with_plan(download(out, {py::ssize_t(out_rows), py::ssize_t(out_cols)}), plan);
}

}  // namespace

void bind_stencil(py::module_& m) {
  m.def("heat2d", [](Context& ctx, const py::array& u, std::size_t steps, double r, const py::object& sides) {
    if (holds<float>(u)) return heat<float>(ctx, u, steps, r, sides);
    if (holds<double>(u)) return heat<double>(ctx, u, steps, r, sides);
    throw py::type_error("heat2d: dtype " + dtype_name(u) + " is not float32 or float64");
  });
  m.def("convolve2d", [](Context& ctx, const py::array& image, const py::array& mask, const std::string& boundary) {
    if (holds<float>(image)) return convolve<float>(ctx, image, mask, boundary);
    if (holds<double>(image)) return convolve<double>(ctx, image, mask, boundary);
    throw py::type_error("convolve2d: dtype " + dtype_name(image) + " is not float32 or float64");
  });
}

}  // namespace portacl::python
