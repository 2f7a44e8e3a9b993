// SPDX-License-Identifier: Apache-2.0
// Vector calls on Buffers (reductions, AXPY) and on arrays (scans,
// compaction, histograms, sort).
// Every call returns (result, plan); the Python layer drops the plan unless
// asked for it. The calls on Buffers, whose own work is small, make the
// plan's Python object only when asked (return_plan): it costs microseconds.
#include "bindings.hpp"

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

// One reduction of a Buffer to a Python float, by name; the plan (else
// None) where the caller keeps it.
template <class Reduce>
py::tuple reduction(Context& ctx, const PyBuffer& x, const char* op, bool return_plan, Reduce&& reduce) {
  x.check_unmapped(op);
  LaunchPlan plan;
  double value = 0;
  {
    py::gil_scoped_release release;
    value = x.f32 ? double(reduce(ctx, *x.f32, plan)) : double(reduce(ctx, *x.f64, plan));
  }
  return with_plan(value, plan, return_plan);
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

// A scalar still on the device (the async forms): get() waits and reads it.
struct PyDeviceValue {
  std::shared_ptr<Context> ctx;  ///< kept alive until the value is read
  std::shared_ptr<DeviceValue<float>> f32;
  std::shared_ptr<DeviceValue<double>> f64;
  double get() const {
    py::gil_scoped_release release;
    return f32 ? double(f32->get()) : f64->get();
  }
};

}  // namespace

void bind_vectors(py::module_& m) {
  py::class_<PyDeviceValue>(m, "DeviceValue", "A scalar result still on the device (the asynchronous forms).")
      .def("get", &PyDeviceValue::get, "Waits for the value and returns it as a Python float.")
      .def("__float__", &PyDeviceValue::get);
  m.def("sum_async", [](const std::shared_ptr<Context>& ctx, const PyBuffer& x) {
    x.check_unmapped("sum");
    PyDeviceValue v{ctx, nullptr, nullptr};
    if (x.f32)
      v.f32 = std::make_shared<DeviceValue<float>>(sum_async(*ctx, *x.f32));
    else
      v.f64 = std::make_shared<DeviceValue<double>>(sum_async(*ctx, *x.f64));
    return v;
  });
  m.def("dot_async", [](const std::shared_ptr<Context>& ctx, const PyBuffer& x, const PyBuffer& y) {
    same_dtype(x, y, "dot");
    PyDeviceValue v{ctx, nullptr, nullptr};
    if (x.f32)
      v.f32 = std::make_shared<DeviceValue<float>>(dot_async(*ctx, *x.f32, *y.f32));
    else
      v.f64 = std::make_shared<DeviceValue<double>>(dot_async(*ctx, *x.f64, *y.f64));
    return v;
  });
  m.def("sum", [](Context& ctx, const PyBuffer& x, bool return_plan) {
    return reduction(ctx, x, "sum", return_plan,
                     [](Context& c, const auto& b, LaunchPlan& p) { return sum(c, b, {}, &p); });
  });
  m.def("sum_integers", [](Context& ctx, const py::array& x) {
    if (holds<std::int32_t>(x)) return integer_sum<std::int32_t>(ctx, x);
    if (holds<std::int64_t>(x)) return integer_sum<std::int64_t>(ctx, x);
    throw py::type_error("sum: dtype " + dtype_name(x) + " is not int32 or int64");
  });
  m.def("nrm2", [](Context& ctx, const PyBuffer& x, bool return_plan) {
    return reduction(ctx, x, "nrm2", return_plan,
                     [](Context& c, const auto& b, LaunchPlan& p) { return nrm2(c, b, {}, &p); });
  });
  m.def("min", [](Context& ctx, const PyBuffer& x, bool return_plan) {
    if (!x.size()) throw py::value_error("min: the array is empty");
    return reduction(ctx, x, "min", return_plan,
                     [](Context& c, const auto& b, LaunchPlan& p) { return min(c, b, {}, &p); });
  });
  m.def("max", [](Context& ctx, const PyBuffer& x, bool return_plan) {
    if (!x.size()) throw py::value_error("max: the array is empty");
    return reduction(ctx, x, "max", return_plan,
                     [](Context& c, const auto& b, LaunchPlan& p) { return max(c, b, {}, &p); });
  });
  m.def("dot", [](Context& ctx, const PyBuffer& x, const PyBuffer& y, bool return_plan) {
    same_dtype(x, y, "dot");
    LaunchPlan plan;
    double value = 0;
    {
      py::gil_scoped_release release;
      value = x.f32 ? double(dot(ctx, *x.f32, *y.f32, {}, &plan)) : dot(ctx, *x.f64, *y.f64, {}, &plan);
    }
    return with_plan(value, plan, return_plan);
  });
  // The plan only where the caller keeps it: making the Python object of a
  // plan costs more than the module's own work on a small call.
  m.def("axpy", [](Context& ctx, double a, const PyBuffer& x, PyBuffer& y, bool return_plan) -> py::object {
    same_dtype(x, y, "axpy");
    LaunchPlan plan;
    {
      py::gil_scoped_release release;
      plan = x.f32 ? axpy(ctx, float(a), *x.f32, *y.f32) : axpy(ctx, a, *x.f64, *y.f64);
    }
    return return_plan ? py::cast(std::move(plan)) : py::none();
  });
  // out = expression(x), or expression(x, y) with y a Buffer or one value;
  // out a new Buffer where None. Dtypes and lengths checked here, before
  // any work; the expression's build error comes from the library.
  m.def("map",
        [](const std::string& expression, const PyBuffer& x, const py::object& y, const py::object& out,
           bool return_plan) -> py::object {
          PyBuffer z;
          if (out.is_none()) {
            z.ctx = x.ctx;
            if (x.f32)
              z.f32 = std::make_shared<Buffer<float>>(*x.ctx, x.size());
            else
              z.f64 = std::make_shared<Buffer<double>>(*x.ctx, x.size());
          } else {
            z = out.cast<PyBuffer>();
            if (z.ctx != x.ctx) throw py::value_error("map: out is on another context than x");
          }
          same_dtype(x, z, "map");
          const bool pair = py::isinstance<PyBuffer>(y);
          PyBuffer yb;
          double value = 0;
          if (pair) {
            yb = y.cast<PyBuffer>();
            if (yb.ctx != x.ctx) throw py::value_error("map: y is on another context than x");
            same_dtype(x, yb, "map");
          } else if (!y.is_none()) {
            value = y.cast<double>();
          }
          const auto run = [&](auto tag) {
            using T = decltype(tag);
            const Buffer<T>& bx = *x.of<T>();
            Buffer<T>& bz = *z.of<T>();
            if (pair) return map(*x.ctx, expression, bx, *yb.of<T>(), bz);
            if (!y.is_none()) return map(*x.ctx, expression, bx, T(value), bz);
            return map(*x.ctx, expression, bx, bz);
          };
          LaunchPlan plan;
          {
            py::gil_scoped_release release;
            plan = x.f32 ? run(float()) : run(double());
          }
          if (!return_plan) return py::cast(z);
          return py::make_tuple(z, std::move(plan));
        });
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
