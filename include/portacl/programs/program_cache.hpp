// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/programs.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/programs/program_cache.hpp is deprecated: include portacl/programs.hpp")
#include "portacl/programs.hpp"
