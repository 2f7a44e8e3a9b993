// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/ml.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/kernels/ml/pooling.hpp is deprecated: include portacl/ml.hpp")
#include "portacl/ml.hpp"
