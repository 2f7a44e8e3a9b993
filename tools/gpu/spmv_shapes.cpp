// SPDX-License-Identifier: Apache-2.0
// Times csr-block (work-group, entries staged per work-item, a long row's
// piece in units) and csr-merge (work-group, merge items per work-item, one
// pass or two) under a grid of shapes beside the rules' choice, on the irregular
// matrices of portacl-bench (web-like, circuit-like, power-law; seeds 1
// and 2) and a renumbered 2D Laplacian (shapes from BLOCK_SHAPES
// "wg:per-item:units,..." and MERGE_SHAPES "wg:items:passes,..."), each by tools/gpu/batch_timing.hpp's clock. Each
// shape's product is first compared with csr-block's. A diagnostic for
// tools/gpu/gpu-run.sh's spmv-shapes step, not part of the library.
// build: see tools/gpu/gpu-run.sh      usage: spmv_shapes [DEVICE]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "portacl/portacl.hpp"
#include "batch_timing.hpp"
#include "kernels/sparse/generators.hpp"

using namespace portacl;

namespace {

// The largest |a - b| over the largest |b|: a relative difference of two
// products of the same matrix.
double difference(const std::vector<float>& a, const std::vector<float>& b) {
  double most = 0, scale = 1e-30;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i])) return INFINITY;
    most = std::max(most, std::fabs(double(a[i]) - double(b[i])));
    scale = std::max(scale, std::fabs(double(b[i])));
  }
  return most / scale;
}

// The shapes "a:b:c,..." in environment variable `var`, else `fallback`.
std::vector<std::vector<int>> shapes_of(const char* var, const char* fallback) {
  const char* text = std::getenv(var) ? std::getenv(var) : fallback;
  std::vector<std::vector<int>> shapes(1);
  for (const char* c = text; *c; ++c) {
    if (*c == ',')
      shapes.emplace_back();
    else if (*c != ':') {
      char* end = nullptr;
      shapes.back().push_back(int(std::strtol(c, &end, 10)));
      c = end - 1;
    }
  }
  return shapes;
}

void sweep(Context& ctx, const std::string& name, const HostCsr<float>& csr) {
  const SparseMatrix<float> a(ctx, csr);
  std::vector<float> hx(csr.cols);
  for (std::size_t i = 0; i < hx.size(); ++i) hx[i] = float(int(i % 17) - 8) / 8.0f;
  Buffer<float> x(ctx, hx), y(ctx, csr.rows);
  std::printf("== %s: %zu rows, %zu entries\n", name.c_str(), csr.rows, csr.nnz());
  const SpmvMethod block{SparseFormat::csr, CsrVariant::block}, merge{SparseFormat::csr, CsrVariant::merge};
  spmv(ctx, 1.0f, a, x, 0.0f, y, block);
  const std::vector<float> want = y.download();
  for (int warm = 0; warm < 200; ++warm) spmv(ctx, 1.0f, a, x, 0.0f, y, block);  // clocks up
  const LaunchPlan rules = spmv(ctx, 1.0f, a, x, 0.0f, y);
  const Decision* chosen = rules.decision("spmv_method");
  std::printf("rules (%s) %.4f ms\n", chosen ? chosen->value.c_str() : "?",
              batch_ms(ctx, [&] { spmv(ctx, 1.0f, a, x, 0.0f, y); }));
  std::printf("csr-block %.4f ms\n", batch_ms(ctx, [&] { spmv(ctx, 1.0f, a, x, 0.0f, y, block); }));
  const LaunchPlan merge_rules = spmv(ctx, 1.0f, a, x, 0.0f, y, merge);
  std::printf("csr-merge (rules: %s) %.4f ms diff %.1e\n", merge_rules.build_options().c_str(),
              batch_ms(ctx, [&] { spmv(ctx, 1.0f, a, x, 0.0f, y, merge); }), difference(y.download(), want));
  for (const std::vector<int>& shape :
       shapes_of("BLOCK_SHAPES", "128:4:4,128:8:8,256:2:4,256:2:8,256:4:4,256:4:8,256:4:16")) {
    PlanOverride ov;
    ov.work_group_size = shape.at(0);
    ov.macros = {{"BLOCK_PER_ITEM", std::to_string(shape.at(1))}, {"SEGMENT_UNITS", std::to_string(shape.at(2))}};
    PlanOptions o;
    o.override_values = ov;
    std::printf("csr-block wg %3d per item %2d units %2d | ", shape.at(0), shape.at(1), shape.at(2));
    LaunchPlan plan;
    try {
      y.upload(std::vector<float>(csr.rows, NAN));
      plan = spmv(ctx, 1.0f, a, x, 0.0f, y, block, o);
    } catch (const Error& e) {
      std::printf("refused: %s\n", e.what());
      continue;
    }
    const double diff = difference(y.download(), want);
    const double ms = batch_ms(ctx, [&] { spmv(ctx, 1.0f, a, x, 0.0f, y, block, o); });
    const Decision* long_rows = plan.decision("long_rows");
    std::printf("%.4f ms diff %.1e %s (long rows %s)\n", ms, diff, diff < 1e-4 ? "ok" : "WRONG",
                long_rows ? long_rows->value.c_str() : "none");
    std::fflush(stdout);
  }
  for (const std::vector<int>& shape : shapes_of("MERGE_SHAPES", "128:7:2,256:9:2")) {
    PlanOverride ov;
    ov.work_group_size = shape.at(0);
    ov.passes = static_cast<unsigned>(shape.at(2));
    ov.macros = {{"IPT", std::to_string(shape.at(1))}};
    PlanOptions o;
    o.override_values = ov;
    std::printf("csr-merge wg %3d ipt %2d passes %d | ", shape.at(0), shape.at(1), shape.at(2));
    try {
      y.upload(std::vector<float>(csr.rows, NAN));
      spmv(ctx, 1.0f, a, x, 0.0f, y, merge, o);
    } catch (const Error& e) {
      std::printf("refused: %s\n", e.what());
      continue;
    }
    const double diff = difference(y.download(), want);
    const double ms = batch_ms(ctx, [&] { spmv(ctx, 1.0f, a, x, 0.0f, y, merge, o); });
    std::printf("%.4f ms diff %.1e %s\n", ms, diff, diff < 1e-4 ? "ok" : "WRONG");
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Context ctx(argc > 1 ? argv[1] : "gpu");
  for (int seed : {1, 2}) {
    const std::string s = " seed " + std::to_string(seed);
    sweep(ctx, "web:1000000" + s, web_graph<float>(1000000, seed));
    sweep(ctx, "circuit:1000000" + s, circuit<float>(1000000, seed));
    sweep(ctx, "powerlaw:2000000:8" + s, power_law_rows<float>(2000000, 8, seed));
  }
  sweep(ctx, "permuted2d:1024", permuted_symmetric<float>(poisson2d<float>(1024), 1));
  return 0;
}
