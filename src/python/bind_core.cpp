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
  if (holds<float>(a)) {
    b.f32 = std::make_shared<Buffer<float>>(uploaded(ctx, checked<float>(a, 1, "Buffer")));
  } else if (holds<double>(a)) {
    b.f64 = std::make_shared<Buffer<double>>(uploaded(ctx, checked<double>(a, 1, "Buffer")));
  } else {
    throw py::type_error("Buffer: dtype " + dtype_name(a) + " is not float32 or float64");
  }
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

py::array to_numpy(const PyBuffer& b) {
  const py::ssize_t n = py::ssize_t(b.size());
  if (b.f32) return download(*b.f32, {n});
  return download(*b.f64, {n});
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
      "Every OpenCL device there is, as dicts: DeviceInfo's fields (name, platform, type, compute units, memory, "
      "fp64, ...) and portacl's class and architecture for it.");

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
          "map", [](const PyBuffer& b) { return b.f32 ? mapped(b, b.f32) : mapped(b, b.f64); },
          "The buffer's memory as an array, read and written in place (no copy where the buffer lives in host "
          "memory, as on CPU devices); calls refuse the buffer until the array is freed.")
      .def("__dlpack__", &dlpack_capsule, py::arg("stream") = py::none(),
           "DLPack's export (numpy.from_dlpack, torch.from_dlpack): the buffer's own memory, no copy, where it "
           "lives in host memory (CPU devices); calls refuse the buffer until the consumer lets it go. Device "
           "memory raises BufferError.")
      .def("__dlpack_device__", &dlpack_device, "(1, 0), DLPack's CPU, where the buffer lives in host memory.")
      .def_property_readonly(
          "strategy", [](const PyBuffer& b) { return to_string(b.f32 ? b.f32->strategy() : b.f64->strategy()); });
}

}  // namespace portacl::python
