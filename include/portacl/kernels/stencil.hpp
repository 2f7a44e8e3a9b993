// SPDX-License-Identifier: Apache-2.0
/// \file
/// The stencil family: the 2D heat equation, 3D stencils (the star and
/// general offsets), 1D and 2D convolution, and normalised cross-correlation,
/// with their boundary conditions.
#pragma once

#include "portacl/kernels/stencil/boundary.hpp"
#include "portacl/kernels/stencil/convolution.hpp"
#include "portacl/kernels/stencil/heat2d.hpp"
#include "portacl/kernels/stencil/ncc.hpp"
#include "portacl/kernels/stencil/stencil3d.hpp"
