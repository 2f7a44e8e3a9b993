// SPDX-License-Identifier: Apache-2.0
/// \file
/// What tools built on portacl need beyond the user API: the binary cache,
/// the tuning database and tuning spaces, the timing shared by the tuner and
/// the benchmark, and the reference problem shapes portacl-query plans.
/// (The operation list the tuner and the benchmark run, with its test
/// workloads, is internal to the build tree: src/tuning/operations.hpp.)
#pragma once

#include "portacl/portacl.hpp"
#include "portacl/kernels/reference_shapes.hpp"
#include "portacl/programs/program_cache.hpp"
#include "portacl/rules/tuning_database.hpp"
#include "portacl/rules/quirks.hpp"
#include "portacl/rules/tuning_space.hpp"
#include "portacl/tuning/timing.hpp"
