// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/plan.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/rules/sparse_method.hpp is deprecated: include portacl/plan.hpp")
#include "portacl/plan.hpp"
