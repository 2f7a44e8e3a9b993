// SPDX-License-Identifier: Apache-2.0
// The portacl Python module (pybind11): portacl's errors as Python
// exceptions with the same messages, and the families' bindings (one file
// each, bound to the public C++ API only; blocking waits release the GIL).
// The NumPy-like signatures live in portacl/__init__.py.
#include <pybind11/pybind11.h>

#include "bindings.hpp"

namespace py = pybind11;
using namespace portacl;

PYBIND11_MODULE(_portacl, m) {
  m.doc() = "portacl: portable OpenCL kernels with device-aware plans";
  m.attr("__version__") = portacl::version();  // the library it runs with
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
  python::bind_particles(m);
  python::bind_ml(m);
  python::bind_interop(m);
  python::bind_tuning(m);
}
