// SPDX-License-Identifier: Apache-2.0
#include "aliasing.hpp"

#include <algorithm>
#include <string>

#include "portacl/error.hpp"

namespace portacl {
namespace aliasing {

namespace {

// Where a memory object's bytes live: the root object (a sub-buffer's
// parent; OpenCL has no deeper nesting) and the offset in it, or the host
// memory a CL_MEM_USE_HOST_PTR buffer uses.
struct Place {
  const void* base = nullptr;  ///< root cl_mem, or host address space (nullptr)
  std::size_t offset = 0;      ///< bytes from the root's start, or the host address
};

template <class V>
V mem_info(cl_mem m, cl_mem_info what) {
  V v{};
  if (clGetMemObjectInfo(m, what, sizeof v, &v, nullptr) != CL_SUCCESS) return V{};
  return v;
}

Place place_of(cl_mem m) {
  const cl_mem parent = mem_info<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT);
  const cl_mem root = parent ? parent : m;
  const std::size_t offset = parent ? mem_info<std::size_t>(m, CL_MEM_OFFSET) : 0;
  if (mem_info<cl_mem_flags>(root, CL_MEM_FLAGS) & CL_MEM_USE_HOST_PTR) {
    if (void* host = mem_info<void*>(root, CL_MEM_HOST_PTR))
      return Place{nullptr, reinterpret_cast<std::size_t>(host) + offset};
  }
  return Place{root, offset};
}

std::string describe(Overlap o) { return o == Overlap::same ? "the same memory" : "overlapping memory"; }

}  // namespace

Touched strided(const BufferStorage& b, std::size_t element, std::size_t offset, std::size_t n, std::size_t inc) {
  if (n == 0) return Touched{b, 0, 0};
  return Touched{b, offset * element, ((n - 1) * inc + 1) * element};
}

Overlap overlap(const Touched& a, const Touched& b) {
  if (a.count == 0 || b.count == 0) return Overlap::none;
  std::size_t a_first = a.first, b_first = b.first;
  if (&a.buffer != &b.buffer) {
    const cl_mem ma = a.buffer.cl_buffer()(), mb = b.buffer.cl_buffer()();
    if (!ma || !mb) return Overlap::none;
    if (ma != mb) {
      const Place pa = place_of(ma), pb = place_of(mb);
      if (pa.base != pb.base) return Overlap::none;
      a_first += pa.offset;
      b_first += pb.offset;
    }
  }
  if (a_first >= b_first + b.count || b_first >= a_first + a.count) return Overlap::none;
  return a_first == b_first && a.count == b.count ? Overlap::same : Overlap::partial;
}

void refuse_overlap(const char* op, const Touched& written, const char* written_name, const Touched& read,
                    const char* read_name, const char* why) {
  const Overlap o = overlap(written, read);
  if (o != Overlap::none)
    throw Error(std::string(op) + ": " + written_name + " and " + read_name + " share " + describe(o) +
                " (the same buffer, a handle to it or a sub-buffer of it): " + why + "; give " + written_name +
                " a buffer of its own");
}

void refuse_shifted_overlap(const char* op, const Touched& written, const char* written_name, const Touched& read,
                            const char* read_name) {
  if (overlap(written, read) == Overlap::partial)
    throw Error(std::string(op) + ": " + written_name + " and " + read_name +
                " overlap at different offsets (sub-buffers or offsets of one buffer): element i of " + written_name +
                " would overwrite an element of " + read_name +
                " another work-item still reads; use the same "
                "elements (in place) or separate memory");
}

}  // namespace aliasing
}  // namespace portacl
