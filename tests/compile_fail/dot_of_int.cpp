// SPDX-License-Identifier: Apache-2.0
// Must not compile: dot is built for float and double only (sum takes int
// too; dot does not). The compiler's message must say so (ctest
// compile.unsupported_element), rather than the program failing to link.
#include <portacl/portacl.hpp>

int main() {
  portacl::Context ctx;
  portacl::Buffer<int> x(ctx, 10);
  return portacl::dot(ctx, x, x);
}
