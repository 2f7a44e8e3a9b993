// SPDX-License-Identifier: Apache-2.0
// pyopencl interop by raw OpenCL handles (pyopencl's int_ptr and
// from_int_ptr): a portacl Context on pyopencl's context and queue, a
// portacl Buffer on a pyopencl buffer's memory, and portacl's handles handed
// out. No copies: both libraries then work on the same memory, in the
// queue's order. Every handle taken is retained, so neither side's release
// frees what the other still holds.
#include "bindings.hpp"

namespace portacl::python {

namespace {

std::uintptr_t handle_of(const py::object& o, const char* what) {
  if (!py::hasattr(o, "int_ptr"))
    throw py::type_error(std::string(what) + ": a pyopencl object with int_ptr is needed, not " +
                         py::str(py::type::of(o)).cast<std::string>());
  return o.attr("int_ptr").cast<std::uintptr_t>();
}

}  // namespace

void bind_interop(py::module_& m) {
  m.def("_context_on", [](const py::object& queue) {
    const auto q = reinterpret_cast<cl_command_queue>(handle_of(queue, "context_from_pyopencl"));
    cl_context c = nullptr;
    check_cl(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, nullptr), "the pyopencl queue's context");
    return std::make_shared<Context>(cl::Context(c, true), cl::CommandQueue(q, true));
  });
  m.def("_handles", [](Context& ctx) {
    return py::make_tuple(reinterpret_cast<std::uintptr_t>(ctx.cl_context()()),
                          reinterpret_cast<std::uintptr_t>(ctx.queue()()));
  });
  // n elements of the memory (0: as many as it holds).
  m.def("_buffer_on",
        [](const std::shared_ptr<Context>& ctx, const py::object& memory, const std::string& dtype, std::size_t n) {
          const cl::Buffer mem(reinterpret_cast<cl_mem>(handle_of(memory, "buffer_from_pyopencl")), true);
          const std::size_t bytes = mem.getInfo<CL_MEM_SIZE>();
          PyBuffer b;
          b.ctx = ctx;
          const py::object like = py::module_::import("numpy").attr("empty")(0, dtype);
          by_number_dtype("buffer_from_pyopencl", like, [&](auto tag) {
            using T = decltype(tag);
            b.data = std::make_shared<Buffer<T>>(*ctx, mem, n ? n : bytes / sizeof(T));
          });
          return b;
        });
  m.def("_memory_of", [](const PyBuffer& b) {
    return reinterpret_cast<std::uintptr_t>(b.visit([](const auto& buffer) { return buffer->cl_buffer()(); }));
  });
}

}  // namespace portacl::python
