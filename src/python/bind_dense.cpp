// SPDX-License-Identifier: Apache-2.0
// matmul: C = alpha A B + beta C on row-major NumPy matrices, through gemm.
#include "bindings.hpp"

namespace portacl::python {

namespace {

template <class T>
py::tuple matmul(Context& ctx, const py::array& a, const py::array& b, const py::object& c, double alpha, double beta) {
  const auto ha = checked<T>(a, 2, "matmul: a"), hb = checked<T>(b, 2, "matmul: b");
  const std::size_t m = std::size_t(ha.shape(0)), k = std::size_t(ha.shape(1)), n = std::size_t(hb.shape(1));
  if (std::size_t(hb.shape(0)) != k)
    throw py::value_error("matmul: a is " + std::to_string(m) + " x " + std::to_string(k) + " but b is " +
                          std::to_string(hb.shape(0)) + " x " + std::to_string(n));
  std::vector<T> hc(m * n, T(0));
  if (!c.is_none()) {
    const auto given = checked<T>(c.cast<py::array>(), 2, "matmul: out");
    if (std::size_t(given.shape(0)) != m || std::size_t(given.shape(1)) != n)
      throw py::value_error("matmul: out is " + std::to_string(given.shape(0)) + " x " +
                            std::to_string(given.shape(1)) + ", the product " + std::to_string(m) + " x " +
                            std::to_string(n));
    hc = values(given);
  } else if (beta != 0) {
    throw py::value_error("matmul: beta is " + std::to_string(beta) + " but no out matrix was given to scale");
  }
  const Buffer<T> da(ctx, values(ha)), db(ctx, values(hb));
  Buffer<T> dc(ctx, hc);
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, m, n, k, T(alpha), MatrixRef<T>{da, 0, k},
                MatrixRef<T>{db, 0, n}, T(beta), dc, 0, n);
  }
  py::array_t<T> result = download(dc, {py::ssize_t(m), py::ssize_t(n)});
  if (!c.is_none()) {  // out= is filled in place, as NumPy's out= is
    py::array out = c.cast<py::array>();
    out.attr("__setitem__")(py::ellipsis(), result);
    return with_plan(out, plan);
  }
  return with_plan(result, plan);
}

}  // namespace

void bind_dense(py::module_& m) {
  m.def("matmul",
        [](Context& ctx, const py::array& a, const py::array& b, const py::object& out, double alpha, double beta) {
          if (holds<float>(a)) return matmul<float>(ctx, a, b, out, alpha, beta);
          if (holds<double>(a)) return matmul<double>(ctx, a, b, out, alpha, beta);
          throw py::type_error("matmul: dtype " + dtype_name(a) + " is not float32 or float64");
        });
}

}  // namespace portacl::python
