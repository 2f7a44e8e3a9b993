// SPDX-License-Identifier: Apache-2.0
// Choosing a device: list them, pick by a selector, or by your own test.
#include <cstdio>

#include <portacl/portacl.hpp>

int main() {
  for (const portacl::Device& d : portacl::all_devices()) std::printf("%s\n", d.describe().c_str());

  // A selector, as PORTACL_DEVICE takes it: conditions that must all hold.
  // "gpu,fp64", "name=H100", "pocl", "cpu", "1:0" ...
  portacl::Device any = portacl::select_device("");  // PORTACL_DEVICE, else a GPU, else the first
  std::printf("default: %s\n", any.info().name.c_str());

  // Or a predicate: the device with the most compute units.
  unsigned most = 0;
  for (const portacl::Device& d : portacl::all_devices()) most = std::max(most, d.info().compute_units);
  portacl::Device biggest =
      portacl::select_device([&](const portacl::Device& d) { return d.info().compute_units == most; });
  std::printf("most compute units (%u): %s, class %s\n", most, biggest.info().name.c_str(),
              portacl::to_string(biggest.classification().device_class).c_str());

  portacl::Context ctx(biggest);  // everything else follows from the device
  return ctx.info().compute_units == most ? 0 : 1;
}
