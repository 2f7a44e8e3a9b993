// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/particles.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/kernels/particles/nbody.hpp is deprecated: include portacl/particles.hpp")
#include "portacl/particles.hpp"
