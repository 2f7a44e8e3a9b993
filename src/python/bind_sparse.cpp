// SPDX-License-Identifier: Apache-2.0
// SpMV, CG and BiCGStab on scipy.sparse CSR matrices (float32 stays float32),
// and CsrMatrix, a matrix kept on the device: uploaded and analysed once,
// its derived formats and plans kept for every later call.
#include "bindings.hpp"

#include <optional>

namespace portacl::python {

namespace {

// A scipy.sparse CSR matrix (or anything with shape, indptr, indices and
// data) as a HostCsr of T; SparseMatrix checks its structure by name.
template <class T>
HostCsr<T> host_csr(const py::object& a) {
  for (const char* attribute : {"shape", "indptr", "indices", "data"})
    if (!py::hasattr(a, attribute))
      throw py::type_error(std::string("a sparse matrix in CSR form is needed (scipy.sparse.csr_matrix): it has no ") +
                           attribute);
  if (py::hasattr(a, "format") && a.attr("format").cast<std::string>() != "csr")
    throw py::type_error("a sparse matrix in CSR form is needed, not " + a.attr("format").cast<std::string>() +
                         " (its indptr would be read as row pointers): pass A.tocsr()");
  const auto shape = a.attr("shape").cast<std::pair<std::size_t, std::size_t>>();
  HostCsr<T> csr;
  csr.rows = shape.first;
  csr.cols = shape.second;
  const auto indptr = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(a.attr("indptr"));
  const auto indices = py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>::ensure(a.attr("indices"));
  const auto data = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(a.attr("data"));
  csr.row_ptr.assign(indptr.data(), indptr.data() + indptr.size());
  csr.col.assign(indices.data(), indices.data() + indices.size());
  csr.value.assign(data.data(), data.data() + data.size());
  return csr;
}

// A matrix on the device, as Python's portacl.CsrMatrix.
struct PyCsr {
  std::shared_ptr<Context> ctx;  ///< kept alive while the matrix lives
  std::shared_ptr<SparseMatrix<float>> f32;
  std::shared_ptr<SparseMatrix<double>> f64;
  std::size_t rows() const { return f32 ? f32->rows() : f64->rows(); }
  std::size_t cols() const { return f32 ? f32->cols() : f64->cols(); }
  std::size_t nnz() const { return f32 ? f32->nnz() : f64->nnz(); }
  std::string dtype() const { return f32 ? "float32" : "float64"; }
  std::string shape_text() const { return std::to_string(rows()) + " x " + std::to_string(cols()); }
};

PyCsr make_csr(const std::shared_ptr<Context>& ctx, const py::object& a) {
  PyCsr m{ctx, nullptr, nullptr};
  if (holds<float>(a)) {
    const HostCsr<float> host = host_csr<float>(a);
    py::gil_scoped_release release;  // the upload and the structure's analysis
    m.f32 = std::make_shared<SparseMatrix<float>>(*ctx, host);
  } else {
    const HostCsr<double> host = host_csr<double>(a);
    py::gil_scoped_release release;
    m.f64 = std::make_shared<SparseMatrix<double>>(*ctx, host);
  }
  return m;
}

// A solver's matrix is square: a ValueError naming the solver otherwise.
void check_square(const std::string& method, std::size_t rows, std::size_t cols) {
  if (rows != cols)
    throw py::value_error(method + ": A is " + std::to_string(rows) + " x " + std::to_string(cols) +
                          "; a square matrix is needed");
}

template <class T>
const SparseMatrix<T>& matrix_of(const PyCsr& m);
template <>
const SparseMatrix<float>& matrix_of<float>(const PyCsr& m) {
  return *m.f32;
}
template <>
const SparseMatrix<double>& matrix_of<double>(const PyCsr& m) {
  return *m.f64;
}

// x for a product by a matrix of `cols` columns: a TypeError or ValueError
// naming spmv otherwise.
template <class T>
py::array_t<T, py::array::c_style> checked_x(const py::array& x, std::size_t cols) {
  auto hx = checked<T>(x, 1, "spmv: x");
  if (std::size_t(hx.size()) != cols)
    throw py::value_error("spmv: x has " + std::to_string(hx.size()) + " elements but A has " + std::to_string(cols) +
                          " columns");
  return hx;
}

// y = A x for a checked array x: uploaded from its memory, y read back.
template <class T>
py::tuple array_product(Context& ctx, const SparseMatrix<T>& matrix, const py::array_t<T, py::array::c_style>& hx) {
  const Buffer<T> dx = uploaded(ctx, hx);
  Buffer<T> dy(ctx, matrix.rows());
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = spmv(ctx, T(1), matrix, dx, T(0), dy);
  }
  return with_plan(download(dy, {py::ssize_t(dy.size())}), plan);
}

// y = A x on the device matrix; x a Buffer (y comes back as a Buffer,
// nothing crosses to the host) or an array (y comes back as an array).
template <class T>
py::tuple device_product(const PyCsr& a, const py::object& x) {
  const SparseMatrix<T>& matrix = matrix_of<T>(a);
  Context& ctx = *a.ctx;
  if (py::isinstance<PyBuffer>(x)) {
    const PyBuffer& bx = x.cast<const PyBuffer&>();
    bx.check_unmapped("spmv");
    if (bx.dtype() != a.dtype()) throw py::type_error("spmv: x is " + bx.dtype() + " but A is " + a.dtype());
    if (bx.size() != matrix.cols())
      throw py::value_error("spmv: x has " + std::to_string(bx.size()) + " elements but A has " +
                            std::to_string(matrix.cols()) + " columns");
    if (bx.ctx.get() != a.ctx.get()) throw py::value_error("spmv: x and A belong to different contexts");
    PyBuffer y;
    y.ctx = a.ctx;
    auto dy = std::make_shared<Buffer<T>>(ctx, matrix.rows());
    LaunchPlan plan;
    {
      py::gil_scoped_release release;
      if constexpr (std::is_same<T, float>::value)
        plan = spmv(ctx, T(1), matrix, *bx.f32, T(0), *dy);
      else
        plan = spmv(ctx, T(1), matrix, *bx.f64, T(0), *dy);
    }
    if constexpr (std::is_same<T, float>::value)
      y.f32 = dy;
    else
      y.f64 = dy;
    return with_plan(y, plan);
  }
  return array_product(ctx, matrix, checked_x<T>(py::array::ensure(x), matrix.cols()));
}

// The matrix read back as a scipy.sparse.csr_matrix.
template <class T>
py::object to_scipy(const SparseMatrix<T>& matrix) {
  HostCsr<T> h;
  {
    py::gil_scoped_release release;
    h = matrix.download();
  }
  py::array_t<T> data(py::ssize_t(h.value.size()));
  std::copy(h.value.begin(), h.value.end(), data.mutable_data());
  py::array_t<std::int64_t> indices(py::ssize_t(h.col.size())), indptr(py::ssize_t(h.row_ptr.size()));
  std::copy(h.col.begin(), h.col.end(), indices.mutable_data());
  std::copy(h.row_ptr.begin(), h.row_ptr.end(), indptr.mutable_data());
  return py::module_::import("scipy.sparse")
      .attr("csr_matrix")(py::make_tuple(data, indices, indptr), py::make_tuple(h.rows, h.cols));
}

// y = A x for a SciPy matrix, uploaded for the call once x is checked.
template <class T>
py::tuple product(Context& ctx, const py::object& a, const py::array& x) {
  const HostCsr<T> host = host_csr<T>(a);
  const auto hx = checked_x<T>(x, host.cols);
  return array_product(ctx, SparseMatrix<T>(ctx, host), hx);
}

// CG or BiCGStab from x0 (None: x = 0); (x, info).
template <class T>
py::tuple solve(Context& ctx, const std::string& method, const SparseMatrix<T>& matrix, const py::array& b,
                const py::object& x0, double tol, std::size_t max_iterations, bool jacobi) {
  check_square(method, matrix.rows(), matrix.cols());
  const auto hb = checked<T>(b, 1, method + ": b");
  if (std::size_t(hb.size()) != matrix.rows())
    throw py::value_error(method + ": b has " + std::to_string(hb.size()) + " elements but A has " +
                          std::to_string(matrix.rows()) + " rows");
  std::optional<py::array_t<T, py::array::c_style>> hx0;
  if (!x0.is_none()) {
    hx0 = checked<T>(py::array::ensure(x0), 1, method + ": x0");
    if (std::size_t(hx0->size()) != matrix.cols())
      throw py::value_error(method + ": x0 has " + std::to_string(hx0->size()) + " elements but A has " +
                            std::to_string(matrix.cols()) + " columns");
  }
  const Buffer<T> db = uploaded(ctx, hb);
  Buffer<T> dx = hx0 ? uploaded(ctx, *hx0) : Buffer<T>(ctx, std::vector<T>(matrix.rows(), T(0)));
  SolverOptions o;
  o.tolerance = tol;
  o.jacobi = jacobi;
  if (max_iterations) o.max_iterations = max_iterations;
  SolverResult r;
  {
    py::gil_scoped_release release;
    r = method == "cg" ? cg(ctx, matrix, db, dx, o) : bicgstab(ctx, matrix, db, dx, o);
  }
  const py::dict info("converged"_a = r.converged, "iterations"_a = r.iterations, "residual"_a = r.residual,
                      "true_residual"_a = r.true_residual, "restarts"_a = r.restarts, "history"_a = r.history,
                      "stop_reason"_a = r.stop_reason, "warning"_a = r.warning);
  return py::make_tuple(download(dx, {py::ssize_t(dx.size())}), info);
}

}  // namespace

void bind_sparse(py::module_& m) {
  py::class_<PyCsr>(m, "CsrMatrix",
                    "A sparse matrix kept on the device: uploaded and analysed once, its derived formats and plans "
                    "kept for every later product and solve.")
      .def(py::init(&make_csr), py::arg("context"), py::arg("matrix"),
           "A device copy of a scipy.sparse CSR matrix (float32 stays float32, anything else is float64).")
      .def_property_readonly("shape", [](const PyCsr& a) { return py::make_tuple(a.rows(), a.cols()); })
      .def_property_readonly("nnz", &PyCsr::nnz)
      .def_property_readonly("dtype", &PyCsr::dtype)
      .def_property_readonly("context", [](const PyCsr& a) { return a.ctx; })
      .def(
          "get", [](const PyCsr& a) { return a.f32 ? to_scipy(*a.f32) : to_scipy(*a.f64); },
          "The matrix read back as a scipy.sparse.csr_matrix.")
      .def("__repr__", [](const PyCsr& a) {
        return "<portacl.CsrMatrix " + a.shape_text() + ", " + std::to_string(a.nnz()) + " entries, " + a.dtype() + ">";
      });
  m.def("spmv", [](const PyCsr& a, const py::object& x) {
    return a.f32 ? device_product<float>(a, x) : device_product<double>(a, x);
  });
  m.def("spmv", [](Context& ctx, const py::object& a, const py::array& x) {
    return holds<float>(a) ? product<float>(ctx, a, x) : product<double>(ctx, a, x);
  });
  for (const char* method : {"cg", "bicgstab"}) {
    m.def(method, [name = std::string(method)](const PyCsr& a, const py::array& b, const py::object& x0, double tol,
                                               std::size_t max_iterations, bool jacobi) {
      return a.f32 ? solve<float>(*a.ctx, name, *a.f32, b, x0, tol, max_iterations, jacobi)
                   : solve<double>(*a.ctx, name, *a.f64, b, x0, tol, max_iterations, jacobi);
    });
    m.def(method,
          [name = std::string(method)](Context& ctx, const py::object& a, const py::array& b, const py::object& x0,
                                       double tol, std::size_t max_iterations, bool jacobi) {
            // The shape is checked before anything is uploaded.
            auto upload = [&](auto host) {
              check_square(name, host.rows, host.cols);
              using T = typename decltype(host.value)::value_type;
              return solve<T>(ctx, name, SparseMatrix<T>(ctx, host), b, x0, tol, max_iterations, jacobi);
            };
            return holds<float>(a) ? upload(host_csr<float>(a)) : upload(host_csr<double>(a));
          });
  }
}

}  // namespace portacl::python
