// SPDX-License-Identifier: Apache-2.0
// The sparse family: y = A x by the automatic SpMV choice on a matrix built
// from the workload's size, one operation per class of matrix statistics
// the tuner can store a method for (spmv_method_traits): a banded one (the
// 5-point Laplacian on a grid of about n points) and a short irregular one
// (n / 8 rows with power-law lengths of mean 8). Each run returns the
// choice's plan, whose key is the statistics class.
#include <cmath>
#include <limits>

#include "../host_reference.hpp"
#include "family_parts.hpp"
#include "../sparse_reference.hpp"
#include "kernels/sparse/generators.hpp"
#include "portacl/sparse.hpp"
#include "rules/sparse_rules.hpp"

namespace portacl {
namespace {

using Options = const PlanOptions&;

struct SparseCase {
  SparseCase(Context& ctx, HostCsr<float> h, const std::vector<float>& values)
      : host(std::move(h)),
        a(ctx, host),
        hx(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(host.cols)),
        x(ctx, hx),
        y(ctx, host.rows) {}
  HostCsr<float> host;
  SparseMatrix<float> a;
  std::vector<float> hx;
  Buffer<float> x, y;
};

// The workload's matrix of this kind, built once per workload.
SparseCase& sparse_case(Workload& w, bool banded) {
  const std::string key = banded ? "sparse.banded" : "sparse.short-irregular";
  auto& slot = w.derived[key];
  if (!slot) {
    const std::size_t side = std::max<std::size_t>(1, static_cast<std::size_t>(std::sqrt(double(w.n))));
    HostCsr<float> host =
        banded ? poisson2d<float>(side) : power_law_rows<float>(std::max<std::size_t>(1, w.n / 8), 8.0, w.n);
    slot = std::make_shared<SparseCase>(w.ctx, std::move(host), w.hx);
  }
  return *std::static_pointer_cast<SparseCase>(slot);
}

LaunchPlan run_auto(Workload& w, Options o, bool banded) {
  SparseCase& c = sparse_case(w, banded);
  const SpmvChoice choice = spmv_choice(w.ctx, c.a, o);
  spmv(w.ctx, 1.0f, c.a, c.x, 0.0f, c.y, choice.method, o);
  return choice.plan;
}

std::string check_auto(Workload& w, Options o, bool banded) {
  SparseCase& c = sparse_case(w, banded);
  c.y.upload(std::vector<float>(c.host.rows, std::numeric_limits<float>::quiet_NaN()));
  run_auto(w, o, banded);
  return reference::compare(c.y.download(), reference::csr_product(c.host, c.hx),
                            reference::dot_bound<float>(std::max<std::size_t>(1, reference::longest_row(c.host))) /
                                std::numeric_limits<float>::epsilon());
}

}  // namespace

std::vector<Operation> sparse_operations() {
  std::vector<Operation> out;
  for (bool banded : {true, false}) {
    Operation op;
    op.name = banded ? "spmv-auto banded" : "spmv-auto short-irregular";
    // Per workload element: 5 entries per grid point, or 1 entry (rows of
    // 8 per 8 elements), at 8 bytes each, plus the vectors.
    op.bytes_per_element = banded ? 5 * 8 + 12 : 8 + 12.0 / 8;
    op.flops_per_element = banded ? 10 : 2;
    op.space = &spmv_method_tunables();
    op.run = [banded](Workload& w, Options o) { return run_auto(w, o, banded); };
    op.check = [banded](Workload& w, Options o) { return check_auto(w, o, banded); };
    op.streaming = false;  // portacl-bench's sparse section measures it (--sparse)
    out.push_back(op);
  }
  return out;
}

}  // namespace portacl
