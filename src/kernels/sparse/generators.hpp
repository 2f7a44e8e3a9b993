// SPDX-License-Identifier: Apache-2.0
/// \file
/// Sparse test matrices with known structure, built straight into CSR: the
/// matrices portacl-bench measures and the solvers are tested on. Rows and
/// columns are numbered x fastest, then y, then z.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portacl/kernels/sparse/host_csr.hpp"

namespace portacl {

/// The 5-point Laplacian on an n x n grid (Dirichlet boundary): 4 on the
/// diagonal, -1 for each neighbour. Symmetric positive definite.
template <class T, class = only_for<T, float, double>>
HostCsr<T> poisson2d(std::size_t n);

/// The 27-point Laplacian on an n x n x n grid: 26 on the diagonal, -1 for
/// each of the up to 26 neighbours. Symmetric positive definite.
template <class T, class = only_for<T, float, double>>
HostCsr<T> poisson3d27(std::size_t n);

/// The 2D convection-diffusion operator -laplace(u) + c . grad(u) on an
/// n x n grid, first-order upwind for the convection (c = (peclet,
/// peclet / 2) in grid units): non-symmetric, diagonally dominant.
template <class T, class = only_for<T, float, double>>
HostCsr<T> convection_diffusion2d(std::size_t n, double peclet);

/// `rows` square rows whose lengths follow a power law (most rows short, a
/// few very long; P(length >= k) ~ k^-2, capped at the row count) with
/// about `mean` entries per row, on uniformly random distinct columns,
/// values in [-1, 1). The same seed gives the same matrix.
template <class T, class = only_for<T, float, double>>
HostCsr<T> power_law_rows(std::size_t rows, double mean, std::uint64_t seed);

}  // namespace portacl
