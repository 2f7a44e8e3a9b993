// SPDX-License-Identifier: Apache-2.0
// Deprecated: moved to portacl/mpi.hpp in 0.2.0; this forward is removed in 0.3.0.
#pragma once
#pragma message("portacl/mpi/distributed_cg.hpp is deprecated: include portacl/mpi.hpp")
#include "portacl/mpi.hpp"
