// SPDX-License-Identifier: Apache-2.0
// matmul (C = alpha A B + beta C), gemv (y = alpha op(A) x) and trsv (L x =
// b) on row-major NumPy matrices.
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
  const Buffer<T> da = uploaded(ctx, ha), db = uploaded(ctx, hb);
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

// y = alpha op(A) x on a row-major NumPy matrix, through gemv.
template <class T>
py::tuple matvec(Context& ctx, const py::array& a, const py::array& x, double alpha, bool transpose) {
  const auto ha = checked<T>(a, 2, "gemv: a"), hx = checked<T>(x, 1, "gemv: x");
  const std::size_t m = std::size_t(ha.shape(0)), n = std::size_t(ha.shape(1));
  const std::size_t in = transpose ? m : n, out = transpose ? n : m;
  if (std::size_t(hx.shape(0)) != in)
    throw py::value_error("gemv: x has " + std::to_string(hx.shape(0)) + " elements but " + (transpose ? "a.T" : "a") +
                          " has " + std::to_string(in) + " columns");
  const Buffer<T> da = uploaded(ctx, ha), dx = uploaded(ctx, hx);
  Buffer<T> dy(ctx, std::vector<T>(out, T(0)));
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = gemv(ctx, Layout::row_major, transpose ? Transpose::yes : Transpose::no, out, in, T(alpha),
                MatrixRef<T>{da, 0, n}, VectorRef<T>{dx, 0, 1}, T(0), dy);
  }
  return with_plan(download(dy, {py::ssize_t(out)}), plan);
}

// x solving L x = b, L the lower triangle of a square NumPy matrix, through trsv.
template <class T>
py::tuple lower_solve(Context& ctx, const py::array& l, const py::array& b, bool unit_diagonal) {
  const auto hl = checked<T>(l, 2, "trsv: l"), hb = checked<T>(b, 1, "trsv: b");
  const std::size_t n = std::size_t(hl.shape(0));
  if (std::size_t(hl.shape(1)) != n)
    throw py::value_error("trsv: l is " + std::to_string(n) + " x " + std::to_string(hl.shape(1)) +
                          "; a square matrix is needed");
  if (std::size_t(hb.shape(0)) != n)
    throw py::value_error("trsv: b has " + std::to_string(hb.shape(0)) + " elements but l has " + std::to_string(n) +
                          " rows");
  const Buffer<T> dl = uploaded(ctx, hl);
  Buffer<T> dx = uploaded(ctx, hb);
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = trsv(ctx, Layout::row_major, n, MatrixRef<T>{dl, 0, n}, dx, 0, 1,
                unit_diagonal ? Diagonal::unit : Diagonal::non_unit);
  }
  return with_plan(download(dx, {py::ssize_t(n)}), plan);
}

}  // namespace

void bind_dense(py::module_& m) {
  m.def("trsv", [](Context& ctx, const py::array& l, const py::array& b, bool unit_diagonal) {
    return by_real_dtype("trsv", l, [&](auto t) { return lower_solve<decltype(t)>(ctx, l, b, unit_diagonal); });
  });
  m.def("gemv", [](Context& ctx, const py::array& a, const py::array& x, double alpha, bool transpose) {
    return by_real_dtype("gemv", a, [&](auto t) { return matvec<decltype(t)>(ctx, a, x, alpha, transpose); });
  });
  m.def("matmul",
        [](Context& ctx, const py::array& a, const py::array& b, const py::object& out, double alpha, double beta) {
          return by_real_dtype("matmul", a, [&](auto t) { return matmul<decltype(t)>(ctx, a, b, out, alpha, beta); });
        });
}

}  // namespace portacl::python
