// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/element_type.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/util/element_type.hpp is deprecated: include portacl/element_type.hpp")
#include "portacl/element_type.hpp"
