// SPDX-License-Identifier: Apache-2.0
// Times the single-pass scan (decoupled look-back) of 2^26 floats (SCAN_LOG2
// sets another power) under a grid of shapes (work-group, vector width,
// bytes per work-item, tile kept in registers or read twice) beside the
// rules' plan and portacl's copy, each as the mean of a batch of 20 calls
// queued back to back (host enqueue cost hidden behind the kernels),
// median of 7 batches. Each shape is first checked on integers against a
// host running sum. A diagnostic for tools/gpu/gpu-run.sh's scan-shapes step,
// not part of the library.
// build: see tools/gpu/gpu-run.sh      usage: scan_shapes [DEVICE]
#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "portacl/portacl.hpp"
#include "batch_timing.hpp"

using namespace portacl;

int main(int argc, char** argv) {
  Context ctx(argc > 1 ? argv[1] : "gpu");
  const std::size_t n = std::size_t{1} << (std::getenv("SCAN_LOG2") ? std::atoi(std::getenv("SCAN_LOG2")) : 26);
  std::vector<float> hx(n);
  std::vector<int> hi(n);
  std::mt19937 gen(3);
  for (std::size_t i = 0; i < n; ++i) {
    hi[i] = int(gen() % 7) - 3;
    hx[i] = float(hi[i]);
  }
  Buffer<float> x(ctx, hx), y(ctx, n);
  Buffer<int> xi(ctx, hi), yi(ctx, n);
  const double copy = batch_ms(ctx, [&] { portacl::copy(ctx, x, y); });
  std::printf("copy %.4f ms %.0f GB/s\n", copy, n * 8 / copy / 1e6);
  LaunchPlan rules = inclusive_scan(ctx, x, y);
  const double r = batch_ms(ctx, [&] { inclusive_scan(ctx, x, y); });
  std::printf("rules %s | %.4f ms %.1f%% of copy\n", rules.build_options().c_str(), r, 100 * copy / r);
  for (int wg : {128, 256})
    for (int vw : {2, 4})
      for (int bytes : {32, 64, 128, 256, 512})
        for (int keep : {0, 1}) {
          if (bytes < vw * 4) continue;
          PlanOptions o;
          PlanOverride ov;
          ov.work_group_size = wg;
          ov.vector_width = vw;
          ov.use_local_memory = true;
          ov.passes = 1;
          ov.macros = {{"SCAN_BYTES", std::to_string(bytes)}, {"SCAN_KEEP", std::to_string(keep)}};
          o.override_values = ov;
          try {
            inclusive_scan(ctx, xi, yi, o);
          } catch (const Error& e) {  // a shape the device refuses (CL_KERNEL_WORK_GROUP_SIZE)
            std::printf("wg %4d vw %d bytes %3d keep %d | refused: %s\n", wg, vw, bytes, keep, e.what());
            continue;
          }
          std::vector<int> got = yi.download();
          long long run = 0;
          bool ok = true;
          for (std::size_t i = 0; i < n && ok; ++i) {
            run += hi[i];
            ok = got[i] == int(run);
          }
          const double ms = batch_ms(ctx, [&] { inclusive_scan(ctx, x, y, o); });
          std::printf("wg %4d vw %d bytes %3d keep %d | %.4f ms %.1f%% of copy %s\n", wg, vw, bytes, keep, ms,
                      100 * copy / ms, ok ? "ok" : "WRONG");
          std::fflush(stdout);
        }
  return 0;
}
