// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/buffer.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/runtime/host_buffer.hpp is deprecated: include portacl/buffer.hpp")
#include "portacl/buffer.hpp"
