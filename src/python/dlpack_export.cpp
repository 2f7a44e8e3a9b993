// SPDX-License-Identifier: Apache-2.0
#include "dlpack_export.hpp"

#include <Python.h>

namespace portacl::python {

namespace {

[[noreturn]] void refuse(const std::string& why) {
  PyErr_SetString(PyExc_BufferError, why.c_str());
  throw py::error_already_set();
}

// What the tensor keeps alive (the mapping, MapHolder) and the shape it
// points to.
template <class T>
struct Export {
  Export(const PyBuffer& owner, const std::shared_ptr<Buffer<T>>& b, std::vector<std::int64_t> dims)
      : holder(owner, b), shape(std::move(dims)) {}
  MapHolder<T> holder;
  std::vector<std::int64_t> shape;
  dlpack::ManagedTensor tensor{};
};

template <class T>
void release(dlpack::ManagedTensor* t) {
  delete static_cast<Export<T>*>(t->manager_ctx);  // unmaps
}

template <class T>
dlpack::ManagedTensor* export_buffer(const PyBuffer& owner, const std::shared_ptr<Buffer<T>>& b,
                                     const std::vector<std::int64_t>& shape) {
  auto* e = new Export<T>(owner, b, shape);
  dlpack::Tensor& t = e->tensor.dl_tensor;
  t.data = e->holder.view->data();
  t.device = {dlpack::kCpu, 0};
  t.ndim = std::int32_t(e->shape.size());
  // DLPack's type codes: 0 signed integer, 1 unsigned, 2 float.
  const std::uint8_t code = std::is_floating_point<T>::value ? 2 : std::is_signed<T>::value ? 0 : 1;
  t.dtype = {code, std::uint8_t(8 * sizeof(T)), 1};
  t.shape = e->shape.data();
  t.strides = nullptr;
  t.byte_offset = 0;
  e->tensor.manager_ctx = e;
  e->tensor.deleter = release<T>;
  return &e->tensor;
}

// A capsule never consumed still frees its tensor; a consumed one is renamed
// "used_dltensor" and its consumer calls the deleter.
void unconsumed(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;
  auto* t = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (t && t->deleter) t->deleter(t);
}

}  // namespace

bool host_visible(const PyBuffer& b) {
  return b.visit([](const auto& buffer) { return buffer->strategy(); }) == MemoryStrategy::map_host_memory;
}

py::tuple dlpack_device(const PyBuffer& b) {
  if (!host_visible(b))
    refuse(
        "Buffer.__dlpack_device__: the buffer lives in device memory, which DLPack's CPU consumers cannot "
        "read in place; use Buffer.to_numpy() for a copy");
  return py::make_tuple(dlpack::kCpu, 0);
}

py::capsule dlpack_capsule(const PyBuffer& b, const py::object& stream) {
  return dlpack_shaped(b, stream, {std::int64_t(b.size())});
}

py::capsule dlpack_shaped(const PyBuffer& b, const py::object& stream, const std::vector<std::int64_t>& shape) {
  dlpack_device(b);  // refuses device memory
  if (!stream.is_none())
    refuse("Buffer.__dlpack__: stream must be None for CPU memory (the buffer is mapped, its writes done)");
  if (*b.maps)  // OpenCL leaves two mappings of memory written through either undefined
    refuse(
        "Buffer.__dlpack__: the buffer is mapped already (an array from Buffer.map() or an earlier export "
        "still holds it)");
  dlpack::ManagedTensor* t = b.visit([&](const auto& buffer) { return export_buffer(b, buffer, shape); });
  PyObject* capsule = PyCapsule_New(t, "dltensor", unconsumed);
  if (!capsule) {
    t->deleter(t);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(capsule);
}

}  // namespace portacl::python
