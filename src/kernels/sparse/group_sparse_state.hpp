// SPDX-License-Identifier: Apache-2.0
// What a GroupSparseMatrix holds: each member's interior and halo
// matrices on its own context, and the exchange that fills the halos.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/sparse/halo_exchange.hpp"
#include "kernels/sparse/halo_product.hpp"
#include "portacl/sparse.hpp"

namespace portacl {

template <class T>
struct GroupSparseMatrix<T>::State {
  DeviceGroup* group = nullptr;
  std::size_t rows = 0, nnz = 0;
  std::vector<std::size_t> offsets;
  std::string asymmetry, description;
  std::vector<std::unique_ptr<SparseMatrix<T>>> interior;  ///< null where a member has none
  std::vector<std::unique_ptr<HaloProduct<T>>> halo;       ///< null where a member has none
  std::vector<std::vector<T>> diagonal;                    ///< each member's, for Jacobi
  std::unique_ptr<HaloExchange<T>> exchange;
};

}  // namespace portacl
