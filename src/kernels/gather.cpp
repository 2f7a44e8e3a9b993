// SPDX-License-Identifier: Apache-2.0
#include "kernels/gather.hpp"

#include "kernel_call.hpp"
#include "kernels/stream_tunables.hpp"

namespace portacl {

template <class T>
void gather(Context& ctx, const Buffer<std::uint32_t>& index, const Buffer<T>& x, Buffer<T>& y) {
  kernel_call::same_length("gather", "index", index.size(), "y", y.size());
  // Read: an index and an element; written: one. The kernel ignores the
  // plan's vector width (scattered reads), and shares stream.cl's program.
  KernelTraits traits = stream_traits("gather", element_of<T>::value, 2, 0);
  traits.bytes_per_item += sizeof(std::uint32_t);
  kernel_call::launch_1d(ctx, stream_kernel("gather"), traits, y.size(), PlanOptions{}, index, x, y);
}

template void gather<float>(Context&, const Buffer<std::uint32_t>&, const Buffer<float>&, Buffer<float>&);
template void gather<double>(Context&, const Buffer<std::uint32_t>&, const Buffer<double>&, Buffer<double>&);

}  // namespace portacl
