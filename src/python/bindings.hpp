// SPDX-License-Identifier: Apache-2.0
// The module's parts, one a family: each binds its calls into the module.
#pragma once

#include <pybind11/stl.h>

#include "arrays.hpp"

namespace portacl::python {

// "name"_a = value: keyword arguments, and the fields of the dicts returned.
using namespace pybind11::literals;

void bind_core(py::module_& m);       // Context, Buffer, Plan, query
void bind_vectors(py::module_& m);    // reductions, AXPY, scans, sort
void bind_dense(py::module_& m);      // matmul (GEMM)
void bind_sparse(py::module_& m);     // SpMV, CG
void bind_stencil(py::module_& m);    // heat 2D, 2D convolution
void bind_fft(py::module_& m);        // fast Fourier transforms
void bind_particles(py::module_& m);  // N-body
void bind_ml(py::module_& m);         // k-means
void bind_interop(py::module_& m);    // pyopencl handles
void bind_tuning(py::module_& m);     // tune, into the tuning database

}  // namespace portacl::python
