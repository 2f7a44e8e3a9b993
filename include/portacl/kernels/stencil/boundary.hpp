// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/stencil.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/kernels/stencil/boundary.hpp is deprecated: include portacl/stencil.hpp")
#include "portacl/stencil.hpp"
