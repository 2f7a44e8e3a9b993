// SPDX-License-Identifier: Apache-2.0
// SpMV, CG and BiCGStab on scipy.sparse CSR matrices (float32 stays float32).
#include "bindings.hpp"

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

template <class T>
py::tuple product(Context& ctx, const py::object& a, const py::array& x) {
  const SparseMatrix<T> matrix(ctx, host_csr<T>(a));
  const std::vector<T> hx = values(checked<T>(x, 1, "spmv: x"));
  if (hx.size() != matrix.cols())
    throw py::value_error("spmv: x has " + std::to_string(hx.size()) + " elements but A has " +
                          std::to_string(matrix.cols()) + " columns");
  const Buffer<T> dx(ctx, hx);
  Buffer<T> dy(ctx, matrix.rows());
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = spmv(ctx, T(1), matrix, dx, T(0), dy);
  }
  return with_plan(download(dy, {py::ssize_t(dy.size())}), plan);
}

// CG or BiCGStab from x = 0; (x, info).
template <class T>
py::tuple solve(Context& ctx, const std::string& method, const py::object& a, const py::array& b, double tol,
                std::size_t max_iterations, bool jacobi) {
  const HostCsr<T> host = host_csr<T>(a);
  if (host.rows != host.cols)
    throw py::value_error(method + ": A is " + std::to_string(host.rows) + " x " + std::to_string(host.cols) +
                          "; a square matrix is needed");
  const SparseMatrix<T> matrix(ctx, host);
  const std::vector<T> hb = values(checked<T>(b, 1, method + ": b"));
  if (hb.size() != matrix.rows())
    throw py::value_error(method + ": b has " + std::to_string(hb.size()) + " elements but A has " +
                          std::to_string(matrix.rows()) + " rows");
  const Buffer<T> db(ctx, hb);
  Buffer<T> dx(ctx, std::vector<T>(matrix.rows(), T(0)));
  SolverOptions o;
  o.tolerance = tol;
  o.jacobi = jacobi;
  if (max_iterations) o.max_iterations = max_iterations;
  SolverResult r;
  {
    py::gil_scoped_release release;
    r = method == "cg" ? cg(ctx, matrix, db, dx, o) : bicgstab(ctx, matrix, db, dx, o);
  }
  py::dict info;
  info["converged"] = r.converged;
  info["iterations"] = r.iterations;
  info["residual"] = r.residual;
  info["true_residual"] = r.true_residual;
  info["restarts"] = r.restarts;
  info["history"] = r.history;
  info["stop_reason"] = r.stop_reason;
  info["warning"] = r.warning;
  return py::make_tuple(download(dx, {py::ssize_t(dx.size())}), info);
}

}  // namespace

void bind_sparse(py::module_& m) {
  m.def("spmv", [](Context& ctx, const py::object& a, const py::array& x) {
    return holds<float>(a) ? product<float>(ctx, a, x) : product<double>(ctx, a, x);
  });
  for (const char* method : {"cg", "bicgstab"})
    m.def(method, [name = std::string(method)](Context& ctx, const py::object& a, const py::array& b, double tol,
                                               std::size_t max_iterations, bool jacobi) {
      return holds<float>(a) ? solve<float>(ctx, name, a, b, tol, max_iterations, jacobi)
                             : solve<double>(ctx, name, a, b, tol, max_iterations, jacobi);
    });
}

}  // namespace portacl::python
