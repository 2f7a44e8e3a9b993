// SPDX-License-Identifier: Apache-2.0
/// \file
/// Sparse test matrices with known structure, built straight into CSR: the
/// matrices portacl-bench measures and the solvers are tested on. Rows and
/// columns are numbered x fastest, then y, then z.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portacl/sparse.hpp"

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

/// A web-like graph: `rows` square rows with Zipf(2) lengths
/// (P(length = k) ~ k^-2, capped at 100000 and the row count: mean about
/// 7, a few rows of 10^5 entries), 70% of each row's columns within 512 of
/// the diagonal and the rest anywhere; values in [-1, 1).
template <class T, class = only_for<T, float, double>>
HostCsr<T> web_graph(std::size_t rows, std::uint64_t seed);

/// A circuit-like matrix: a diagonal (4) and 2 random entries (-1) a row,
/// and 16 hub nodes (supply nets), each joined to rows / 16 random nodes in
/// both its row and its column: 16 dense rows and 16 dense columns.
template <class T, class = only_for<T, float, double>>
HostCsr<T> circuit(std::size_t rows, std::uint64_t seed);

/// P A P^T for a random permutation P (rows and columns renumbered alike):
/// the same operator, its band scattered. Symmetric where A is.
template <class T, class = only_for<T, float, double>>
HostCsr<T> permuted_symmetric(const HostCsr<T>& a, std::uint64_t seed);

/// A tall rows x cols matrix with `per_row` distinct random columns a row,
/// values in [-1, 1).
template <class T, class = only_for<T, float, double>>
HostCsr<T> tall_random(std::size_t rows, std::size_t cols, std::size_t per_row, std::uint64_t seed);

/// 3 unknowns per node of an n x n x n grid, 27-point connectivity: the
/// 27-point Laplacian times [[3,1,1],[1,3,1],[1,1,3]] (a Kronecker
/// product), unknowns of a node numbered together. Symmetric positive
/// definite; up to 81 entries a row.
template <class T, class = only_for<T, float, double>>
HostCsr<T> block_poisson3d(std::size_t n);

}  // namespace portacl
