// SPDX-License-Identifier: Apache-2.0
/// \file
/// The sparse family: CSR matrices from host data or Matrix Market files,
/// y = alpha A x + beta y by the method the rules (or a tuning record) pick,
/// structure statistics, the CG and BiCGStab solvers, and their device-group forms.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "portacl/group.hpp"
#include "portacl/plan.hpp"
#include "portacl/vectors.hpp"

// ---- matrix market -----------------------------------------------------------
/// Matrix Market files (NIST's exchange format, the one SuiteSparse ships):
/// the matrix exactly as a file stores it, and the general entries it means.
/// Read: "coordinate" (real, integer, pattern) and "array" (real, integer),
/// each general, symmetric or skew-symmetric. Complex and Hermitian
/// matrices, and vectors, are refused. A malformed file gives
/// portacl::Error naming the file and line, and no partial matrix.
namespace portacl {

/// The largest row or column count: indices are 32-bit signed on the device,
/// with -1 free to mark padding (ELL).
constexpr std::size_t kMaxSparseDimension = 0x7fffffff;

/// A Matrix Market file's matrix, as the file stores it.
struct MatrixMarket {
  /// The header's storage: entries by coordinates, or every element in order.
  enum class Format { coordinate, array };
  /// The header's value kind (pattern: no values, each entry 1).
  enum class Field { real, integer, pattern };
  /// The header's symmetry: which triangle the file stores.
  enum class Symmetry { general, symmetric, skew_symmetric };
  Format format = Format::coordinate;     ///< from the header
  Field field = Field::real;              ///< from the header
  Symmetry symmetry = Symmetry::general;  ///< from the header
  std::size_t rows = 0;                   ///< the matrix's rows
  std::size_t cols = 0;                   ///< its columns
  /// The stored entries in file order, 0-based: for symmetric files the
  /// lower triangle, for skew-symmetric ones the strict lower triangle, for
  /// arrays every stored element (column by column). Pattern entries are 1;
  /// integers are held exactly (|v| <= 2^53).
  std::vector<std::uint32_t> row;
  std::vector<std::uint32_t> col;  ///< each stored entry's column, as `row` holds its row
  std::vector<double> value;       ///< each stored entry's value

  std::size_t stored() const { return value.size(); }  ///< the entries stored
  /// The same header and entries, in the same order.
  bool operator==(const MatrixMarket& o) const;
  /// Some header field or entry differs.
  bool operator!=(const MatrixMarket& o) const { return !(*this == o); }
};

/// The matrix a file means as general coordinate entries: symmetric entries
/// mirrored, skew-symmetric ones mirrored negated, an array's zeros dropped
/// (a coordinate file's explicit zeros stay). Entries keep the file's order,
/// each mirror right after its original; duplicates stay (whoever builds a
/// matrix from them decides: portacl's sparse formats add them).
struct CooEntries {
  std::size_t rows = 0;            ///< the matrix's rows
  std::size_t cols = 0;            ///< its columns
  std::vector<std::uint32_t> row;  ///< each entry's row, 0-based
  std::vector<std::uint32_t> col;  ///< each entry's column, 0-based
  std::vector<double> value;       ///< each entry's value
};
/// The general entries `m` means (above).
CooEntries general_entries(const MatrixMarket& m);

/// `text` as a Matrix Market file; `name` (a path) prefixes every error.
MatrixMarket parse_matrix_market(const std::string& text, const std::string& name);
/// The regular file at `path`, streamed (files of several GB are common).
MatrixMarket read_matrix_market(const std::string& path);

/// The file text for `m`: values with 17 significant digits, so reading it
/// back gives `m` exactly.
std::string format_matrix_market(const MatrixMarket& m);
/// Written atomically: a reader never sees half a file. Throws portacl::Error.
void write_matrix_market(const std::string& path, const MatrixMarket& m);

}  // namespace portacl

// ---- host csr ----------------------------------------------------------------
/// A sparse matrix in compressed sparse rows on the host: what a program
/// hands over (or a Matrix Market file becomes) before the device formats
/// are built from it, and what they convert back to.
namespace portacl {

/// A sparse matrix in CSR form in host memory (above).
template <class T>
struct HostCsr {
  std::size_t rows = 0;                             ///< the matrix's rows
  std::size_t cols = 0;                             ///< its columns
  std::vector<std::uint64_t> row_ptr;               ///< rows + 1 offsets into col and value; row_ptr[0] = 0
  std::vector<std::uint32_t> col;                   ///< each entry's column, strictly ascending within a row
  std::vector<T> value;                             ///< each entry's value
  std::size_t nnz() const { return value.size(); }  ///< the stored entries
};

/// From coordinate entries in any order: sorted by row, then column;
/// duplicates added (in double, rounded once to T); explicit zeros kept.
/// Throws portacl::Error for an entry outside the matrix.
template <class T, class = only_for<T, float, double>>
HostCsr<T> csr_from_entries(const CooEntries& entries);

/// The entries again, row by row, columns ascending.
template <class T, class = only_for<T, float, double>>
CooEntries entries_of(const HostCsr<T>& csr);

/// "" when `csr` is well formed, else the first problem: sizes that do not
/// match, row_ptr not starting at 0 or decreasing, a column out of range or
/// not ascending within its row, dimensions beyond 32-bit indices.
template <class T, class = only_for<T, float, double>>
std::string csr_problem(const HostCsr<T>& csr);

}  // namespace portacl

// ---- sparsity ----------------------------------------------------------------
/// What a sparse matrix's structure looks like, computed once per structure
/// on the host: row-length statistics, the rows in each length bin (the
/// bins the adaptive CSR SpMV launches a kernel for), and blocks of whole
/// rows holding about equal numbers of entries (how row-blocked and CPU
/// kernels share out work). The SpMV choice reads it.
namespace portacl {

/// The statistics the SpMV rules read (rows_with_at_least included;
/// diagonals from count_diagonals).
using SparsityProfile = SparseShape;

/// From a CSR row-pointer array (rows + 1 ascending offsets, starting at 0);
/// cols and diagonals are left 0.
SparsityProfile profile_rows(const std::vector<std::uint64_t>& row_ptr);

/// The bin of a row of `length` entries.
std::size_t row_length_bin(std::uint64_t length);

/// Occupied diagonals of a rows x cols matrix in CSR: the distinct values
/// of column - row.
std::size_t count_diagonals(std::size_t rows, std::size_t cols, const std::vector<std::uint64_t>& row_ptr,
                            const std::vector<std::uint32_t>& col);

/// "" when a square CSR matrix equals its transpose, entry for entry, to a
/// few roundings of T (|a_ij - a_ji| <= 16 eps max(|a_ij|, |a_ji|)); else
/// the first pair that differs ("(3, 7) is 1.5 but (7, 3) is 2", or "(7, 3)
/// is absent"), or why a non-square matrix is not symmetric. Columns must
/// ascend within rows (csr_problem). One binary search per entry.
template <class T>
std::string asymmetry(const HostCsr<T>& csr);

/// Boundaries of consecutive blocks of whole rows, each holding at most
/// `target_nnz` entries unless it is a single longer row: block b covers
/// rows [bounds[b], bounds[b + 1]). Every row is in exactly one block;
/// no block is empty unless there are no rows. target_nnz 0 counts as 1.
/// `max_rows` (0 counts as 1) caps the rows of a block: a kernel that
/// gives a block to one work-group walks its rows, so a run of empty rows
/// (the halo part of a row block, a matrix of mostly empty rows) must not
/// pile into one block.
std::vector<std::size_t> equal_nnz_row_blocks(const std::vector<std::uint64_t>& row_ptr, std::uint64_t target_nnz,
                                              std::size_t max_rows = SIZE_MAX);

/// The merge path's tiles: the rows' ends and the entries merged in order
/// (a row's end after its entries) are rows + nnz items, cut into tiles of
/// `items` (the last one shorter). tile_rows[t] is how many rows end
/// before item t * items, so tile t starts at row tile_rows[t] and entry
/// t * items - tile_rows[t]; the list ends with rows. Throws
/// portacl::Error for items 0 or row pointers that are not rows + 1
/// ascending offsets.
std::vector<std::size_t> merge_path_tile_rows(const std::vector<std::uint64_t>& row_ptr, std::uint64_t items);

}  // namespace portacl

// ---- matrix ------------------------------------------------------------------
/// A sparse matrix on the device, owned by a Context, and its product with
/// a vector: y = alpha * A x + beta * y (SpMV). The matrix is kept in
/// compressed sparse rows: row pointers (32-bit, or 64-bit from 2^31
/// entries), 32-bit column indices and values, float or double. It is
/// built from host CSR, coordinate entries (duplicates added) or a Matrix
/// Market file. Its structure is analysed once, when it is built (row
/// lengths, length bins, diagonals); the other formats (COO, ELL,
/// ELLPACK-R, HYB, DIA) are converted on the device the first time a
/// product uses them, and kept.
namespace portacl {

template <class T>
struct SparseStorage;

/// A sparse matrix on the device, in CSR, with the formats its products
/// convert it to kept beside it (above).
template <class T>
class SparseMatrix {
  using built = only_for<T, float, double>;  ///< another element type stops here, at compile time

 public:
  /// Throws portacl::Error naming the defect of a malformed `csr`
  /// (csr_problem) before anything is allocated.
  SparseMatrix(Context& ctx, const HostCsr<T>& csr);
  /// From coordinate entries in any order (csr_from_entries: duplicates added).
  static SparseMatrix from_entries(Context& ctx, const CooEntries& entries);
  /// A Matrix Market file: symmetric storage expanded, duplicates added.
  static SparseMatrix from_file(Context& ctx, const std::string& path);

  std::size_t rows() const { return rows_; }                   ///< its rows
  std::size_t cols() const { return cols_; }                   ///< its columns
  std::size_t nnz() const { return nnz_; }                     ///< its stored entries
  bool wide_row_pointers() const { return wide_; }             ///< 64-bit row pointers
  Context& context() const { return *ctx_; }                   ///< whose device holds it
  const cl::Buffer& row_pointers() const { return row_ptr_; }  ///< CSR's rows + 1 offsets (32- or 64-bit)
  const cl::Buffer& columns() const { return col_; }           ///< CSR's columns, 32-bit
  const cl::Buffer& values() const { return val_; }            ///< CSR's values
  /// The structure's statistics the SpMV rules read (computed once).
  const SparseShape& shape() const { return shape_; }
  /// "" when A equals its transpose to a few roundings (what CG requires,
  /// with positive definiteness), else the first pair that differs
  /// (computed once, with the structure's statistics).
  const std::string& asymmetry() const { return asymmetry_; }
  /// The matrix back on the host (a round trip is exact).
  HostCsr<T> download() const;
  /// The matrix as stored in `format` on the device (converted there on
  /// first use), read back and returned as CSR: the same matrix, exactly,
  /// except that DIA keeps no explicit zeros (it stores every slot of its
  /// diagonals, so a stored zero and an absent entry look alike).
  HostCsr<T> download(SparseFormat format) const;
  /// The derived formats and row groups, for the library's kernels.
  SparseStorage<T>& storage() const { return *storage_; }

 private:
  Context* ctx_;
  std::size_t rows_ = 0, cols_ = 0, nnz_ = 0;
  bool wide_ = false;
  cl::Buffer row_ptr_, col_, val_;  ///< null where empty
  SparseShape shape_;
  std::string asymmetry_;
  std::shared_ptr<SparseStorage<T>> storage_;
};

/// The method the rules (or a tuning record for this device and the
/// matrix's statistics) pick for `a`, with the decisions that explain it.
template <class T, class = only_for<T, float, double>>
SpmvChoice spmv_choice(Context& ctx, const SparseMatrix<T>& a, const PlanOptions& options = {});

/// y = alpha * A x + beta * y by the method spmv_choice picks. x has
/// A.cols() elements, y A.rows(). An empty row gives beta * y; beta = 0
/// never reads y; alpha = 0 reads neither A nor x (BLAS). The plan returned
/// explains the choice (the rules' ids) and the launch. x and y must not
/// share memory (the same buffer, a handle to it or an overlapping
/// sub-buffer): every y element reads many of x. Errors, before any launch:
/// sizes that do not match, buffers of another context, x and y sharing memory.
template <class T, class = only_for<T, float, double>>
LaunchPlan spmv(Context& ctx, T alpha, const SparseMatrix<T>& a, const Buffer<T>& x, T beta, Buffer<T>& y,
                const PlanOptions& options = {});
/// The same by a method the caller forces.
template <class T, class = only_for<T, float, double>>
LaunchPlan spmv(Context& ctx, T alpha, const SparseMatrix<T>& a, const Buffer<T>& x, T beta, Buffer<T>& y,
                const SpmvMethod& method, const PlanOptions& options = {});

}  // namespace portacl

// ---- krylov ------------------------------------------------------------------
/// Iterative solvers for A x = b with a SparseMatrix: conjugate gradients
/// (symmetric positive definite A) and BiCGStab (any non-singular A), float
/// and double, optionally Jacobi-preconditioned. Their scalars (alpha,
/// beta, rho, omega, the residual) stay in device memory and the device
/// itself marks convergence; the host reads the state back only every
/// `check_every` iterations, so an iteration costs about its SpMVs and a
/// few fused vector passes. x holds the initial guess on entry and the
/// solution on return.
namespace portacl {

/// How a Krylov solve stops, preconditions and plans.
struct SolverOptions {
  /// What "converged" measures.
  enum class Criterion {
    relative_residual,  ///< ||r|| / ||b|| < tolerance
    max_residual,       ///< max |r_i| < tolerance (the textbook criterion)
  };
  double tolerance = 1e-6;                             ///< the criterion's measure must fall below it
  Criterion criterion = Criterion::relative_residual;  ///< what is measured
  std::size_t max_iterations = 1000;                   ///< the most iterations, restarts included
  bool jacobi = false;                                 ///< precondition with the inverse of A's diagonal
  /// Read the state back every this many iterations; unset: rule
  /// solver.check-interval.
  std::optional<std::size_t> check_every;
  /// The SpMV method; unset: spmv_choice.
  std::optional<SpmvMethod> method;
  /// Record CG's iteration once and enqueue the recording every iteration
  /// (cl_khr_command_buffer) instead of launching its kernels one by one;
  /// unset: rule solver.replay-iteration (where the device offers it and
  /// the product is fused). true where it cannot be done is an error that
  /// says why; false launches kernel by kernel. BiCGStab ignores it.
  std::optional<bool> replay_iteration;
  PlanOptions plan;  ///< for the SpMV and the vector kernels
};

/// How a Krylov solve went.
struct SolverResult {
  /// The true residual b - A x of the x returned meets the tolerance (not
  /// only the recurrence's residual, which drifts from it in finite
  /// precision: where that one met the tolerance and the true one did not,
  /// the solver started again from x, see `restarts`).
  bool converged = false;
  std::size_t iterations = 0;  ///< iterations done until the stop, restarts included
  /// The criterion's measure of the recurrence's residual r at the stop:
  /// ||r|| / ||b|| or max |r_i|.
  double residual = 0;
  /// The same measure of b - A x, recomputed from the x returned in the
  /// working precision.
  double true_residual = 0;
  /// Starts again from x (r = b - A x) after the recurrence met the
  /// tolerance and the true residual did not, or after the method broke
  /// down past its first iteration (BiCGStab's rho, omega or r0 . v
  /// exactly 0 in finite precision: the new start takes the residual as its
  /// shadow residual, the standard remedy); at most 4 in all.
  std::size_t restarts = 0;
  /// The last start ended in a breakdown (stop_reason says which).
  bool broke_down = false;
  std::vector<double> history;  ///< the measure after each iteration
  /// "converged", "iteration limit", or which breakdown ended it.
  std::string stop_reason;
  /// Empty, or what makes the method unfit for A: CG on a matrix that is
  /// not symmetric ("A is not symmetric: (3, 7) is 1.5 but (7, 3) is 2 ...
  /// use bicgstab"). Set before the solve; it runs all the same.
  std::string warning;
  std::size_t check_every = 0;  ///< as used
  LaunchPlan spmv_plan;         ///< how the products were done
};

/// Conjugate gradients. A must be symmetric positive definite: on a matrix
/// that is not symmetric (SparseMatrix::asymmetry(), checked once per
/// matrix) CG still runs, but result.warning says so and points to
/// bicgstab, and a stop short of convergence repeats it. b and x must not share memory (the same buffer, a
/// handle to it or an overlapping sub-buffer). Errors, before any launch: a
/// non-square A, b or x of the wrong length or another context, b and x
/// sharing memory, a tolerance that is negative or not a number, check_every
/// 0, a zero on the diagonal with Jacobi.
template <class T, class = only_for<T, float, double>>
SolverResult cg(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x,
                const SolverOptions& options = {});

/// BiCGStab, with the same options, errors and result.
template <class T, class = only_for<T, float, double>>
SolverResult bicgstab(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x,
                      const SolverOptions& options = {});

/// Calls into a solve's iterations from the caller: a preconditioner the
/// library does not build in, and a look at each iterate (SciPy's `M` and
/// `callback`). A solve given hooks runs its iterations from the host, as
/// a device group's do: CG in the single-reduction form, the scalars on the
/// host, one wait an iteration for the sums (and whatever the hooks cost);
/// without hooks the iterations stay on the device.
template <class T>
struct SolverHooks {
  /// z = M^-1 r, M approximating A (for CG symmetric positive definite);
  /// must write every element of z, and must not keep r or z. Replaces
  /// SolverOptions::jacobi (giving both is an error).
  std::function<void(const Buffer<T>& r, Buffer<T>& z)> precondition;
  /// After each iteration, counted from 1 over restarts, with its iterate x
  /// (read it; writing it is undefined).
  std::function<void(std::size_t iteration, const Buffer<T>& x)> after_iteration;
};

/// CG with hooks (above). The same errors as cg, and before any launch:
/// jacobi together with a precondition hook, and the max_residual
/// criterion (the host takes the 2-norm's sums). An exception thrown by a
/// hook ends the solve and leaves this call; x then holds the last iterate.
template <class T, class = only_for<T, float, double>>
SolverResult cg(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x, const SolverOptions& options,
                const SolverHooks<T>& hooks);

/// BiCGStab with hooks, as cg with hooks; the preconditioner is applied on
/// the right, as in bicgstab.
template <class T, class = only_for<T, float, double>>
SolverResult bicgstab(Context& ctx, const SparseMatrix<T>& a, const Buffer<T>& b, Buffer<T>& x,
                      const SolverOptions& options, const SolverHooks<T>& hooks);

}  // namespace portacl

// ---- group sparse ------------------------------------------------------------
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
namespace portacl {

/// A sparse matrix split by rows over a device group (above).
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

  std::size_t rows() const;    ///< the whole matrix's rows
  std::size_t nnz() const;     ///< its stored entries
  DeviceGroup& group() const;  ///< the group it is split over
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

  /// The members' blocks and their exchange plan (internal to the library).
  struct State;
  /// The library's own access to State.
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

/// BiCGStab over the group (A need not be symmetric), with the same
/// options, errors and result as group_cg's, written over the same loop as
/// mpi::distributed_bicgstab; Jacobi preconditions on the right. An
/// iteration is two products and six dot products over the group (each
/// one the members' partial dots, added on the host).
template <class T, class = only_for<T, float, double>>
SolverResult group_bicgstab(const GroupSparseMatrix<T>& a, const GroupVector<T>& b, GroupVector<T>& x,
                            const SolverOptions& options = {});

}  // namespace portacl
