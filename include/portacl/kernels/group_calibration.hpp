// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/group.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/kernels/group_calibration.hpp is deprecated: include portacl/group.hpp")
#include "portacl/group.hpp"
