// SPDX-License-Identifier: Apache-2.0
// NumPy arrays in and out of the module: checked shapes and dtypes (a
// clear TypeError or ValueError naming what was given), contiguous copies of
// strided arrays, device buffers made from them, and results handed back as
// new arrays.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "portacl/portacl.hpp"

namespace portacl::python {

namespace py = pybind11;

/// The buffers a portacl.Buffer may hold, one per dtype it takes.
using AnyBuffer = std::variant<std::shared_ptr<Buffer<float>>, std::shared_ptr<Buffer<double>>,
                               std::shared_ptr<Buffer<std::int32_t>>, std::shared_ptr<Buffer<std::int64_t>>,
                               std::shared_ptr<Buffer<std::uint32_t>>, std::shared_ptr<Buffer<std::uint64_t>>>;

/// T of a Buffer<T> or a shared_ptr<Buffer<T>> (the alternatives of AnyBuffer).
template <class P>
struct buffer_element;
template <class T>
struct buffer_element<std::shared_ptr<Buffer<T>>> {
  using type = T;
};
template <class T>
struct buffer_element<Buffer<T>> {
  using type = T;
};
template <class P>
using element_t = typename buffer_element<std::decay_t<P>>::type;

/// NumPy's name of T's dtype.
template <class T>
std::string numpy_name() {
  return py::dtype::of<T>().attr("name").template cast<std::string>();
}

/// A device buffer of float32, float64, int32, int64, uint32 or uint64, as
/// Python's portacl.Buffer.
struct PyBuffer {
  std::shared_ptr<Context> ctx;  ///< kept alive while the buffer lives
  AnyBuffer data;                ///< the one buffer (a null float buffer when empty)
  /// Arrays from map() alive now: while any is, calls refuse the buffer
  /// (OpenCL leaves a launch on mapped memory undefined).
  std::shared_ptr<int> maps = std::make_shared<int>(0);
  /// f(the buffer's shared_ptr<Buffer<T>>), for whichever T it holds.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), data);
  }
  std::size_t size() const {
    return visit([](const auto& b) { return b ? b->size() : std::size_t{0}; });
  }
  std::size_t element_size() const {
    return visit([](const auto& b) { return sizeof(element_t<decltype(b)>); });
  }
  std::string dtype() const {
    return visit([](const auto& b) { return numpy_name<element_t<decltype(b)>>(); });
  }
  bool is_real() const { return data.index() < 2; }
  /// Whether it holds a buffer of T.
  template <class T>
  bool holds() const {
    return std::holds_alternative<std::shared_ptr<Buffer<T>>>(data);
  }
  /// The buffer of T it holds (the caller has checked dtype()).
  template <class T>
  const std::shared_ptr<Buffer<T>>& of() const {
    return std::get<std::shared_ptr<Buffer<T>>>(data);
  }
  /// f(float{}) or f(double{}) by the dtype; another dtype is a TypeError
  /// naming `op`.
  template <class F>
  auto by_real(const char* op, F&& f) const {
    if (holds<float>()) return f(float{});
    if (holds<double>()) return f(double{});
    throw py::type_error(std::string(op) + ": dtype " + dtype() + " is not float32 or float64");
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

/// f(T{}) by a's dtype, for the six a Buffer takes (float32, float64, int32,
/// int64, uint32, uint64). Another dtype is a TypeError naming `op`.
template <class F>
auto by_number_dtype(const std::string& op, const py::object& a, F&& f) {
  if (holds<float>(a)) return f(float{});
  if (holds<double>(a)) return f(double{});
  if (holds<std::int32_t>(a)) return f(std::int32_t{});
  if (holds<std::int64_t>(a)) return f(std::int64_t{});
  if (holds<std::uint32_t>(a)) return f(std::uint32_t{});
  if (holds<std::uint64_t>(a)) return f(std::uint64_t{});
  throw py::type_error(op + ": dtype " + py::str(a.attr("dtype")).cast<std::string>() +
                       " is not float32, float64, int32, int64, uint32 or uint64");
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
