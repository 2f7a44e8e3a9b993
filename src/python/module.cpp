// SPDX-License-Identifier: Apache-2.0
// The portacl Python module (pybind11): portacl's errors as Python
// exceptions with the same messages, and the families' bindings (one file
// each, bound to the public C++ API only; blocking waits release the GIL).
// The NumPy-like signatures live in portacl/__init__.py.
#include <pybind11/pybind11.h>

#include <cstdlib>
#include <string>

#include "bindings.hpp"

namespace py = pybind11;
using namespace portacl;

namespace {

// pybind11 before 2.12 reads NumPy's dtype records at NumPy 1's field
// offsets; NumPy 2 moved them, so such a build reads wrong item sizes and
// strides and its results are silently wrong. The import refuses that pair
// rather than compute with it.
void refuse_an_unreadable_numpy() {
#if PYBIND11_VERSION_MAJOR < 2 || (PYBIND11_VERSION_MAJOR == 2 && PYBIND11_VERSION_MINOR < 12)
  std::string version;
  try {
    version = py::str(py::module_::import("numpy").attr("__version__"));
  } catch (const py::error_already_set&) {
    return;  // no NumPy: nothing is read wrongly (the calls that take arrays say so)
  }
  if (std::atoi(version.c_str()) < 2) return;
  throw py::import_error(
      "portacl: this module was built with pybind11 " PYBIND11_TOSTRING(PYBIND11_VERSION_MAJOR) "." PYBIND11_TOSTRING(
          PYBIND11_VERSION_MINOR) ", which reads NumPy 2's arrays wrongly, and NumPy " +
      version +
      " is loaded: its results would be wrong. Build it with pybind11 2.12 or newer (`pip install .` "
      "does), or run it with NumPy 1.");
#endif
}

}  // namespace

PYBIND11_MODULE(_portacl, m) {
  m.doc() = "portacl: portable OpenCL kernels with device-aware plans";
  refuse_an_unreadable_numpy();
  m.attr("__version__") = portacl::version();  // the library it runs with
  m.attr("_pybind11_version") = py::make_tuple(PYBIND11_VERSION_MAJOR, PYBIND11_VERSION_MINOR);
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
  python::bind_core(m);
  python::bind_vectors(m);
  python::bind_dense(m);
  python::bind_sparse(m);
  python::bind_stencil(m);
  python::bind_fft(m);
  python::bind_particles(m);
  python::bind_ml(m);
  python::bind_interop(m);
  python::bind_tuning(m);
}
