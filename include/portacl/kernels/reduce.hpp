// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/vectors.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/kernels/reduce.hpp is deprecated: include portacl/vectors.hpp")
#include "portacl/vectors.hpp"
