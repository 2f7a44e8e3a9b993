// SPDX-License-Identifier: Apache-2.0
#include "portacl/stencil.hpp"

namespace portacl {

std::string to_string(Boundary b) {
  switch (b) {
    case Boundary::valid: return "valid";
    case Boundary::zero: return "zero";
    case Boundary::clamp: return "clamp";
  }
  return "?";
}

}  // namespace portacl
