// SPDX-License-Identifier: Apache-2.0
// A Buffer's memory handed to another library through DLPack without a
// copy, where the buffer lives in host memory (CPU devices, whose plans map
// it): the producer side of the protocol, __dlpack__ and __dlpack_device__.
// The structs are DLPack's stable C ABI (its unversioned "dltensor"
// capsule, which NumPy 1.22 and later and PyTorch read).
#pragma once

#include <cstdint>
#include <memory>

#include "arrays.hpp"

namespace portacl::python {

namespace dlpack {

struct Device {
  std::int32_t device_type;  // 1: CPU memory
  std::int32_t device_id;
};
struct DataType {
  std::uint8_t code;  // 2: IEEE float
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct Tensor {
  void* data;
  Device device;
  std::int32_t ndim;
  DataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // null: C order
  std::uint64_t byte_offset;
};
struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor*);
};
constexpr std::int32_t kCpu = 1;

}  // namespace dlpack

/// Whether the buffer's memory is host memory a DLPack consumer may read
/// in place (its plan maps it: CPU devices).
bool host_visible(const PyBuffer& b);

/// (device type, device id) for __dlpack_device__: (1, 0) where the memory
/// is host-visible; BufferError (the protocol's refusal) elsewhere.
py::tuple dlpack_device(const PyBuffer& b);

/// The "dltensor" capsule over the buffer's mapped memory: the buffer is
/// refused by calls until the consumer lets the tensor go. BufferError where
/// the memory is not host-visible or a stream is given.
py::capsule dlpack_capsule(const PyBuffer& b, const py::object& stream);
/// The same with a C-order `shape` over the buffer's elements (an Array's):
/// its product is the buffer's length (the caller has checked).
py::capsule dlpack_shaped(const PyBuffer& b, const py::object& stream, const std::vector<std::int64_t>& shape);

}  // namespace portacl::python
