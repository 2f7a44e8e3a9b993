// SPDX-License-Identifier: Apache-2.0
// Where a CG iteration's time goes on a device (run by tools/gpu/gpu-run.sh, step
// "cg-launches"): 40 iterations of CG on the randomly renumbered 2D
// Laplacian of 1M rows (portacl-bench's permuted2d:1024), every launch
// recorded by its profiling events; prints the span and busy time per
// iteration, then each launch's duration and the idle gap before it.
// usage: cg_launches [DEVICE] [N]   (default gpu, 1024: N^2 rows)
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/sparse/generators.hpp"
#include "portacl/portacl.hpp"

using namespace portacl;

int main(int argc, char** argv) {
  Context ctx(argc > 1 ? argv[1] : "gpu");
  const std::size_t n = argc > 2 ? std::stoul(argv[2]) : 1024, iterations = 40;
  const HostCsr<float> host = permuted_symmetric(poisson2d<float>(n), 1);
  const SparseMatrix<float> a(ctx, host);
  const Buffer<float> b(ctx, std::vector<float>(host.rows, 1.0f));
  Buffer<float> x(ctx, host.rows);
  SolverOptions o;
  o.tolerance = 0;
  o.max_iterations = iterations;
  std::printf("CG on %s, %zu rows, %zu iterations, SpMV method %s\n", ctx.info().name.c_str(), host.rows, iterations,
              spmv_choice(ctx, a).method.name().c_str());
  for (int rep = 0; rep < 3; ++rep) {  // the first run compiles
    fill(ctx, x, 0.0f);
    ctx.finish();
    LaunchRecorder rec(ctx);
    cg(ctx, a, b, x, o);
    const double span = rec.span_ms();
    std::vector<std::pair<double, double>> t;  // start, end in microseconds
    for (const cl::Event& e : rec.events())
      t.push_back({1e-3 * double(e.getProfilingInfo<CL_PROFILING_COMMAND_START>()),
                   1e-3 * double(e.getProfilingInfo<CL_PROFILING_COMMAND_END>())});
    double busy = 0;
    for (const auto& [start, end] : t) busy += end - start;
    std::printf("run %d: %zu launches, span %.1f us per iteration, busy %.1f us per iteration\n", rep, t.size(),
                1e3 * span / double(iterations), busy / double(iterations));
    if (rep == 2)
      for (std::size_t i = 0; i < t.size() && i < 40; ++i)
        std::printf("  launch %2zu: %7.1f us, idle before it %6.1f us\n", i, t[i].second - t[i].first,
                    i ? t[i].first - t[i - 1].second : 0.0);
  }
}
