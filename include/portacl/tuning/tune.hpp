// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/tuning.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/tuning/tune.hpp is deprecated: include portacl/tuning.hpp")
#include "portacl/tuning.hpp"
