// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/json.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/util/json.hpp is deprecated: include portacl/json.hpp")
#include "portacl/json.hpp"
