// SPDX-License-Identifier: Apache-2.0
// The binary GEMM's operation: C = A B of +-1 matrices of order
// 16 cbrt(n) (2^24: 4096, 2^27: 8192), both operands packed once, so the
// timed call is the product alone. Where n is a cube that is 2 x 16^3 n
// effective operations (2 m n k), which the GFLOP/s column counts; the
// GEMM section's SGEMM of the same order, in the same run, is its peer.
// Checked on 64 entries against the double sum of the signs. No library
// has a binary GEMM.
#include <cmath>

#include "../binary_gemm_reference.hpp"
#include "../family.hpp"
#include "kernels/binary_gemm_tunables.hpp"
#include "portacl/blas.hpp"

namespace portacl {
namespace {

constexpr double kEdge = 16;  // the order is kEdge cbrt(n)

struct BinaryGemmCase {
  BinaryGemmCase(Context& ctx, std::size_t order)
      : n(order),
        a(reference::random_signs_source(order * order, 0xb1a5ull ^ order)),
        b(reference::random_signs_source(order * order, 0xb1b5ull ^ order)),
        pa(ctx, order * packed_words(order)),
        pb(ctx, order * packed_words(order)),
        c(ctx, order * order) {
    Buffer<float> da(ctx, a), db(ctx, b);
    pack_signs(ctx, da, n, n, pa);
    PackOptions columns;
    columns.by_columns = true;
    pack_signs(ctx, db, n, n, pb, columns);
    ctx.finish();
  }
  std::size_t n;
  std::vector<float> a, b;
  Buffer<std::uint32_t> pa, pb;
  Buffer<int> c;
};

BinaryGemmCase& binary_gemm_case(Workload& w) {
  auto& slot = w.derived["binary_gemm"];
  if (!slot) {
    const auto order = static_cast<std::size_t>(std::lround(kEdge * std::cbrt(double(w.n))));
    slot = std::make_shared<BinaryGemmCase>(w.ctx, std::max<std::size_t>(order, 1));
  }
  return *std::static_pointer_cast<BinaryGemmCase>(slot);
}

LaunchPlan run(Workload& w, const PlanOptions& o) {
  BinaryGemmCase& c = binary_gemm_case(w);
  return binary_gemm(w.ctx, c.n, c.n, c.n, c.pa, c.pb, c.c, c.n, o);
}

std::string check(Workload& w, const PlanOptions& o) {
  BinaryGemmCase& c = binary_gemm_case(w);
  c.c.upload(std::vector<int>(c.n * c.n, 0x7eadbeef));
  run(w, o);
  const std::vector<int> got = c.c.download();
  for (std::size_t s = 0; s < 64; ++s) {
    const std::size_t i = s * (c.n - 1) / 63, j = (s * 37) % c.n;
    const int want = reference::sign_product_entry(c.a, c.b, c.n, c.n, i, j);
    if (got[i * c.n + j] != want)
      return "c[" + std::to_string(i) + "][" + std::to_string(j) + "] = " + std::to_string(got[i * c.n + j]) +
             ", want " + std::to_string(want);
  }
  return "";
}

std::vector<Operation> binary_gemm_operations() {
  return {Operation{"binary_gemm", 0, 2 * kEdge * kEdge * kEdge, &binary_gemm_tunables(), run, check}};
}

const FamilyRegistration binary_gemms({"binary_gemm", 41, binary_gemm_operations});

}  // namespace
}  // namespace portacl
