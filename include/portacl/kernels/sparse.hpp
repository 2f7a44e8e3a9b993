// SPDX-License-Identifier: Apache-2.0
/// \file
/// The sparse family: CSR matrices from host data or Matrix Market files,
/// y = alpha A x + beta y by the method the rules (or a tuning record) pick,
/// structure statistics, and the CG and BiCGStab solvers.
#pragma once

#include "portacl/kernels/sparse/host_csr.hpp"
#include "portacl/kernels/sparse/krylov.hpp"
#include "portacl/kernels/sparse/matrix.hpp"
#include "portacl/kernels/sparse/matrix_market.hpp"
#include "portacl/kernels/sparse/sparsity.hpp"
