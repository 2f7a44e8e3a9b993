// SPDX-License-Identifier: Apache-2.0
// The library's own version, compiled in (see portacl/version.hpp).
#include "portacl/version.hpp"

namespace portacl {

const char* version() { return PORTACL_VERSION_STRING; }

}  // namespace portacl
