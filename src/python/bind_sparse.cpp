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
py::tuple array_product(Context& ctx, const SparseMatrix<T>& matrix, const py::array_t<T, py::array::c_style>& hx,
                        bool return_plan = true) {
  const Buffer<T> dx = uploaded(ctx, hx);
  Buffer<T> dy(ctx, matrix.rows());
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = spmv(ctx, T(1), matrix, dx, T(0), dy);
  }
  return with_plan(download(dy, {py::ssize_t(dy.size())}), plan, return_plan);
}

// A Buffer operand `name` of `call` on the device matrix A: A's dtype, n
// elements (A's `dim`, "rows" or "columns"), A's context, not mapped. Its
// buffer of T, or an error naming the call and the operand.
template <class T>
const std::shared_ptr<Buffer<T>>& operand(const PyCsr& a, const PyBuffer& v, const std::string& call, const char* name,
                                          std::size_t n, const char* dim) {
  v.check_unmapped(call.c_str());
  if (v.dtype() != a.dtype()) throw py::type_error(call + ": " + name + " is " + v.dtype() + " but A is " + a.dtype());
  if (v.size() != n)
    throw py::value_error(call + ": " + name + " has " + std::to_string(v.size()) + " elements but A has " +
                          std::to_string(n) + " " + dim);
  if (v.ctx.get() != a.ctx.get()) throw py::value_error(call + ": " + name + " and A belong to different contexts");
  return v.of<T>();
}

// y = A x on the device matrix; x a Buffer (y comes back as a Buffer,
// nothing crosses to the host) or an array (y comes back as an array).
// out: a Buffer of A's rows and dtype that receives y (x a Buffer only),
// so that repeated products allocate nothing.
template <class T>
py::tuple device_product(const PyCsr& a, const py::object& x, const py::object& out, bool return_plan) {
  const SparseMatrix<T>& matrix = matrix_of<T>(a);
  Context& ctx = *a.ctx;
  if (py::isinstance<PyBuffer>(x)) {
    const Buffer<T>& dx = *operand<T>(a, x.cast<const PyBuffer&>(), "spmv", "x", matrix.cols(), "columns");
    PyBuffer y;
    if (out.is_none()) {
      y.ctx = a.ctx;
      y.data = std::make_shared<Buffer<T>>(ctx, matrix.rows());
    } else {
      if (!py::isinstance<PyBuffer>(out))
        throw py::type_error("spmv: out must be a portacl.Buffer, not " + std::string(py::str(out.get_type())));
      y = out.cast<const PyBuffer&>();
      // The same OpenCL memory, however it was wrapped (a Buffer, a pyopencl array).
      if (operand<T>(a, y, "spmv", "out", matrix.rows(), "rows")->cl_buffer()() == dx.cl_buffer()())
        throw py::value_error("spmv: out is x; the product cannot overwrite its input");
    }
    LaunchPlan plan;
    {
      py::gil_scoped_release release;
      plan = spmv(ctx, T(1), matrix, dx, T(0), *y.of<T>());
    }
    return with_plan(out.is_none() ? py::object(py::cast(y)) : out, plan, return_plan);
  }
  if (!out.is_none()) throw py::type_error("spmv: out is taken only when x is a Buffer");
  return array_product(ctx, matrix, checked_x<T>(py::array::ensure(x), matrix.cols()), return_plan);
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

// CG or BiCGStab from x0 (None: x = 0); (x, info). b and x0 are arrays
// (uploaded) or Buffers on A's context (x0 copied, never overwritten); x
// comes back as b came: a Buffer for a Buffer, else an array. `a` is the
// device matrix's holder, or null for a matrix uploaded for this call
// (which takes arrays only).
// The caller's preconditioner and per-iteration callback (SciPy's M and
// callback) as the solver's hooks: each gets NumPy arrays, the GIL taken
// while it runs. `precondition(r)` must return a 1-D array of r's dtype and
// length (portacl.sparse makes it so, and says where it is not).
template <class T>
SolverHooks<T> python_hooks(const std::string& method, const py::object& precondition, const py::object& callback) {
  SolverHooks<T> hooks;
  if (!precondition.is_none())
    hooks.precondition = [method, precondition](const Buffer<T>& r, Buffer<T>& z) {
      py::gil_scoped_acquire gil;
      const py::object out = precondition(download(r, {py::ssize_t(r.size())}));
      const auto host = checked<T>(py::array::ensure(out), 1, method + ": M's result");
      if (std::size_t(host.size()) != z.size())
        throw py::value_error(method + ": M's result has " + std::to_string(host.size()) + " elements where r has " +
                              std::to_string(z.size()));
      const T* from = host.data();
      py::gil_scoped_release release;
      z.upload(from, z.size());
    };
  if (!callback.is_none())
    hooks.after_iteration = [callback](std::size_t, const Buffer<T>& x) {
      py::gil_scoped_acquire gil;
      callback(download(x, {py::ssize_t(x.size())}));
    };
  return hooks;
}

template <class T>
py::tuple solve(Context& ctx, const std::string& method, const SparseMatrix<T>& matrix, const PyCsr* a,
                const py::object& b, const py::object& x0, double tol, std::size_t max_iterations, bool jacobi,
                const py::object& precondition, const py::object& callback) {
  check_square(method, matrix.rows(), matrix.cols());
  const bool on_device = a && py::isinstance<PyBuffer>(b);
  std::shared_ptr<Buffer<T>> db, dx0;
  std::optional<py::array_t<T, py::array::c_style>> hb, hx0;
  if (on_device)
    db = operand<T>(*a, b.cast<const PyBuffer&>(), method, "b", matrix.rows(), "rows");
  else {
    hb = checked<T>(py::array::ensure(b), 1, method + ": b");
    if (std::size_t(hb->size()) != matrix.rows())
      throw py::value_error(method + ": b has " + std::to_string(hb->size()) + " elements but A has " +
                            std::to_string(matrix.rows()) + " rows");
  }
  if (a && py::isinstance<PyBuffer>(x0))
    dx0 = operand<T>(*a, x0.cast<const PyBuffer&>(), method, "x0", matrix.cols(), "columns");
  else if (!x0.is_none()) {
    hx0 = checked<T>(py::array::ensure(x0), 1, method + ": x0");
    if (std::size_t(hx0->size()) != matrix.cols())
      throw py::value_error(method + ": x0 has " + std::to_string(hx0->size()) + " elements but A has " +
                            std::to_string(matrix.cols()) + " columns");
  }
  if (hb) db = std::make_shared<Buffer<T>>(uploaded(ctx, *hb));
  auto dx = std::make_shared<Buffer<T>>(hx0 ? uploaded(ctx, *hx0) : Buffer<T>(ctx, matrix.cols()));
  SolverOptions o;
  o.tolerance = tol;
  o.jacobi = jacobi;
  if (max_iterations) o.max_iterations = max_iterations;
  const bool hooked = !precondition.is_none() || !callback.is_none();
  const SolverHooks<T> hooks = python_hooks<T>(method, precondition, callback);
  SolverResult r;
  {
    py::gil_scoped_release release;
    if (dx0)
      copy(ctx, *dx0, *dx);
    else if (!hx0)
      fill(ctx, *dx, T(0));
    if (hooked)
      r = method == "cg" ? cg(ctx, matrix, *db, *dx, o, hooks) : bicgstab(ctx, matrix, *db, *dx, o, hooks);
    else
      r = method == "cg" ? cg(ctx, matrix, *db, *dx, o) : bicgstab(ctx, matrix, *db, *dx, o);
  }
  const py::dict info("converged"_a = r.converged, "iterations"_a = r.iterations, "residual"_a = r.residual,
                      "true_residual"_a = r.true_residual, "restarts"_a = r.restarts, "broke_down"_a = r.broke_down,
                      "history"_a = r.history, "stop_reason"_a = r.stop_reason, "warning"_a = r.warning);
  if (!on_device) return py::make_tuple(download(*dx, {py::ssize_t(dx->size())}), info);
  PyBuffer x;
  x.ctx = a->ctx;
  x.data = dx;
  return py::make_tuple(x, info);
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
  m.def(
      "spmv",
      [](const PyCsr& a, const py::object& x, const py::object& out, bool return_plan) {
        return a.f32 ? device_product<float>(a, x, out, return_plan) : device_product<double>(a, x, out, return_plan);
      },
      py::arg("a"), py::arg("x"), py::arg("out") = py::none(), py::arg("return_plan") = true);
  m.def("spmv", [](Context& ctx, const py::object& a, const py::array& x) {
    return holds<float>(a) ? product<float>(ctx, a, x) : product<double>(ctx, a, x);
  });
  for (const char* method : {"cg", "bicgstab"}) {
    m.def(method, [name = std::string(method)](const PyCsr& a, const py::object& b, const py::object& x0, double tol,
                                               std::size_t max_iterations, bool jacobi, const py::object& precondition,
                                               const py::object& callback) {
      return a.f32
                 ? solve<float>(*a.ctx, name, *a.f32, &a, b, x0, tol, max_iterations, jacobi, precondition, callback)
                 : solve<double>(*a.ctx, name, *a.f64, &a, b, x0, tol, max_iterations, jacobi, precondition, callback);
    });
    m.def(method,
          [name = std::string(method)](Context& ctx, const py::object& a, const py::array& b, const py::object& x0,
                                       double tol, std::size_t max_iterations, bool jacobi,
                                       const py::object& precondition, const py::object& callback) {
            // The shape is checked before anything is uploaded.
            auto upload = [&](auto host) {
              check_square(name, host.rows, host.cols);
              using T = typename decltype(host.value)::value_type;
              return solve<T>(ctx, name, SparseMatrix<T>(ctx, host), nullptr, b, x0, tol, max_iterations, jacobi,
                              precondition, callback);
            };
            return holds<float>(a) ? upload(host_csr<float>(a)) : upload(host_csr<double>(a));
          });
  }
}

}  // namespace portacl::python
