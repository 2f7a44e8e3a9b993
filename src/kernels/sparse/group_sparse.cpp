// SPDX-License-Identifier: Apache-2.0
// The row-partitioned matrix over a device group and its product: halos
// posted, interiors multiplied, halos completed and their terms added.
#include <sstream>

#include "kernels/sparse/group_sparse_state.hpp"
#include "kernels/sparse/row_partition.hpp"
#include "portacl/error.hpp"
#include "portacl/sparse.hpp"

namespace portacl {

template <class T>
GroupSparseMatrix<T>::GroupSparseMatrix(DeviceGroup& group, const HostCsr<T>& csr) : state_(std::make_shared<State>()) {
  const std::string problem = csr_problem(csr);
  if (!problem.empty()) throw Error("GroupSparseMatrix: " + problem);
  if (csr.rows != csr.cols)
    throw Error("GroupSparseMatrix: A is " + std::to_string(csr.rows) + " x " + std::to_string(csr.cols) +
                "; a group splits x and y alike, so A must be square");
  State& s = *state_;
  s.group = &group;
  s.rows = csr.rows;
  s.nnz = csr.nnz();
  s.offsets = group.split(csr.rows);
  s.asymmetry = portacl::asymmetry(csr);
  const RowPartition<T> p = partition_rows(csr, s.offsets);
  std::ostringstream text;
  for (std::size_t m = 0; m < group.size(); ++m) {
    const RowBlock<T>& b = p.blocks[m];
    Context& ctx = group.context(m);
    s.interior.push_back(b.rows ? std::make_unique<SparseMatrix<T>>(ctx, b.local) : nullptr);
    s.halo.push_back(b.halo.nnz() ? std::make_unique<HaloProduct<T>>(ctx, b.halo) : nullptr);
    s.diagonal.push_back(block_diagonal(b));
    text << "member " << m << ": rows " << b.first_row << " to " << b.first_row + b.rows << " (" << b.rows << "), "
         << b.local.nnz() + b.halo.nnz() << " entries, " << b.halo_columns.size() << " halo entries received\n";
  }
  text << group.explain_split(csr.rows);
  s.description = text.str();
  s.exchange = std::make_unique<HaloExchange<T>>(group, p);
}

template <class T>
GroupSparseMatrix<T> GroupSparseMatrix<T>::from_file(DeviceGroup& group, const std::string& path) {
  return GroupSparseMatrix(group, csr_from_entries<T>(general_entries(read_matrix_market(path))));
}

template <class T>
std::size_t GroupSparseMatrix<T>::rows() const {
  return state_->rows;
}
template <class T>
std::size_t GroupSparseMatrix<T>::nnz() const {
  return state_->nnz;
}
template <class T>
DeviceGroup& GroupSparseMatrix<T>::group() const {
  return *state_->group;
}
template <class T>
const std::vector<std::size_t>& GroupSparseMatrix<T>::offsets() const {
  return state_->offsets;
}
template <class T>
std::size_t GroupSparseMatrix<T>::halo_size(std::size_t member) const {
  return state_->exchange->halo_size(member);
}
template <class T>
const std::string& GroupSparseMatrix<T>::asymmetry() const {
  return state_->asymmetry;
}
template <class T>
std::string GroupSparseMatrix<T>::describe() const {
  return state_->description;
}
template <class T>
double GroupSparseMatrix<T>::exchange_seconds() const {
  return state_->exchange->exchange_seconds();
}

namespace {

template <class T>
void check_split_like(const char* op, const GroupSparseMatrix<T>& a, const GroupVector<T>& v, const char* name) {
  if (&v.group() != &a.group()) throw Error(std::string(op) + ": " + name + " is spread over another device group");
  if (v.size() != a.rows())
    throw Error(std::string(op) + ": " + name + " has " + std::to_string(v.size()) + " elements but A has " +
                std::to_string(a.rows()) + " rows");
  if (v.offsets() != a.offsets())
    throw Error(std::string(op) + ": " + name +
                " was split with other weights than A; their parts do not line up (make both after set_weights)");
}

}  // namespace

template <class T, class>
void group_spmv(T alpha, const GroupSparseMatrix<T>& a, const GroupVector<T>& x, T beta, GroupVector<T>& y) {
  check_split_like("group_spmv", a, x, "x");
  check_split_like("group_spmv", a, y, "y");
  if (&x == &y) throw Error("group_spmv: x and y are the same vector; every y element reads many of x");
  auto& s = a.state();
  DeviceGroup& group = a.group();
  std::vector<const Buffer<T>*> own;
  for (std::size_t m = 0; m < group.size(); ++m) own.push_back(&x.part(m));
  s.exchange->post(own);
  for (std::size_t m = 0; m < group.size(); ++m)
    if (s.interior[m]) spmv(group.context(m), alpha, *s.interior[m], x.part(m), beta, y.part(m));
  s.exchange->complete();
  for (std::size_t m = 0; m < group.size(); ++m)
    if (s.halo[m]) s.halo[m]->add(alpha, s.exchange->halo(m), y.part(m));
}

template class GroupSparseMatrix<float>;
template class GroupSparseMatrix<double>;
template void group_spmv<float>(float, const GroupSparseMatrix<float>&, const GroupVector<float>&, float,
                                GroupVector<float>&);
template void group_spmv<double>(double, const GroupSparseMatrix<double>&, const GroupVector<double>&, double,
                                 GroupVector<double>&);

}  // namespace portacl
