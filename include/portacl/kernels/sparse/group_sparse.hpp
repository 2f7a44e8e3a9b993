// SPDX-License-Identifier: Apache-2.0
/// \file
/// A square sparse matrix spread over a device group by rows, its product
/// with a GroupVector, and conjugate gradients on it. Each member holds
/// the contiguous rows of the group's split (rule group.split), kept as the
/// columns inside its rows and the columns of other members' rows (its
/// halo). A product packs and sends every member's halo entries through
/// pinned host memory while the members multiply their interior; the halo
/// part is added when it arrives. CG's two dot products an iteration are
/// the members' partial dots, added on the host in member order (double).
///
/// Results: the same as the single-device product and solver up to the
/// order of additions (the halo's terms are added after the interior's, and
/// the dots in parts), so within float rounding, not bit for bit.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "portacl/kernels/group_vector.hpp"
#include "portacl/kernels/sparse/host_csr.hpp"
#include "portacl/kernels/sparse/krylov.hpp"
#include "portacl/runtime/device_group.hpp"

namespace portacl {

template <class T>
class GroupSparseMatrix {
  using built = only_for<T, float, double>;

 public:
  /// `csr` split by the group's current weights. Throws portacl::Error for
  /// a malformed csr (csr_problem) or one that is not square (a group
  /// splits x and y alike).
  GroupSparseMatrix(DeviceGroup& group, const HostCsr<T>& csr);
  /// A Matrix Market file, as SparseMatrix::from_file reads it.
  static GroupSparseMatrix from_file(DeviceGroup& group, const std::string& path);

  std::size_t rows() const;
  std::size_t nnz() const;
  DeviceGroup& group() const;
  /// Member i's rows: offsets()[i] to offsets()[i + 1].
  const std::vector<std::size_t>& offsets() const;
  /// Entries of x member i receives from others each product.
  std::size_t halo_size(std::size_t member) const;
  /// "" when A equals its transpose to a few roundings, else the first pair
  /// that differs (as SparseMatrix::asymmetry()).
  const std::string& asymmetry() const;
  /// A line a member: its rows, entries, halo, and the split's reason.
  std::string describe() const;
  /// Seconds in the halo exchange: from the moment every member had packed
  /// its halo entries to the moment every halo was written, summed over
  /// products (the interior products run meanwhile, hiding part of it).
  double exchange_seconds() const;

  struct State;
  State& state() const { return *state_; }

 private:
  std::shared_ptr<State> state_;
};

/// y = alpha A x + beta y over the group (beta = 0 never reads y). x and y
/// must be split like A. Errors: vectors of another group or split, x and
/// y the same vector.
template <class T, class = only_for<T, float, double>>
void group_spmv(T alpha, const GroupSparseMatrix<T>& a, const GroupVector<T>& x, T beta, GroupVector<T>& y);

/// Conjugate gradients over the group, with SolverOptions' tolerance,
/// relative-residual criterion, iteration limit and Jacobi
/// preconditioning; it checks every iteration (the host has both dots
/// anyway). Errors: those of group_spmv, the max_residual criterion
/// (refused by name: the group computes the 2-norm only), a zero on the
/// diagonal with Jacobi, a tolerance that is negative or not a number.
/// A not symmetric: result.warning, as cg's.
template <class T, class = only_for<T, float, double>>
SolverResult group_cg(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, GroupVector<T>& x,
                      const SolverOptions& options = {});

}  // namespace portacl
