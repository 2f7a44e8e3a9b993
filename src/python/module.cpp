// SPDX-License-Identifier: Apache-2.0
// The portacl Python module (pybind11): contexts, buffers made from and read
// into NumPy arrays, the streaming and reduction calls, device queries, and
// portacl's errors as Python exceptions with the same messages. Bound to the
// public C++ API only; blocking waits release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "portacl/portacl.hpp"

namespace py = pybind11;
using namespace portacl;

namespace {

// A device buffer of float or double, as Python sees one.
struct PyBuffer {
  std::shared_ptr<Context> ctx;  ///< kept alive while the buffer lives
  std::shared_ptr<Buffer<float>> f32;
  std::shared_ptr<Buffer<double>> f64;
  std::size_t size() const { return f32 ? f32->size() : f64 ? f64->size() : 0; }
  std::string dtype() const { return f32 ? "float32" : "float64"; }
};

// A NumPy array of float32 or float64 as a contiguous 1-D copy; refuses
// other dtypes and more than one dimension by name.
template <class T>
py::array_t<T, py::array::c_style> checked_vector(const py::array& a, const char* what) {
  if (a.ndim() != 1)
    throw py::value_error(std::string(what) + ": a 1-D array is needed, not " + std::to_string(a.ndim()) + "-D");
  return py::array_t<T, py::array::c_style>::ensure(a);
}

PyBuffer make_buffer(const std::shared_ptr<Context>& owner, const py::array& a) {
  Context& ctx = *owner;
  PyBuffer b;
  b.ctx = owner;
  const py::dtype dt = a.dtype();
  if (dt.is(py::dtype::of<float>())) {
    auto v = checked_vector<float>(a, "Buffer");
    b.f32 = std::make_shared<Buffer<float>>(ctx, std::vector<float>(v.data(), v.data() + v.size()));
  } else if (dt.is(py::dtype::of<double>())) {
    auto v = checked_vector<double>(a, "Buffer");
    b.f64 = std::make_shared<Buffer<double>>(ctx, std::vector<double>(v.data(), v.data() + v.size()));
  } else {
    throw py::type_error("Buffer: dtype " + dt.attr("name").cast<std::string>() + " is not float32 or float64");
  }
  return b;
}

py::array to_numpy(const PyBuffer& b) {
  if (b.f32) {
    py::array_t<float> out(b.f32->size());
    py::gil_scoped_release release;
    b.f32->download(out.mutable_data(), out.size());
    return std::move(out);
  }
  py::array_t<double> out(b.f64->size());
  py::gil_scoped_release release;
  b.f64->download(out.mutable_data(), out.size());
  return std::move(out);
}

void same_dtype(const PyBuffer& x, const PyBuffer& y, const char* op) {
  if (x.dtype() != y.dtype()) throw py::type_error(std::string(op) + ": x is " + x.dtype() + " but y is " + y.dtype());
}

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
py::array_t<T> product(Context& ctx, const py::object& a, const py::array& x) {
  const SparseMatrix<T> matrix(ctx, host_csr<T>(a));
  const auto xv = checked_vector<T>(x, "spmv");
  if (std::size_t(xv.size()) != matrix.cols())
    throw py::value_error("spmv: x has " + std::to_string(xv.size()) + " elements but A has " +
                          std::to_string(matrix.cols()) + " columns");
  Buffer<T> dx(ctx, std::vector<T>(xv.data(), xv.data() + xv.size())), dy(ctx, matrix.rows());
  py::array_t<T> out(matrix.rows());
  py::gil_scoped_release release;
  spmv(ctx, T(1), matrix, dx, T(0), dy);
  dy.download(out.mutable_data(), out.size());
  return out;
}

template <class T>
py::tuple solve(Context& ctx, const py::object& a, const py::array& b, double tol, std::size_t max_iterations) {
  const SparseMatrix<T> matrix(ctx, host_csr<T>(a));
  const auto bv = checked_vector<T>(b, "cg");
  if (std::size_t(bv.size()) != matrix.rows())
    throw py::value_error("cg: b has " + std::to_string(bv.size()) + " elements but A has " +
                          std::to_string(matrix.rows()) + " rows");
  Buffer<T> db(ctx, std::vector<T>(bv.data(), bv.data() + bv.size())), dx(ctx, std::vector<T>(matrix.rows(), T(0)));
  SolverOptions o;
  o.tolerance = tol;
  if (max_iterations) o.max_iterations = max_iterations;
  py::array_t<T> out(matrix.rows());
  SolverResult r;
  {
    py::gil_scoped_release release;
    r = cg(ctx, matrix, db, dx, o);
    dx.download(out.mutable_data(), out.size());
  }
  py::dict info;
  info["converged"] = r.converged;
  info["iterations"] = r.iterations;
  info["residual"] = r.residual;
  info["stop_reason"] = r.stop_reason;
  info["warning"] = r.warning;
  return py::make_tuple(out, info);
}

bool is_single(const py::object& a) {
  return py::hasattr(a, "dtype") && py::dtype::from_args(a.attr("dtype")).is(py::dtype::of<float>());
}

py::dict describe(const Device& d) {
  py::dict out;
  const DeviceInfo& i = d.info();
  out["index"] = d.index();
  out["name"] = i.name;
  out["platform"] = i.platform_name;
  out["vendor"] = i.vendor;
  out["type"] = to_string(i.type);
  out["class"] = to_string(d.classification().device_class);
  out["architecture"] = d.classification().architecture;
  out["compute_units"] = i.compute_units;
  out["global_memory"] = i.global_mem_size;
  out["local_memory"] = i.local_mem_size;
  out["max_work_group_size"] = i.max_work_group_size;
  out["fp64"] = i.fp64;
  return out;
}

}  // namespace

PYBIND11_MODULE(_portacl, m) {
  m.doc() = "portacl: portable OpenCL kernels with device-aware plans";
  m.attr("__version__") = PORTACL_VERSION_STRING;
  static py::exception<Error> error(m, "Error", PyExc_RuntimeError);
  static py::exception<BuildError> build_error(m, "BuildError", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const BuildError& e) {
      // The exception carries the compiler's log as .log, as C++'s build_log().
      py::object raised = py::reinterpret_borrow<py::object>(build_error.ptr())(e.what());
      raised.attr("log") = e.build_log();
      PyErr_SetObject(build_error.ptr(), raised.ptr());
    } catch (const Error& e) {
      PyErr_SetString(error.ptr(), e.what());
    }
  });

  m.def(
      "query",
      [] {
        py::list out;
        for (const Device& d : all_devices()) out.append(describe(d));
        return out;
      },
      "Every OpenCL device there is, as dicts: name, platform, type, class, compute units, memory, fp64.");

  py::class_<Context, std::shared_ptr<Context>>(m, "Context")
      .def(py::init([](const std::string& selector) { return std::make_shared<Context>(selector); }),
           py::arg("selector") = "", "A device by selector (PORTACL_DEVICE, else the default, when empty).")
      .def_property_readonly("device", [](const Context& c) { return describe(c.device()); })
      .def("finish", [](Context& c) {
        py::gil_scoped_release release;
        c.finish();
      });

  py::class_<PyBuffer>(m, "Buffer")
      .def(py::init([](const std::shared_ptr<Context>& ctx, const py::array& a) { return make_buffer(ctx, a); }),
           py::arg("context"), py::arg("array"), "A device copy of a 1-D float32 or float64 array.")
      .def_property_readonly("context", [](const PyBuffer& b) { return b.ctx; })
      .def("__len__", &PyBuffer::size)
      .def_property_readonly("dtype", &PyBuffer::dtype)
      .def("to_numpy", &to_numpy, "The buffer read back into a new array.");

  m.def(
      "sum",
      [](Context& ctx, const PyBuffer& x) -> double {
        py::gil_scoped_release release;
        return x.f32 ? double(sum(ctx, *x.f32)) : sum(ctx, *x.f64);
      },
      py::arg("context"), py::arg("x"));
  m.def(
      "dot",
      [](Context& ctx, const PyBuffer& x, const PyBuffer& y) -> double {
        same_dtype(x, y, "dot");
        py::gil_scoped_release release;
        return x.f32 ? double(dot(ctx, *x.f32, *y.f32)) : dot(ctx, *x.f64, *y.f64);
      },
      py::arg("context"), py::arg("x"), py::arg("y"));
  m.def(
      "axpy",
      [](Context& ctx, double a, const PyBuffer& x, PyBuffer& y) {
        same_dtype(x, y, "axpy");
        py::gil_scoped_release release;
        if (x.f32)
          axpy(ctx, float(a), *x.f32, *y.f32);
        else
          axpy(ctx, a, *x.f64, *y.f64);
      },
      py::arg("context"), py::arg("a"), py::arg("x"), py::arg("y"), "y = a x + y on the device.");
  m.def(
      "spmv",
      [](Context& ctx, const py::object& a, const py::array& x) -> py::array {
        if (is_single(a)) return product<float>(ctx, a, x);
        return product<double>(ctx, a, x);
      },
      py::arg("context"), py::arg("a"), py::arg("x"), "A @ x for a scipy.sparse CSR matrix A (float32 stays float32).");
  m.def(
      "cg",
      [](Context& ctx, const py::object& a, const py::array& b, double tol, std::size_t max_iterations) {
        if (is_single(a)) return solve<float>(ctx, a, b, tol, max_iterations);
        return solve<double>(ctx, a, b, tol, max_iterations);
      },
      py::arg("context"), py::arg("a"), py::arg("b"), py::arg("tol") = 1e-8, py::arg("max_iterations") = 0,
      "Conjugate gradients on a symmetric positive definite CSR matrix: (x, info).");
}
