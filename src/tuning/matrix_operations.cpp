#include "matrix_operations.hpp"

#include <cmath>
#include <sstream>

#include "portacl/error.hpp"
#include "portacl/kernels/gemv.hpp"
#include "portacl/kernels/spmv.hpp"
#include "portacl/kernels/trsv.hpp"

namespace portacl {

std::size_t square_order(std::size_t n) {
  std::size_t s = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
  while (s * s > n) --s;
  while ((s + 1) * (s + 1) <= n) ++s;
  return s;
}

std::size_t packed_order(std::size_t n) {
  std::size_t s = static_cast<std::size_t>((std::sqrt(8.0 * static_cast<double>(n) + 1) - 1) / 2);
  while (s * (s + 1) / 2 > n) --s;
  while ((s + 1) * (s + 2) / 2 <= n) ++s;
  return s;
}

const Buffer<float>& Workload::lower_triangular() {
  if (!lower_) {
    const std::size_t s = square_order(n);
    host_lower.assign(s * s, 0.0f);
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = 0; j <= i; ++j)
        host_lower[i * s + j] = i == j ? 2.0f + std::fabs(hx[i * s + j]) : hx[i * s + j] / float(s);
    lower_.emplace(ctx, host_lower);
  }
  return *lower_;
}

namespace {

using Options = const PlanOptions&;

// y (the first m entries of z) against row(i) = {exact value, sum of |terms|}.
template <class Row>
std::string check_vector(const std::vector<float>& got, std::size_t m, std::size_t k, Row row) {
  for (std::size_t i = 0; i < m; ++i) {
    const auto [want, mag] = row(i);
    const double tol = 2 * (k + 2) * 1.2e-7 * mag + 1e-30;
    if (!(std::fabs(got[i] - want) <= tol)) {
      std::ostringstream s;
      s << "y(" << i << ") = " << got[i] << ", want " << want << " (tolerance " << tol << ")";
      return s.str();
    }
  }
  return "";
}

// Runs `run` with z poisoned, then checks z's first s entries against
// y = A x, A(i, j) = element(i, j) and x the first s entries of hy.
template <class Run, class Element>
std::string check_product(Workload& w, Options o, const Run& run, std::size_t s, Element element) {
  w.z.upload(std::vector<float>(w.n, NAN));
  run(w, o);
  return check_vector(w.z.download(), s, s, [&](std::size_t i) {
    double want = 0, mag = 0;
    for (std::size_t j = 0; j < s; ++j) {
      const double p = double(element(i, j)) * w.hy[j];
      want += p;
      mag += std::fabs(p);
    }
    return std::make_pair(want, mag);
  });
}

// y = A x for the workload's square row-major A (x: its first elements),
// A's rows contiguous, or A^T x, A's columns contiguous.
Operation gemv_operation(bool transposed) {
  const Transpose t = transposed ? Transpose::yes : Transpose::no;
  auto run = [t](Workload& w, Options o) {
    const std::size_t s = square_order(w.n);
    return gemv(w.ctx, Layout::row_major, t, s, s, 1.0f, MatrixRef<float>{w.x, 0, s}, VectorRef<float>{w.y, 0, 1}, 0.0f,
                w.z, 0, 1, o);
  };
  auto check = [run, transposed](Workload& w, Options o) {
    const std::size_t s = square_order(w.n);
    return check_product(w, o, run, s,
                         [&](std::size_t i, std::size_t j) { return transposed ? w.hx[j * s + i] : w.hx[i * s + j]; });
  };
  return Operation{transposed ? "gemv_t" : "gemv", 4, 2, &gemv_tunables(), run, check};
}

// y = A x for symmetric A packed in the workload's first s (s + 1) / 2 elements.
Operation spmv_operation() {
  auto run = [](Workload& w, Options o) {
    return spmv(w.ctx, packed_order(w.n), 1.0f, w.x, 0, VectorRef<float>{w.y, 0, 1}, 0.0f, w.z, 0, 1, o);
  };
  auto check = [run](Workload& w, Options o) {
    return check_product(w, o, run, packed_order(w.n), [&](std::size_t i, std::size_t j) {
      return i >= j ? w.hx[i * (i + 1) / 2 + j] : w.hx[j * (j + 1) / 2 + i];
    });
  };
  // Counted on the packed matrix's bytes: 4 per stored element.
  return Operation{"spmv", 4, 4, &spmv_tunables(), run, check};
}

// L x = y in place in z (y copied in first, a negligible s elements).
Operation trsv_operation() {
  auto run = [](Workload& w, Options o) {
    const std::size_t s = square_order(w.n);
    const Buffer<float>& l = w.lower_triangular();
    check_cl(w.ctx.queue().enqueueCopyBuffer(w.y.cl_buffer(), w.z.cl_buffer(), 0, 0, s * sizeof(float)),
             "clEnqueueCopyBuffer(trsv right-hand side)");
    return trsv(w.ctx, Layout::row_major, s, MatrixRef<float>{l, 0, s}, w.z, 0, 1, Diagonal::non_unit, o);
  };
  auto check = [run](Workload& w, Options o) {
    w.z.upload(std::vector<float>(w.n, NAN));
    run(w, o);
    const std::size_t s = square_order(w.n);
    const std::vector<float> x = w.z.download();
    // The residual L x - b, row by row, against the row's magnitudes.
    return check_vector(std::vector<float>(s, 0.0f), s, s, [&](std::size_t i) {
      double r = -double(w.hy[i]), mag = std::fabs(w.hy[i]);
      for (std::size_t j = 0; j <= i; ++j) {
        const double p = double(w.host_lower[i * s + j]) * x[j];
        r += p;
        mag += std::fabs(p);
      }
      return std::make_pair(std::isfinite(r) ? -r : NAN, 4 * mag);
    });
  };
  // Half of the square is read.
  return Operation{"trsv", 2, 1, &trsv_tunables(), run, check};
}

}  // namespace

std::vector<Operation> matrix_vector_operations() {
  return {gemv_operation(false), gemv_operation(true), spmv_operation(), trsv_operation()};
}

}  // namespace portacl
