// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/context.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/runtime/device_group.hpp is deprecated: include portacl/context.hpp")
#include "portacl/context.hpp"
