// SPDX-License-Identifier: Apache-2.0
// NumPy arrays in and out of the module: checked shapes and dtypes (a
// clear TypeError or ValueError naming what was given), contiguous copies of
// strided arrays, device buffers made from them, and results handed back as
// new arrays.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <type_traits>
#include <string>
#include <vector>

#include "portacl/portacl.hpp"

namespace portacl::python {

namespace py = pybind11;

/// A device buffer of float or double, as Python's portacl.Buffer.
struct PyBuffer {
  std::shared_ptr<Context> ctx;  ///< kept alive while the buffer lives
  std::shared_ptr<Buffer<float>> f32;
  std::shared_ptr<Buffer<double>> f64;
  /// Arrays from map() alive now: while any is, calls refuse the buffer
  /// (OpenCL leaves a launch on mapped memory undefined).
  std::shared_ptr<int> maps = std::make_shared<int>(0);
  std::size_t size() const { return f32 ? f32->size() : f64 ? f64->size() : 0; }
  std::string dtype() const { return f32 ? "float32" : "float64"; }
  /// The buffer of T it holds (the caller has checked dtype()).
  template <class T>
  const std::shared_ptr<Buffer<T>>& of() const {
    if constexpr (std::is_same<T, float>::value)
      return f32;
    else
      return f64;
  }
  template <class T>
  std::shared_ptr<Buffer<T>>& of() {
    if constexpr (std::is_same<T, float>::value)
      return f32;
    else
      return f64;
  }
  /// Throws when an array from map() still holds the buffer; `op` names the call.
  void check_unmapped(const char* op) const {
    if (*maps)
      throw Error(std::string(op) + ": the buffer is mapped (an array from Buffer.map() still holds it); delete " +
                  "that array before launching on the buffer");
  }
};

/// A buffer's memory mapped for an array or a DLPack tensor, and what the
/// mapping keeps alive: the context and the buffer (so that the mapping, let
/// go first, unmaps from a live buffer), and the buffer's count of live maps.
template <class T>
struct MapHolder {
  MapHolder(const PyBuffer& owner, const std::shared_ptr<Buffer<T>>& b) : ctx(owner.ctx), buffer(b), maps(owner.maps) {
    {
      py::gil_scoped_release release;
      view = std::make_shared<Mapped<T>>(b->map());
    }
    ++*maps;
  }
  MapHolder(const MapHolder&) = delete;
  MapHolder& operator=(const MapHolder&) = delete;
  ~MapHolder() { --*maps; }
  std::shared_ptr<Context> ctx;
  std::shared_ptr<Buffer<T>> buffer;
  std::shared_ptr<int> maps;
  std::shared_ptr<Mapped<T>> view;
};

/// The dtype's name, for errors.
inline std::string dtype_name(const py::array& a) { return a.dtype().attr("name").cast<std::string>(); }

/// Whether `a` (an array or anything with a dtype) holds T.
template <class T>
bool holds(const py::object& a) {
  return py::hasattr(a, "dtype") && py::dtype::from_args(a.attr("dtype")).is(py::dtype::of<T>());
}

/// f(float{}) or f(double{}) by a's dtype: the float32-or-float64 calls'
/// dispatch. Another dtype is a TypeError naming `op`.
template <class F>
auto by_real_dtype(const char* op, const py::array& a, F&& f) {
  if (holds<float>(a)) return f(float{});
  if (holds<double>(a)) return f(double{});
  throw py::type_error(std::string(op) + ": dtype " + dtype_name(a) + " is not float32 or float64");
}

/// `a` as a C-contiguous array of T with `dims` dimensions (a strided array
/// is copied; another dtype or shape is refused, naming `what`).
template <class T>
py::array_t<T, py::array::c_style> checked(const py::array& a, int dims, const std::string& what) {
  if (a.ndim() != dims)
    throw py::value_error(what + ": a " + std::to_string(dims) + "-D array is needed, not " + std::to_string(a.ndim()) +
                          "-D");
  if (!a.dtype().is(py::dtype::of<T>()))
    throw py::type_error(what + ": dtype " + dtype_name(a) + " where " +
                         py::dtype::of<T>().attr("name").template cast<std::string>() + " is needed");
  return py::array_t<T, py::array::c_style>::ensure(a);
}

/// The elements of a checked array as a vector.
template <class T>
std::vector<T> values(const py::array_t<T, py::array::c_style>& a) {
  return std::vector<T>(a.data(), a.data() + a.size());
}

/// A device copy of a checked array, uploaded straight from the array's
/// memory (no host copy in between; the GIL released while it travels).
template <class T>
Buffer<T> uploaded(Context& ctx, const py::array_t<T, py::array::c_style>& a) {
  Buffer<T> b(ctx, std::size_t(a.size()));
  const T* from = a.data();
  py::gil_scoped_release release;
  b.upload(from, b.size());
  return b;
}

/// A device buffer read into a new array of `shape` (the GIL released while it waits).
template <class T>
py::array_t<T> download(const Buffer<T>& b, std::vector<py::ssize_t> shape) {
  py::array_t<T> out(shape);
  T* into = out.mutable_data();
  py::gil_scoped_release release;
  b.download(into, b.size());
  return out;
}

/// A result and the plan of the launch that made it.
template <class R>
py::tuple with_plan(R&& result, const LaunchPlan& plan) {
  return py::make_tuple(std::forward<R>(result), plan);
}

/// A result and, where the caller asked for it, the plan (else None): a
/// plan made into a Python object costs microseconds a call.
template <class R>
py::tuple with_plan(R&& result, const LaunchPlan& plan, bool return_plan) {
  return py::make_tuple(std::forward<R>(result), return_plan ? py::cast(plan) : py::none());
}

}  // namespace portacl::python
