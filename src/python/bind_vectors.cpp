// SPDX-License-Identifier: Apache-2.0
// Vector calls on Buffers (reductions, AXPY) and on arrays (scans,
// compaction, histograms, sort).
// Every call returns (result, plan); the Python layer drops the plan unless
// asked for it. The calls on Buffers, whose own work is small, make the
// plan's Python object only when asked (return_plan): it costs microseconds.
#include "bindings.hpp"

#include <functional>
#include <type_traits>

namespace portacl::python {

namespace {

// x and y of one dtype and length: a TypeError or ValueError naming `op`
// before any work.
void same_dtype(const PyBuffer& x, const PyBuffer& y, const char* op) {
  x.check_unmapped(op);
  y.check_unmapped(op);
  if (x.dtype() != y.dtype()) throw py::type_error(std::string(op) + ": x is " + x.dtype() + " but y is " + y.dtype());
  if (x.size() != y.size())
    throw py::value_error(std::string(op) + ": x has " + std::to_string(x.size()) + " elements but y has " +
                          std::to_string(y.size()));
}

// The dtypes a reduction of Buffers takes: `accepts<T>`, and their names
// for the TypeError.
struct RealTypes {
  template <class T>
  static constexpr bool accepts = std::is_floating_point<T>::value;
  static constexpr const char* names = "float32 or float64";
};
struct SumTypes {  // a uint64 sum may not fit the signed 64-bit total
  template <class T>
  static constexpr bool accepts = !std::is_same<T, std::uint64_t>::value;
  static constexpr const char* names = "float32, float64, int32, int64 or uint32 (a uint64 sum may not fit int64)";
};
struct NumberTypes {
  template <class T>
  static constexpr bool accepts = true;
  static constexpr const char* names = "";
};

// One reduction of a Buffer of a dtype `Types` accepts to a Python float
// (or int, for integers), by name; the plan (else None) where the caller
// keeps it.
template <class Types, class Reduce>
py::tuple reduction(Context& ctx, const PyBuffer& x, const char* op, bool return_plan, Reduce&& reduce) {
  x.check_unmapped(op);
  return x.visit([&](const auto& b) -> py::tuple {
    using T = element_t<decltype(b)>;
    if constexpr (!Types::template accepts<T>) {
      throw py::type_error(std::string(op) + ": dtype " + x.dtype() + " is not " + Types::names);
    } else {
      LaunchPlan plan;
      decltype(reduce(ctx, *b, plan)) value{};
      {
        py::gil_scoped_release release;
        value = reduce(ctx, *b, plan);
      }
      return with_plan(value, plan, return_plan);
    }
  });
}

template <class T>
py::tuple scan(Context& ctx, const py::array& x, bool exclusive) {
  const Buffer<T> dx = uploaded(ctx, checked<T>(x, 1, exclusive ? "cumsum (exclusive)" : "cumsum"));
  Buffer<T> dy(ctx, dx.size());
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = exclusive ? exclusive_scan(ctx, dx, dy) : inclusive_scan(ctx, dx, dy);
  }
  return with_plan(download(dy, {py::ssize_t(dy.size())}), plan);
}

// The elements of x for which an OpenCL C predicate on `x` holds, in order.
template <class T>
py::tuple compacted(Context& ctx, const py::array& x, const std::string& predicate) {
  const Buffer<T> dx = uploaded(ctx, checked<T>(x, 1, "compact: x"));
  Buffer<T> dy(ctx, dx.size());
  LaunchPlan plan;
  std::size_t kept = 0;
  {
    py::gil_scoped_release release;
    kept = compact(ctx, predicate, dx, dy, {}, &plan);
  }
  py::array_t<T> all = download(dy, {py::ssize_t(dy.size())});
  return with_plan(all[py::slice(0, py::ssize_t(kept), 1)], plan);
}

template <class K>
py::tuple sorted(Context& ctx, const py::array& x, bool indices) {
  Buffer<K> keys = uploaded(ctx, checked<K>(x, 1, indices ? "argsort" : "sort"));
  LaunchPlan plan;
  if (!indices) {
    {
      py::gil_scoped_release release;
      plan = sort(ctx, keys);
    }
    return with_plan(download(keys, {py::ssize_t(keys.size())}), plan);
  }
  std::vector<std::uint32_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = std::uint32_t(i);
  Buffer<std::uint32_t> positions(ctx, order);
  {
    py::gil_scoped_release release;
    plan = sort_by_key(ctx, keys, positions);
  }
  return with_plan(download(positions, {py::ssize_t(positions.size())}), plan);
}

py::tuple sort_any(Context& ctx, const py::array& x, bool indices) {
  if (holds<float>(x)) return sorted<float>(ctx, x, indices);
  if (holds<std::int32_t>(x)) return sorted<std::int32_t>(ctx, x, indices);
  if (holds<std::uint32_t>(x)) return sorted<std::uint32_t>(ctx, x, indices);
  if (holds<double>(x)) return sorted<double>(ctx, x, indices);
  if (holds<std::int64_t>(x)) return sorted<std::int64_t>(ctx, x, indices);
  if (holds<std::uint64_t>(x)) return sorted<std::uint64_t>(ctx, x, indices);
  throw py::type_error(std::string(indices ? "argsort" : "sort") + ": dtype " + dtype_name(x) +
                       " is not float32, float64, int32, int64, uint32 or uint64 (the radix sort's keys)");
}

// The sum of an int32 or int64 array, in 64 bits, as a Python int.
template <class T>
py::tuple integer_sum(Context& ctx, const py::array& x) {
  Buffer<T> b = uploaded(ctx, checked<T>(x, 1, "sum"));
  LaunchPlan plan;
  std::int64_t total = 0;
  {
    py::gil_scoped_release release;
    total = sum(ctx, b, {}, &plan);
  }
  return with_plan(total, plan);
}

// A scalar still on the device (the async forms): get() waits and reads it
// (a float, or an int for an integer sum).
struct PyDeviceValue {
  std::function<py::object()> read;
  py::object get() const { return read(); }
};

// The value of an async call, kept (with its context) until read.
template <class S>
PyDeviceValue pending(const std::shared_ptr<Context>& ctx, DeviceValue<S> value) {
  auto v = std::make_shared<DeviceValue<S>>(std::move(value));
  return PyDeviceValue{[ctx, v]() {
    S got{};
    {
      py::gil_scoped_release release;
      got = v->get();
    }
    return py::object(py::cast(got));
  }};
}

// y, one value for a map over T, as the kernel's argument: a float for
// floats; for integers a Python int that portacl.map has checked is in T's
// range (pybind11 refuses anything else).
template <class T>
T scalar_of(const py::object& y) {
  if constexpr (std::is_floating_point<T>::value)
    return T(y.cast<double>());
  else
    return y.cast<T>();
}

// z = expression over signed integers in modular arithmetic, as NumPy's
// operators wrap: the expression runs on the buffers' memory read as the
// unsigned type of their width (whose + - * wrap modulo 2^bits in OpenCL C,
// where signed overflow is undefined), and two's complement makes the bits
// the signed result's.
template <class T>
LaunchPlan modular_map(const std::string& expression, const Buffer<T>& x, const Buffer<T>* y, const T* value,
                       Buffer<T>& z) {
  using U = std::make_unsigned_t<T>;
  Context& ctx = x.context();
  const Buffer<U> ux(ctx, x.cl_buffer(), x.size());
  Buffer<U> uz(ctx, z.cl_buffer(), z.size());
  if (y) return map(ctx, expression, ux, Buffer<U>(ctx, y->cl_buffer(), y->size()), uz);
  if (value) return map(ctx, expression, ux, static_cast<U>(*value), uz);
  return map(ctx, expression, ux, uz);
}

}  // namespace

void bind_vectors(py::module_& m) {
  py::class_<PyDeviceValue>(m, "DeviceValue", "A scalar result still on the device (the asynchronous forms).")
      .def("get", &PyDeviceValue::get, "Waits for the value and returns it (a float, or an int for integers).")
      .def("__float__", [](const PyDeviceValue& v) { return py::float_(v.get()); });
  m.def("sum_async", [](const std::shared_ptr<Context>& ctx, const PyBuffer& x) {
    x.check_unmapped("sum");
    return x.visit([&](const auto& b) -> PyDeviceValue {
      using T = element_t<decltype(b)>;
      if constexpr (!SumTypes::accepts<T>)
        throw py::type_error("sum: dtype " + x.dtype() + " is not " + SumTypes::names);
      else
        return pending(ctx, sum_async(*ctx, *b));
    });
  });
  m.def("dot_async", [](const std::shared_ptr<Context>& ctx, const PyBuffer& x, const PyBuffer& y) {
    same_dtype(x, y, "dot");
    return x.by_real("dot", [&](auto tag) {
      using T = decltype(tag);
      return pending(ctx, dot_async(*ctx, *x.of<T>(), *y.of<T>()));
    });
  });
  m.def("sum", [](Context& ctx, const PyBuffer& x, bool return_plan) {
    return reduction<SumTypes>(ctx, x, "sum", return_plan,
                               [](Context& c, const auto& b, LaunchPlan& p) { return sum(c, b, {}, &p); });
  });
  m.def("sum_integers", [](Context& ctx, const py::array& x) {
    if (holds<std::int32_t>(x)) return integer_sum<std::int32_t>(ctx, x);
    if (holds<std::int64_t>(x)) return integer_sum<std::int64_t>(ctx, x);
    throw py::type_error("sum: dtype " + dtype_name(x) + " is not int32 or int64");
  });
  m.def("nrm2", [](Context& ctx, const PyBuffer& x, bool return_plan) {
    return reduction<RealTypes>(ctx, x, "nrm2", return_plan,
                                [](Context& c, const auto& b, LaunchPlan& p) { return nrm2(c, b, {}, &p); });
  });
  m.def("min", [](Context& ctx, const PyBuffer& x, bool return_plan) {
    if (!x.size()) throw py::value_error("min: the array is empty");
    return reduction<NumberTypes>(ctx, x, "min", return_plan,
                                  [](Context& c, const auto& b, LaunchPlan& p) { return min(c, b, {}, &p); });
  });
  m.def("max", [](Context& ctx, const PyBuffer& x, bool return_plan) {
    if (!x.size()) throw py::value_error("max: the array is empty");
    return reduction<NumberTypes>(ctx, x, "max", return_plan,
                                  [](Context& c, const auto& b, LaunchPlan& p) { return max(c, b, {}, &p); });
  });
  m.def("dot", [](Context& ctx, const PyBuffer& x, const PyBuffer& y, bool return_plan) {
    same_dtype(x, y, "dot");
    return reduction<RealTypes>(ctx, x, "dot", return_plan, [&](Context& c, const auto& bx, LaunchPlan& p) {
      return dot(c, bx, *y.of<element_t<decltype(bx)>>(), {}, &p);
    });
  });
  // The plan only where the caller keeps it: making the Python object of a
  // plan costs more than the module's own work on a small call.
  m.def("axpy", [](Context& ctx, double a, const PyBuffer& x, PyBuffer& y, bool return_plan) -> py::object {
    same_dtype(x, y, "axpy");
    LaunchPlan plan = x.by_real("axpy", [&](auto tag) {
      using T = decltype(tag);
      py::gil_scoped_release release;
      return axpy(ctx, T(a), *x.of<T>(), *y.of<T>());
    });
    return return_plan ? py::cast(std::move(plan)) : py::none();
  });
  // out = expression(x), or expression(x, y) with y a Buffer or one value;
  // out a new Buffer where None. Dtypes and lengths checked here, before
  // any work; the expression's build error comes from the library.
  m.def(
      "map",
      [](const std::string& expression, const PyBuffer& x, const py::object& y, const py::object& out, bool return_plan,
         bool modular) -> py::object {
        PyBuffer z;
        if (out.is_none()) {
          z.ctx = x.ctx;
          x.visit([&](const auto& b) { z.data = std::make_shared<std::decay_t<decltype(*b)>>(*x.ctx, x.size()); });
        } else {
          z = out.cast<PyBuffer>();
          if (z.ctx != x.ctx) throw py::value_error("map: out is on another context than x");
        }
        same_dtype(x, z, "map");
        const bool pair = py::isinstance<PyBuffer>(y);
        PyBuffer yb;
        if (pair) {
          yb = y.cast<PyBuffer>();
          if (yb.ctx != x.ctx) throw py::value_error("map: y is on another context than x");
          same_dtype(x, yb, "map");
        }
        const LaunchPlan plan = x.visit([&](const auto& bx) {
          using T = element_t<decltype(bx)>;
          const bool one_value = !pair && !y.is_none();
          const T value = one_value ? scalar_of<T>(y) : T{};
          const Buffer<T>& by = pair ? *yb.of<T>() : *bx;
          py::gil_scoped_release release;
          if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
            if (modular && x.size())
              return modular_map(expression, *bx, pair ? &by : nullptr, one_value ? &value : nullptr, *z.of<T>());
          }
          if (pair) return map(*x.ctx, expression, *bx, by, *z.of<T>());
          if (one_value) return map(*x.ctx, expression, *bx, value, *z.of<T>());
          return map(*x.ctx, expression, *bx, *z.of<T>());
        });
        if (!return_plan) return py::cast(z);
        return py::make_tuple(z, plan);
      },
      py::arg("expression"), py::arg("x"), py::arg("y"), py::arg("out"), py::arg("return_plan"),
      py::arg("modular") = false);
  m.def("cumsum", [](Context& ctx, const py::array& x, bool exclusive) {
    if (holds<float>(x)) return scan<float>(ctx, x, exclusive);
    if (holds<double>(x)) return scan<double>(ctx, x, exclusive);
    if (holds<std::int32_t>(x)) return scan<std::int32_t>(ctx, x, exclusive);
    throw py::type_error("cumsum: dtype " + dtype_name(x) + " is not float32, float64 or int32");
  });
  m.def("histogram", [](Context& ctx, const py::array& keys, std::size_t bins, unsigned shift, bool wrap) {
    const Buffer<std::uint32_t> dk = uploaded(ctx, checked<std::uint32_t>(keys, 1, "bincount: keys"));
    Buffer<std::uint32_t> counts(ctx, bins);
    HistogramOptions o;
    o.shift = shift;
    o.wrap = wrap;
    LaunchPlan plan;
    {
      py::gil_scoped_release release;
      plan = histogram(ctx, dk, counts, o);
    }
    return with_plan(download(counts, {py::ssize_t(bins)}), plan);
  });
  m.def("compact", [](Context& ctx, const py::array& x, const std::string& predicate) {
    if (holds<float>(x)) return compacted<float>(ctx, x, predicate);
    if (holds<double>(x)) return compacted<double>(ctx, x, predicate);
    if (holds<std::int32_t>(x)) return compacted<std::int32_t>(ctx, x, predicate);
    throw py::type_error("compact: dtype " + dtype_name(x) + " is not float32, float64 or int32");
  });
  m.def("sort", [](Context& ctx, const py::array& x) { return sort_any(ctx, x, false); });
  m.def("argsort", [](Context& ctx, const py::array& x) { return sort_any(ctx, x, true); });
}

}  // namespace portacl::python
