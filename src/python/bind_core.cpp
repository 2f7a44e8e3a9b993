// SPDX-License-Identifier: Apache-2.0
// Contexts, buffers, plans and device queries. Descriptions come from the
// C++ side's own JSON (DeviceInfo::to_json, LaunchPlan::to_json), so
// Python sees every field C++ has, under the same names.
#include "bindings.hpp"
#include "dlpack_export.hpp"

namespace portacl::python {

namespace {

py::object from_json(const Json& j) { return py::module_::import("json").attr("loads")(j.dump(0)); }

// What a device is and how portacl classified it: DeviceInfo's fields plus
// the index, class and architecture.
py::dict describe(const Device& d) {
  py::dict out = from_json(d.info().to_json());
  out["index"] = d.index();
  out["class"] = to_string(d.classification().device_class);
  out["architecture"] = d.classification().architecture;
  return out;
}

PyBuffer make_buffer(const std::shared_ptr<Context>& owner, const py::array& a) {
  Context& ctx = *owner;
  PyBuffer b;
  b.ctx = owner;
  by_number_dtype("Buffer", a, [&](auto tag) {
    using T = decltype(tag);
    b.data = std::make_shared<Buffer<T>>(uploaded(ctx, checked<T>(a, 1, "Buffer")));
  });
  return b;
}

// The buffer's memory as an array, no copy where the buffer lives in host
// memory (CPU devices, whose plans map): the array holds the mapping and
// unmaps when it is freed.
template <class T>
py::array mapped(const PyBuffer& owner, const std::shared_ptr<Buffer<T>>& b) {
  auto* holder = new MapHolder<T>(owner, b);
  py::capsule keep(holder, [](void* p) { delete static_cast<MapHolder<T>*>(p); });
  return py::array_t<T>({py::ssize_t(holder->view->size())}, {py::ssize_t(sizeof(T))}, holder->view->data(), keep);
}

// Elements [from, from + n) read back (the GIL released while it waits).
template <class T>
py::array_t<T> read_range(const PyBuffer& owner, const Buffer<T>& b, std::size_t from, std::size_t n) {
  py::array_t<T> out(py::ssize_t{static_cast<py::ssize_t>(n)});
  if (n == 0) return out;
  T* into = out.mutable_data();
  py::gil_scoped_release release;
  check_cl(owner.ctx->queue().enqueueReadBuffer(b.cl_buffer(), CL_TRUE, from * sizeof(T), n * sizeof(T), into),
           "clEnqueueReadBuffer(Buffer[...])");
  return out;
}

// buffer[i] (a Python float; negative i counts from the end) or
// buffer[start:stop:step] (a new array): only the elements asked for are read.
py::object item(const PyBuffer& b, const py::object& key) {
  b.check_unmapped("Buffer[...]");
  const std::size_t n = b.size();
  auto range = [&](std::size_t from, std::size_t count) -> py::array {
    return b.visit([&](const auto& buffer) -> py::array { return read_range(b, *buffer, from, count); });
  };
  if (py::isinstance<py::slice>(key)) {
    py::ssize_t start = 0, stop = 0, step = 0, length = 0;
    if (!key.cast<py::slice>().compute(py::ssize_t(n), &start, &stop, &step, &length)) throw py::error_already_set();
    if (length == 0) return range(0, 0);
    const py::ssize_t low = step > 0 ? start : start + (length - 1) * step;
    const py::ssize_t span = (length - 1) * (step > 0 ? step : -step) + 1;
    py::array contiguous = range(std::size_t(low), std::size_t(span));
    if (step == 1) return contiguous;
    // [::step] of the span picks exactly the `length` elements, in order.
    const py::object every = py::module_::import("builtins").attr("slice")(py::none(), py::none(), step);
    return contiguous.attr("__getitem__")(every).attr("copy")();
  }
  if (!py::isinstance<py::int_>(key))
    throw py::type_error("Buffer indices are integers or slices, not " + std::string(py::str(key.get_type())));
  py::ssize_t i = key.cast<py::ssize_t>();
  if (i < 0) i += py::ssize_t(n);
  if (i < 0 || std::size_t(i) >= n)
    throw py::index_error("Buffer index " + std::string(py::str(key)) + " is out of range for " + std::to_string(n) +
                          " elements");
  return range(std::size_t(i), 1)[py::int_(0)].attr("item")();
}

py::array to_numpy(const PyBuffer& b) {
  const py::ssize_t n = py::ssize_t(b.size());
  return b.visit([&](const auto& buffer) -> py::array { return download(*buffer, {n}); });
}

}  // namespace

void bind_core(py::module_& m) {
  m.def(
      "query",
      [] {
        py::list out;
        for (const Device& d : all_devices()) out.append(describe(d));
        return out;
      },
      R"doc(Every OpenCL device there is, as dicts.

Returns
-------
list of dict
    Per device, DeviceInfo's fields (name, platform, type, compute_units,
    global_mem_size, fp64, ...) and portacl's class and architecture for it.

Raises
------
Error
    The OpenCL loader or a platform fails (its error named).

Examples
--------
>>> import portacl
>>> all(d["class"] and d["name"] for d in portacl.query())
True
)doc");

  py::class_<Context, std::shared_ptr<Context>>(m, "Context")
      .def(py::init([](const std::string& selector) { return std::make_shared<Context>(selector); }),
           py::arg("selector") = "", "A device by selector (PORTACL_DEVICE, else the default, when empty).")
      .def_property_readonly("device", [](const Context& c) { return describe(c.device()); })
      .def("finish", [](Context& c) {
        py::gil_scoped_release release;
        c.finish();
      });

  py::class_<LaunchPlan>(m, "Plan", "What the runtime chose for a launch, and the rules behind each choice.")
      .def("explain", &LaunchPlan::explain, "One line per decision: what = value  [rule] why.")
      .def("summary", &LaunchPlan::summary, "The plan in one line of plain words.")
      .def("to_dict", [](const LaunchPlan& p) { return from_json(p.to_json()); })
      .def_property_readonly("kernel", [](const LaunchPlan& p) { return p.traits.name; })
      .def_property_readonly("provenance", [](const LaunchPlan& p) { return p.provenance; })
      .def("__repr__", [](const LaunchPlan& p) { return "<portacl.Plan " + p.traits.name + ": " + p.summary() + ">"; });

  py::class_<PyBuffer>(m, "Buffer")
      .def(py::init([](const std::shared_ptr<Context>& ctx, const py::array& a) { return make_buffer(ctx, a); }),
           py::arg("context"), py::arg("array"), "A device copy of a 1-D float32 or float64 array.")
      .def_property_readonly("context", [](const PyBuffer& b) { return b.ctx; })
      .def("__len__", &PyBuffer::size)
      .def_property_readonly("shape", [](const PyBuffer& b) { return py::make_tuple(b.size()); })
      .def_property_readonly("ndim", [](const PyBuffer&) { return 1; })
      .def_property_readonly("nbytes", [](const PyBuffer& b) { return b.size() * b.element_size(); })
      .def("__getitem__", &item,
           "buffer[i] (a Python float) or buffer[start:stop:step] (a new array): only the elements asked for are read "
           "back.")
      .def("__repr__",
           [](const PyBuffer& b) {
             return "<portacl.Buffer of " + std::to_string(b.size()) + " " + b.dtype() + " on " +
                    b.ctx->device().info().name + ">";
           })
      .def_property_readonly("dtype", &PyBuffer::dtype)
      .def("to_numpy", &to_numpy, "The buffer read back into a new array.")
      .def(
          "__array__",
          [](const PyBuffer& b, const py::object& dtype, const py::object& copy) {
            // NumPy 2's protocol: copy=False asks for the buffer's own memory,
            // which device memory cannot be without a copy (map() gives it
            // where the buffer lives in host memory).
            if (!copy.is_none() && !copy.cast<bool>())
              throw py::value_error(
                  "Buffer.__array__: copy=False, but a device buffer can only be read back as a copy; use "
                  "Buffer.map() for the buffer's own memory where it lives in host memory");
            py::array a = to_numpy(b);
            if (dtype.is_none()) return a;
            return py::array(a.attr("astype")(dtype, py::arg("copy") = false));
          },
          py::arg("dtype") = py::none(), py::arg("copy") = py::none(),
          "numpy.asarray(buffer): the buffer read back into a new array (cast to `dtype` where given); copy=False "
          "raises ValueError: device memory cannot be viewed without a copy.")
      .def(
          "map",
          [](const PyBuffer& b) { return b.visit([&](const auto& buffer) -> py::array { return mapped(b, buffer); }); },
          "The buffer's memory as an array, read and written in place (no copy where the buffer lives in host "
          "memory, as on CPU devices); calls refuse the buffer until the array is freed.")
      .def("__dlpack__", &dlpack_capsule, py::arg("stream") = py::none(),
           "DLPack's export (numpy.from_dlpack and other consumers of CPU memory): the buffer's own memory, no copy, "
           "where it lives in host memory (CPU devices); calls refuse the buffer until the consumer lets it go. "
           "Device memory raises BufferError.")
      .def("_dlpack_shaped", &dlpack_shaped, py::arg("stream"), py::arg("shape"),
           "__dlpack__ with a C-order shape over the elements (portacl.Array's export).")
      .def("__dlpack_device__", &dlpack_device, "(1, 0), DLPack's CPU, where the buffer lives in host memory.")
      .def_property_readonly("strategy", [](const PyBuffer& b) {
        return to_string(b.visit([](const auto& buffer) { return buffer->strategy(); }));
      });
}

}  // namespace portacl::python
