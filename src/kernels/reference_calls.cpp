// SPDX-License-Identifier: Apache-2.0
#include "kernels/reference_calls.hpp"

#include <cmath>
#include <cstdint>
#include <functional>

#include "gemm_plans.hpp"
#include "binary_gemm_tunables.hpp"
#include "gemv_tunables.hpp"
#include "fft_tunables.hpp"
#include "histogram_tunables.hpp"
#include "packed_symv_tunables.hpp"
#include "particles/nbody_tunables.hpp"
#include "particles/particle_traits.hpp"
#include "reduce_tunables.hpp"
#include "rules/coverage_rules.hpp"
#include "rules/reduce_rules.hpp"
#include "trsv_tunables.hpp"
#include "scan_tunables.hpp"
#include "sort_tunables.hpp"
#include "stream_tunables.hpp"
#include "ml/conv_layer_tunables.hpp"
#include "ml/layer_kernels.hpp"
#include "ml/kmeans_tunables.hpp"
#include "ml/knn_tunables.hpp"
#include "kernels/sparse/generators.hpp"
#include "kernels/sparse/tunables.hpp"
#include "planner.hpp"
#include "portacl/device.hpp"
#include "portacl/error.hpp"
#include "portacl/sparse.hpp"
#include "stencil/plans.hpp"

namespace portacl {

namespace {

// One reference call: `plan` fills its decisions and launches; an error
// (a shape the device cannot take) is the call's answer, not the report's end.
ReferenceCall call(const std::string& family, const std::string& label,
                   const std::function<void(ReferenceCall&)>& plan) {
  ReferenceCall c;
  c.family = family;
  c.label = label;
  try {
    plan(c);
  } catch (const std::exception& e) {
    c.error = e.what();
  }
  return c;
}

SparseShape shape_of(const HostCsr<float>& a) {
  SparseShape s = profile_rows(a.row_ptr);
  s.cols = a.cols;
  s.diagonals = count_diagonals(a.rows, a.cols, a.row_ptr, a.col);
  return s;
}

ReferenceCall spmv_call(const Planner& planner, DeviceClass device_class, const std::string& label,
                        const HostCsr<float>& a) {
  return call("sparse", label, [&](ReferenceCall& c) {
    const SpmvChoice choice = plan_spmv_choice(planner, device_class, shape_of(a), ElementType::f32);
    c.decisions = choice.decisions;
    c.launches.push_back({"method " + choice.method.name(), choice.plan});
  });
}

void add(ReferenceCall& c, const StencilLaunch& l) { c.launches.push_back({l.entry, l.plan}); }

}  // namespace

std::vector<ReferenceCall> reference_calls(const DeviceInfo& device, const PlanOptions& options) {
  const Planner planner = offline_planner(device, options);
  const DeviceClass device_class = classify(device).device_class;
  std::vector<ReferenceCall> calls;
  // 2^18 rows each: a matrix whose statistics are those of the large ones,
  // made in a few milliseconds.
  calls.push_back(
      spmv_call(planner, device_class, "spmv float, 5-point Poisson 512^2 (banded)", poisson2d<float>(512)));
  calls.push_back(
      spmv_call(planner, device_class, "spmv float, 27-point Poisson 64^3 (regular rows)", poisson3d27<float>(64)));
  calls.push_back(spmv_call(planner, device_class, "spmv float, 2^18 power-law rows, mean 8 (irregular)",
                            power_law_rows<float>(std::size_t{1} << 18, 8, 20261125)));
  calls.push_back(call("stencil", "heat2d float, 4096^2", [&](ReferenceCall& c) {
    HeatOptions<float> o;
    o.plan = options;
    const HeatLaunches l = plan_heat2d<float>(planner, 4096, 4096, o);
    c.launches.push_back({l.step_entry, l.step});
    if (l.temporal) c.launches.push_back({"heat_temporal", *l.temporal});
  }));
  calls.push_back(call("stencil", "star_stencil3d float, radius 4, 256^3", [&](ReferenceCall& c) {
    Stencil3dOptions o;
    o.plan = options;
    add(c, plan_star3d<float>(planner, Extent3{256, 256, 256}, 4, o));
  }));
  calls.push_back(call("stencil", "convolve2d float, 4096^2, 5 x 5 mask", [&](ReferenceCall& c) {
    ConvolutionOptions o;
    o.plan = options;
    add(c, plan_convolution<float>(planner, 4096, 4096, 5, 5, o));
  }));
  calls.push_back(call("stencil", "convolve2d float, 4096^2, 33 x 33 mask", [&](ReferenceCall& c) {
    ConvolutionOptions o;
    o.plan = options;
    c.decisions.push_back(plan_convolution_algorithm<float>(planner, 4096, 4096, 33, 33, o));
    if (c.decisions.back().value != "fft") return add(c, plan_convolution<float>(planner, 4096, 4096, 33, 33, o));
    const ConvolutionFftLaunches l = plan_convolution_fft<float>(planner, 4096, 4096, 33, 33, o.boundary);
    FftProblem p;
    p.shape = {l.grid.rows, l.grid.cols};
    p.kind = FftProblem::r2c;
    c.launches.push_back({"conv_fft_extend", l.extend});
    for (const FftStep& s : plan_fft(planner, p, ElementType::f32, options).steps)
      c.launches.push_back({s.entry, s.plan});
    c.launches.push_back({"conv_fft_multiply", l.multiply});
    p.kind = FftProblem::c2r;
    for (const FftStep& s : plan_fft(planner, p, ElementType::f32, options).steps)
      c.launches.push_back({s.entry, s.plan});
    c.launches.push_back({"conv_fft_crop", l.crop});
  }));
  calls.push_back(call("stencil", "ncc uint8, 4096^2 image, 16 x 16 template", [&](ReferenceCall& c) {
    NccOptions o;
    o.plan = options;
    add(c, plan_ncc<std::uint8_t>(planner, 4096, 4096, 16, 16, o));
  }));
  for (std::size_t n : {std::size_t{4096}, std::size_t{65537}})
    calls.push_back(call(
        "fft", "fft float, " + std::to_string(n) + "-point C2C forward x " + std::to_string((std::size_t{1} << 24) / n),
        [&](ReferenceCall& c) {
          FftProblem p;
          p.shape = {n};
          p.batch = (std::size_t{1} << 24) / n;
          for (const FftStep& s : plan_fft(planner, p, ElementType::f32, options).steps)
            c.launches.push_back({s.entry, s.plan});
        }));
  for (std::size_t bins : {std::size_t{256}, std::size_t{65536}})
    calls.push_back(call("histogram", "histogram, 2^24 keys, " + std::to_string(bins) + " bins", [&](ReferenceCall& c) {
      HistogramOptions o;
      o.plan = options;
      const HistogramLaunches l = plan_histogram(planner, std::size_t{1} << 24, bins, o);
      if (l.choice.variant != HistogramVariant::rows) c.launches.push_back({l.finish_entry, l.finish});
      c.launches.push_back({l.count_entry, l.count});
      if (l.choice.variant == HistogramVariant::rows) c.launches.push_back({l.finish_entry, l.finish});
    }));
  for (GemvPath path : {GemvPath::rows, GemvPath::columns})
    calls.push_back(call("gemv",
                         std::string("gemv float, 4096 x 4096, ") +
                             (path == GemvPath::rows ? "op(A)'s rows contiguous" : "op(A)'s columns contiguous"),
                         [&](ReferenceCall& c) {
                           const GemvLaunches l = plan_gemv(planner, ElementType::f32, path, 4096, 4096, options);
                           if (path == GemvPath::rows) {
                             c.launches.push_back({"gemv_dot", l.product});
                           } else {
                             c.launches.push_back({"gemv_axpy", l.product});
                             if (l.chunks > 1) c.launches.push_back({"gemv_combine", l.combine});
                           }
                         }));
  calls.push_back(call("trsv", "trsv float, order 4096, row-major", [&](ReferenceCall& c) {
    const TrsvLaunches l = plan_trsv(planner, ElementType::f32, 4096, 4096, options);
    if (l.chained) {
      c.launches.push_back({l.solve_kernel + " (every block)", l.solve});
    } else {
      c.launches.push_back({l.solve_kernel + " (a block)", l.solve});
      c.launches.push_back({l.update_kernel + " (the widest)", l.update});
    }
  }));
  calls.push_back(call("packed_symv", "packed_symv float, order 4096", [&](ReferenceCall& c) {
    const PackedSymvLaunches l = plan_packed_symv(planner, ElementType::f32, 4096);
    c.launches.push_back({l.blocks_kernel, l.blocks});
    c.launches.push_back({l.combine_kernel, l.combine});
  }));
  calls.push_back(call("reduce", "sum float, 2^24", [&](ReferenceCall& c) {
    const ReduceLaunches l = plan_sum(planner, ElementType::f32, std::size_t{1} << 24);
    c.launches.push_back({"reduce", l.reduce});
    if (l.combine) c.launches.push_back({"reduce_partials", *l.combine});
  }));
  calls.push_back(call("particles", "nbody, 65536 bodies, a force sum and a leapfrog half", [&](ReferenceCall& c) {
    NbodyOptions o;
    o.plan = options;
    const std::size_t n = 65536;
    const NbodyLaunches l = plan_nbody(planner, n, n, o);
    if (l.shape.layout == NbodyLayout::float4_tiles) {
      c.launches.push_back({"nbody_tiles", l.forces});
    } else {
      c.launches.push_back({"nbody_split", l.forces});
      c.launches.push_back({"nbody_soa", l.forces});
    }
    c.launches.push_back({"nbody_kick_drift", plan_nbody_half_step(planner, n, o)});
  }));
  calls.push_back(call("pooling", "max pooling 3 x 3, stride 2, 128x64x56x56 forward", [&](ReferenceCall& c) {
    PoolShape s;
    s.images = 128;
    s.channels = 64;
    s.height = s.width = 56;
    s.window_h = s.window_w = 3;
    s.stride_h = s.stride_w = 2;
    s.pad_h = s.pad_w = 1;
    PoolOptions o;
    o.plan = options;
    const std::size_t outputs = s.images * s.channels * s.out_height() * s.out_width();
    c.launches.push_back({"pool_forward", one_per_item(plan_pooling(planner, s, o, outputs), outputs)});
  }));
  calls.push_back(call("particles", "radial distribution, 32768 particles, 1000 shells", [&](ReferenceCall& c) {
    const RdfLaunches l = plan_rdf(planner, 32768, 1000);
    c.launches.push_back({l.count_entry, l.count});
    if (l.choice.variant == HistogramVariant::rows) c.launches.push_back({"rdf_merge", l.merge});
  }));
  calls.push_back(call("scan", "inclusive_scan float, 2^24", [&](ReferenceCall& c) {
    const ScanLaunch l = plan_scan(planner, "prefix_sum", ElementType::f32, 4, std::size_t{1} << 24, 4);
    if (l.variant == ScanVariant::lookback) c.launches.push_back({"scan_lookback", l.plan});
    if (l.variant == ScanVariant::chunks) c.launches.push_back({"scan_chunks", l.plan});
    if (l.variant == ScanVariant::reduce_then_scan) {
      c.launches.push_back({"scan_totals", l.plan});
      c.launches.push_back({"scan_blocks", l.plan});
    }
  }));
  for (bool pairs : {false, true})
    calls.push_back(
        call("sort", std::string(pairs ? "sort_by_key" : "sort") + " uint32, 2^24 keys", [&](ReferenceCall& c) {
          SortProblem problem;
          problem.n = std::size_t{1} << 24;
          problem.value_bytes = pairs ? 4 : 0;
          const SortLaunches l = plan_sort(planner, problem);
          if (l.shape.digit_bits == 0)
            throw Error("a tile of " + std::to_string(l.passes.local[0]) + " x " + std::to_string(l.shape.items) +
                        " keys does not fit local memory");
          if (l.shape.one_sweep) {
            c.launches.push_back({"sort_histograms", l.histograms});
            c.launches.push_back({"sort_onesweep (a pass)", l.passes});
          } else {
            c.launches.push_back({"sort_count (a pass)", l.passes});
            c.launches.push_back({"sort_scatter (a pass)", l.passes});
          }
        }));
  calls.push_back(call("binary_gemm", "binary_gemm, 4096^3 signs", [&](ReferenceCall& c) {
    const BinaryGemmLaunch l = plan_binary_gemm(planner, 4096, 4096);
    c.launches.push_back({l.entry, l.plan});
  }));
  calls.push_back(call("kmeans", "k-means, 300000 points of 35, k 10", [&](ReferenceCall& c) {
    const KmeansLaunch l = plan_kmeans(planner, 300000, 35, 10);
    c.launches.push_back({"kmeans_assign", l.assign});
  }));
  calls.push_back(call("knn", "KNN, 4096 queries x 4096 points of 64, k 64, cosine", [&](ReferenceCall& c) {
    const KnnLaunch l = plan_knn(planner, 4096, 4096, 64, 64, Similarity::cosine);
    c.launches.push_back({l.shape.method == KnnMethod::list ? "knn_list" : "knn_select", l.select});
  }));
  calls.push_back(call("conv_layer", "convolution layer 128x384x13x13 * 256x384x3x3, pad 1", [&](ReferenceCall& c) {
    ConvLayerShape s;
    s.images = 128;
    s.channels = 384;
    s.height = s.width = 13;
    s.filters = 256;
    s.filter_height = s.filter_width = 3;
    s.pad_h = s.pad_w = 1;
    const ConvLaunch l = plan_conv_layer(planner, s, ConvLayerOptions{}, false);
    c.launches.push_back({l.choice.method == ConvMethod::direct   ? "conv_direct"
                          : l.choice.method == ConvMethod::im2col ? "conv_im2col"
                                                                  : "winograd_inputs",
                          l.plan});
  }));
  for (std::size_t n : {std::size_t{64}, std::size_t{4096}})
    calls.push_back(call("gemm", "gemm float, " + std::to_string(n) + "^3", [&](ReferenceCall& c) {
      GemmOptions o;
      o.plan = options;
      const GemmPlans g = plan_gemm(planner, ElementType::f32, n, n, n, o);
      if (g.clblast) {
        c.launches.push_back({"CLBlast Sgemm", g.plan});
      } else if (g.g.pack) {
        c.launches.push_back({"gemm_pack (A)", g.pack_a_plan});
        c.launches.push_back({"gemm_pack (B)", g.pack_b_plan});
        c.launches.push_back({"gemm_tiled", g.plan});
      } else {
        c.launches.push_back({"gemm", g.plan});
      }
    }));
  calls.push_back(call("stream", "axpy float, 2^24", [&](ReferenceCall& c) {
    c.launches.push_back({"axpy", planner.plan(axpy_traits(ElementType::f32), ProblemSize(std::size_t{1} << 24))});
  }));
  // Molecular dynamics: 32768 atoms of a Lennard-Jones liquid (density
  // 0.8442, cutoff 2.5, skin 0.3), the list's first build, then its forces.
  calls.push_back(call("particles", "neighbour list and Lennard-Jones forces, 32768 atoms", [&](ReferenceCall& c) {
    const std::size_t n = 32768;
    const float side = float(std::cbrt(double(n) / 0.8442));
    const NeighbourLaunch list = plan_neighbour_search(planner, n, {side, side, side}, 2.8f, 0, false, true);
    c.launches.push_back({list.shape.cells ? "nlist_cells" : "nlist_all_pairs", list.plan});
    c.launches.push_back({"lj_forces", plan_lj(planner, n, 1, list.shape.slots_by_k, false, ElementType::f32).plan});
    const BondLaunches bonds = plan_bonds(planner, n, n - 1, 2);
    c.launches.push_back({"bond_forces (a chain)", bonds.per_bond});
    c.launches.push_back({"bond_gather", bonds.gather});
  }));
  calls.push_back(call("ml", "dense 256 x 4096 -> 1000, softmax loss, SGD on 4M parameters", [&](ReferenceCall& c) {
    c.launches.push_back({"dense_bias", one_per_item(plan_dense(planner, 256, 1000, true, true), 256 * 1000)});
    c.launches.push_back({"softmax_cross_entropy", one_per_item(plan_softmax_loss(planner, 256, true), 256)});
    const std::size_t parameters = 4096 * 1000 + 1000;
    c.launches.push_back({"sgd_momentum", one_per_item(plan_sgd(planner, parameters), parameters)});
  }));
  return calls;
}

}  // namespace portacl
