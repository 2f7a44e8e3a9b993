// SPDX-License-Identifier: Apache-2.0
// A device group of the GPU and the CPU (the GPU suite's machine), and of
// two GPUs where there are two (each test warns and does nothing where its
// devices are missing, as in CI): CG, heat 2D, N-body and training across
// the members, against one GPU alone. Heat's cells are computed by one explicit fma on
// both, so its field must match bit for bit; the others within rounding.
#include <catch2/catch.hpp>

#include <cmath>

#include "../../src/tuning/sparse_reference.hpp"
#include "kernels/sparse/generators.hpp"
#include "portacl/portacl.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

std::size_t gpus() {
  std::size_t count = 0;
  for (const Device& d : all_devices()) count += d.info().type == DeviceType::gpu;
  return count;
}

double worst_relative(const std::vector<float>& got, const std::vector<float>& want) {
  double worst = 0, largest = 1e-30;
  for (std::size_t i = 0; i < want.size(); ++i) {
    largest = std::max(largest, double(std::fabs(want[i])));
    worst = std::max(worst, double(std::fabs(got[i] - want[i])));
  }
  return worst / largest;
}

// CG, heat 2D (bit for bit), N-body and a training step over `group`
// against `gpu` alone.
void check_against_one_gpu(DeviceGroup& group, Context& gpu) {
  INFO(group.describe());
  // CG on a permuted Poisson matrix (halos from everywhere).
  const HostCsr<double> csr = permuted_symmetric(poisson2d<double>(41), 3);
  const std::vector<double> rhs = test::random_vector<double>(csr.rows);
  const GroupSparseMatrix<double> a(group, csr);
  SolverOptions o;
  o.tolerance = 1e-9;
  o.max_iterations = 3000;
  GroupVector<double> b(group, rhs), x(group, std::vector<double>(csr.rows, 0.0));
  const SolverResult r = group_cg(a, b, x, o);
  INFO(r.stop_reason << " after " << r.iterations);
  CHECK(r.converged);
  CHECK(reference::relative_residual(csr, rhs, x.download()) < 1e-8);
  // Heat 2D: bit for bit.
  const std::size_t rows = 301, cols = 77;
  const std::vector<float> u0 = test::random_vector<float>(rows * cols, -1.0, 1.0);
  HeatOptions<float> heat;
  heat.r = 0.2f;
  heat.steps = 23;
  Buffer<float> single(gpu, u0);
  heat2d(gpu, single, rows, cols, heat);
  GroupHeat2d<float> grouped(group, u0, rows, cols);
  grouped.advance(heat);
  CHECK(test::first_difference(grouped.download(), single.download()) == "equal");
  // N-body: the GPU's and the CPU's reciprocal square roots differ in the last bits.
  const std::size_t n = 1000;
  const std::vector<float> bodies = test::random_bodies(n);
  const std::vector<float> velocities(4 * n, 0.0f);
  NbodyOptions nb;
  nb.softening = 0.05f;
  Buffer<float> db(gpu, bodies), dv(gpu, velocities), da(gpu, 4 * n);
  nbody_accelerations(gpu, db, da, nb);
  GroupNbody many(group, bodies, velocities, nb);
  for (int s = 0; s < 3; ++s) {
    nbody_step(gpu, db, dv, da, 0.01f, nb);
    many.step(0.01f);
  }
  CHECK(worst_relative(many.bodies(), db.download()) < 1e-5);
  CHECK(worst_relative(many.accelerations(), da.download()) < 1e-3);
  // Training: one step on 24 images.
  const SmallCnnShape shape{1, 8, 8, 4, 3};
  const std::vector<float> images = test::random_vector<float>(24 * 64, -1.0, 1.0);
  std::vector<int> labels(24);
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = int(i % 3);
  SmallCnn one(gpu, shape, 5);
  GroupSmallCnn replicas(group, shape, 5);
  Buffer<float> di(gpu, images);
  Buffer<int> dl(gpu, labels);
  const double want = one.train_step(di, dl, 24, SgdOptions{});
  CHECK(std::fabs(replicas.train_step(images, labels, 24, SgdOptions{}) - want) <= 1e-4 * want);
  CHECK(worst_relative(replicas.parameters(), one.packed_parameters()) < 1e-4);
}

}  // namespace

TEST_CASE("a GPU + CPU group matches the GPU alone", "[group_mixed]") {
  if (gpus() == 0) {
    WARN("no GPU here: the GPU + CPU group is tested on the GPU suite's machine");
    return;
  }
  DeviceGroup group("gpu+cpu");
  group.set_weights({3, 1});
  Context gpu(select_device("gpu"));
  check_against_one_gpu(group, gpu);
}

TEST_CASE("a group of two GPUs matches the first alone", "[group_mixed]") {
  if (gpus() < 2) {
    WARN("fewer than two GPUs here: the two-GPU group is tested on a two-GPU machine (tools/gpu/two-gpu-run.sh)");
    return;
  }
  DeviceGroup group("gpu:0,gpu:1");
  Context gpu(select_device("gpu:0"));
  for (const std::vector<double>& weights : std::vector<std::vector<double>>{{1, 1}, {3, 1}, {0, 1}}) {
    INFO("weights " << weights[0] << ":" << weights[1]);
    group.set_weights(weights);
    check_against_one_gpu(group, gpu);
  }
}
