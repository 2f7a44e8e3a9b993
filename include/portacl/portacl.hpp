// SPDX-License-Identifier: Apache-2.0
/// \file
/// Everything a user of portacl needs, in one include: devices, contexts and
/// buffers, the kernel library (a header per family: portacl/vectors.hpp,
/// blas.hpp, sparse.hpp, ...), plans and their explanations. What the tools and tests
/// need beyond this (tuning spaces, the tuning database, kernel traits,
/// reference shapes) is build-tree internal: src/tooling.hpp.
#pragma once

// The core: errors, devices, plans and rules, programs, contexts and
// device groups, buffers, tuning, the version.
#include "portacl/buffer.hpp"
#include "portacl/cl.hpp"
#include "portacl/context.hpp"
#include "portacl/device.hpp"
#include "portacl/element_type.hpp"
#include "portacl/error.hpp"
#include "portacl/json.hpp"
#include "portacl/plan.hpp"
#include "portacl/programs.hpp"
#include "portacl/tuning.hpp"
#include "portacl/version.hpp"
// The families, one header each (the MPI layer, portacl/mpi.hpp, is apart:
// it needs MPI and libportacl_mpi).
#include "portacl/blas.hpp"
#include "portacl/fft.hpp"
#include "portacl/group.hpp"
#include "portacl/ml.hpp"
#include "portacl/particles.hpp"
#include "portacl/sparse.hpp"
#include "portacl/stencil.hpp"
#include "portacl/vectors.hpp"
