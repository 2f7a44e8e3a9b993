// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/sparse.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/kernels/sparse/krylov.hpp is deprecated: include portacl/sparse.hpp")
#include "portacl/sparse.hpp"
