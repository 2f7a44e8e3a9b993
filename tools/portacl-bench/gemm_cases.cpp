#include "gemm_cases.hpp"

#include <clblast_c.h>

#include <cmath>
#include <random>
#include <sstream>

namespace bench {

using namespace portacl;

namespace {

// 64 random entries of C against a double-precision dot product: a full
// host reference of a 8192^3 product would take minutes.
std::string check_entries(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                          std::size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  for (int s = 0; s < 64; ++s) {
    const std::size_t i = pick(rng), j = pick(rng);
    double want = 0, mag = 0;
    for (std::size_t p = 0; p < n; ++p) {
      want += double(a[i * n + p]) * b[p * n + j];
      mag += std::fabs(double(a[i * n + p]) * b[p * n + j]);
    }
    const double got = c[i * n + j], tol = 2 * (n + 2) * 1.2e-7 * mag + 1e-30;
    if (!(std::fabs(got - want) <= tol)) {
      std::ostringstream m;
      m << "C(" << i << "," << j << ") = " << got << ", want " << want << " (tolerance " << tol << ")";
      return m.str();
    }
  }
  return "ok";
}

}  // namespace

std::vector<GemmRow> run_gemm(Context& ctx, const std::vector<std::size_t>& sizes, int warmup, int reps,
                              bool baseline, unsigned long long seed, double fma_gflops) {
  std::vector<GemmRow> rows;
  for (std::size_t n : sizes) {
    std::mt19937_64 rng(seed + n);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> ha(n * n), hb(n * n);
    for (auto& v : ha) v = d(rng);
    for (auto& v : hb) v = d(rng);
    Buffer<float> a(ctx, ha), b(ctx, hb), c(ctx, n * n);
    auto ours = [&] {
      return gemm(ctx, Layout::row_major, Transpose::no, Transpose::no, n, n, n, 1.0f, MatrixRef<float>{a, 0, n},
                  MatrixRef<float>{b, 0, n}, 0.0f, c, 0, n);
    };
    GemmRow row;
    row.n = n;
    c.upload(std::vector<float>(n * n, NAN));
    const LaunchPlan plan = ours();
    row.plan = plan.summary() + (plan.provenance.rfind("tuning database", 0) == 0 ? ", tuned" : "");
    row.check = check_entries(ha, hb, c.download(), n, rng);
    row.ours = measure(warmup, reps, [&] { return device_ms(ctx, [&] { ours(); }); });
    const double flops = 2.0 * double(n) * double(n) * double(n);
    row.gflops = flops / (row.ours.median_ms * 1e6);
    row.fraction_of_fma = row.gflops / fma_gflops;
    if (baseline) {
      auto theirs = [&] {
        cl_event e = nullptr;
        const CLBlastStatusCode s =
            CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, 1.0f,
                         a.cl_buffer()(), 0, n, b.cl_buffer()(), 0, n, 0.0f, c.cl_buffer()(), 0, n,
                         &ctx.queue()(), &e);
        if (s != CLBlastSuccess) throw Error("CLBlast Sgemm failed with status " + std::to_string(s));
        return e;
      };
      c.upload(std::vector<float>(n * n, NAN));
      cl_event e = theirs();  // first call: CLBlast compiles here
      clWaitForEvents(1, &e);
      clReleaseEvent(e);
      row.baseline_check = check_entries(ha, hb, c.download(), n, rng);
      row.theirs = measure(warmup, reps, [&] { return gated_ms(ctx, theirs); });
      row.baseline_gflops = flops / (row.theirs.median_ms * 1e6);
      row.speedup = row.theirs.median_ms / row.ours.median_ms;
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace bench
