// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/blas.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/kernels/gemm.hpp is deprecated: include portacl/blas.hpp")
#include "portacl/blas.hpp"
