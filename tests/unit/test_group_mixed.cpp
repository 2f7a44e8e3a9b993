// SPDX-License-Identifier: Apache-2.0
// A device group of the GPU and the CPU (the GPU suite's machine), and of
// two GPUs where there are two (each test warns and does nothing where its
// devices are missing, as in CI): CG, heat 2D, N-body and training across
// the members, against one GPU alone. Heat's cells are computed by one explicit fma on
// both, so its field must match bit for bit; the others within rounding.
#include <catch2/catch.hpp>

#include <cmath>

#include "../../src/tuning/particles_nbody_reference.hpp"
#include "../../src/tuning/sparse_reference.hpp"
#include "kernels/sparse/generators.hpp"
#include "portacl/portacl.hpp"
#include "particles_leapfrog_margins.hpp"
#include "solver_checks.hpp"
#include "test_support.hpp"
#include "ml_training_margins.hpp"

using namespace portacl;

namespace {

std::size_t gpus() {
  std::size_t count = 0;
  for (const Device& d : all_devices()) count += d.info().type == DeviceType::gpu;
  return count;
}

// The largest |got - want| over the x, y and z of each body (its fourth
// value, a mass or a potential, left out).
double worst_difference(const std::vector<float>& got, const std::vector<float>& want) {
  double worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (i % 4 != 3) worst = std::max(worst, double(std::fabs(got[i] - want[i])));
  return worst;
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
  test::check_true_residual(csr, rhs, x.download(), r, o.tolerance);
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
  // Both runs within the float leapfrog's error of the exact one.
  const test::LeapfrogError error = test::leapfrog_error(bodies, nb.softening, 0.01f, 3);
  INFO("position error bound " << error.position << ", acceleration error bound " << error.acceleration);
  CHECK(worst_difference(many.bodies(), db.download()) <= 2 * error.position);
  CHECK(worst_difference(many.accelerations(), da.download()) <= 2 * error.acceleration);
  // Training: one step on 24 images from dyadic parameters and images (the
  // convolution exact, so the masks and picks are the reference's); the
  // GPU alone and the group each within their counted margins of the
  // double reference (ml_training_margins.hpp).
  const SmallCnnShape shape{1, 8, 8, 4, 3};
  const std::size_t batch = 24;
  const std::vector<float> images = test::random_dyadic<float>(batch * 64, 4, 8);
  std::vector<int> labels(batch);
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = int(i % 3);
  SmallCnn one(gpu, shape, 5);
  GroupSmallCnn replicas(group, shape, 5);
  const std::vector<float> p = test::random_dyadic<float>(one.packed_parameters().size(), 4, 16);
  one.set_packed_parameters(p);
  for (std::size_t m = 0; m < group.size(); ++m) replicas.replica(m).set_packed_parameters(p);
  REQUIRE(test::conv_exact(one, one.parameters().download(), images, batch));
  const test::StepReference whole = test::one_device(one, images, labels, batch);
  const test::StepReference shared = test::group_margins(replicas, group.split(batch), whole, images, labels, batch);
  Buffer<float> di(gpu, images);
  Buffer<int> dl(gpu, labels);
  const SgdOptions sgd;
  CHECK(std::fabs(one.train_step(di, dl, batch, sgd) - whole.loss) <= whole.loss_margin);
  CHECK(std::fabs(replicas.train_step(images, labels, batch, sgd) - whole.loss) <= shared.loss_margin);
  std::vector<double> want_w(p.begin(), p.end()), v(p.size(), 0.0), dw_one(p.size(), 0.0), dv_one(p.size(), 0.0);
  std::vector<double> dw_group(p.size(), 0.0), dv_group(p.size(), 0.0);
  test::sgd_margins(want_w, whole.gradient, v, sgd, whole.gradient_margin, dw_one, dv_one);
  test::sgd_margins(want_w, whole.gradient, v, sgd, shared.gradient_margin, dw_group, dv_group);
  reference::sgd_step(want_w, whole.gradient, v, sgd);
  CHECK(test::within_each("the GPU's parameters", one.packed_parameters(), want_w, dw_one) == "");
  CHECK(test::within_each("the group's parameters", replicas.parameters(), want_w, dw_group) == "");
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
