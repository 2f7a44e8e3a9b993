// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/device.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/runtime/device.hpp is deprecated: include portacl/device.hpp")
#include "portacl/device.hpp"
