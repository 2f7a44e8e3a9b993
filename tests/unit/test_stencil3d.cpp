// SPDX-License-Identifier: Apache-2.0
// 3D stencils: the star of radius 1 to 4 and general stencils against the
// double-precision host reference on random fields of awkward extents, every
// boundary, both star variants and every device class's plan, outputs
// poisoned before each launch; a constant field gives the constant times
// (c0 + 6 sum c_r), a linear field itself times the same factor, and
// mirroring the input mirrors the output; bad input is refused.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "portacl/stencil.hpp"
#include "../../src/tuning/stencil_reference.hpp"
#include "test_support.hpp"

using namespace portacl;

namespace {

// Runs the star into a NaN-poisoned output and compares with the host:
// each output sums 6R + 1 products of magnitudes below 2 x 1. Returns the
// plan it ran.
template <class T>
LaunchPlan check_star(Context& ctx, Extent3 e, std::size_t radius, const Stencil3dOptions& o) {
  const std::vector<T> field = test::random_vector<T>(e.cells());
  const std::vector<T> c = test::random_vector<T>(radius + 1, 0.1, 1.0);
  const std::vector<double> want =
      reference::stencil3d(field, e.nx, e.ny, e.nz, reference::star_points(c), radius, o.boundary);
  Buffer<T> in(ctx, field), out(ctx, std::vector<T>(want.size(), std::numeric_limits<T>::quiet_NaN()));
  const LaunchPlan used = star_stencil3d(ctx, in, e, c, out, o);
  INFO(e.nx << " x " << e.ny << " x " << e.nz << ", radius " << radius << ", boundary " << to_string(o.boundary)
            << ", queue " << (o.plane_queue ? (*o.plane_queue ? "on" : "off") : "rules") << ", outputs_y "
            << (o.outputs_y ? std::to_string(*o.outputs_y) : "rules") << ", z_chunk "
            << (o.z_chunk ? std::to_string(*o.z_chunk) : "rules") << "\n"
            << used.explain());
  const std::vector<T> got = out.download();
  const double bound = 8.0 * double(6 * radius + 1) * 2.0 * std::numeric_limits<T>::epsilon();
  std::size_t bad = 0, first = got.size();
  for (std::size_t k = 0; k < got.size(); ++k)
    if (!(std::fabs(double(got[k]) - want[k]) <= bound) && bad++ == 0) first = k;
  INFO("first bad output " << first);
  CHECK(bad == 0);
  return used;
}

const std::vector<Extent3> awkward{{1, 1, 1}, {2, 3, 2}, {7, 5, 3}, {13, 11, 9}, {37, 6, 11}};

}  // namespace

TEMPLATE_TEST_CASE("3D star stencil matches the host for radius 1 to 4, every boundary and variant", "[stencil3d]",
                   float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // Each variant meets every radius and every boundary (each combination is
  // a program to build).
  const std::optional<bool> variants[] = {std::nullopt, true, false};
  std::size_t turn = 0;
  // Radii 1 and 4 meet every boundary; 2 and 3 one each.
  for (std::size_t radius : {1, 2, 3, 4})
    for (Boundary b : radius == 1 || radius == 4
                          ? std::vector<Boundary>{Boundary::valid, Boundary::zero, Boundary::clamp}
                          : std::vector<Boundary>{radius == 2 ? Boundary::zero : Boundary::valid}) {
      Stencil3dOptions o;
      o.boundary = b;
      o.plane_queue = variants[turn++ % 3];
      for (const Extent3 e : awkward)
        if (b != Boundary::valid || std::min({e.nx, e.ny, e.nz}) > 2 * radius) {
          const LaunchPlan used = check_star<T>(ctx, e, radius, o);
          if (o.plane_queue && *o.plane_queue && e.cells() > 1) {
            // The rules for the forced queue on the device the suite runs on
            // (PORTACL_TEST_DEVICE may be a GPU): 4 outputs in y and loads 3
            // plane steps ahead on GPU classes, 2 and 1 elsewhere.
            const bool gpu = gpu_class(used.device_class);
            CHECK(used.decision("outputs_y")->value == (gpu ? "4" : "2"));
            CHECK(used.decision("prefetch_planes")->value == (gpu ? "3" : "1"));
          }
        }
      if (b == Boundary::valid) check_star<T>(ctx, {2 * radius + 3, 2 * radius + 1, 2 * radius + 2}, radius, o);
    }
}

TEST_CASE("3D star stencil: the plane queue with 1 to 8 outputs per work-item in y", "[stencil3d]") {
  Context& ctx = test::cpu_context();
  for (std::size_t outputs : {1, 3, 8}) {
    Stencil3dOptions o;
    o.boundary = Boundary::clamp;
    o.plane_queue = true;
    o.outputs_y = outputs;
    check_star<float>(ctx, {19, 29, 7}, 4, o);  // 29 rows: a remainder for every count
    // Chunks of z that divide the 7 planes or not, shorter than the queue, and a single plane.
    for (std::size_t chunk : {1, 3, 5, 9}) {
      o.z_chunk = chunk;
      check_star<float>(ctx, {19, 29, 7}, 4, o);
    }
  }
}

TEST_CASE("3D star stencil: the plane queue with 2 to 4 planes of loads in flight", "[stencil3d]") {
  // P steps per pass: chunk lengths leave every remainder from 0 to P - 1
  // after the passes, and the loads reach past the chunk's and the grid's
  // last plane. Each combination is a program to build: radius 4 meets
  // both depths 2 and 4 with two boundaries, radius 1 depth 3 once.
  Context& ctx = test::cpu_context();
  for (std::size_t radius : {1, 4})
    for (std::size_t depth : {2, 3, 4})
      for (Boundary b : {Boundary::zero, Boundary::clamp}) {
        if ((radius == 1) != (depth == 3) || (radius == 1 && b == Boundary::clamp)) continue;
        Stencil3dOptions o;
        o.boundary = b;
        o.plane_queue = true;
        o.outputs_y = b == Boundary::zero ? 1 : 3;
        o.prefetch_planes = depth;
        for (std::size_t chunk : {1, 2, 3, 4, 7, 8}) {
          o.z_chunk = chunk;
          check_star<float>(ctx, {19, 29, 7}, radius, o);
        }
        check_star<float>(ctx, {2, 3, 2}, radius, o);
      }
}

TEST_CASE("3D star stencil: prepared weights serve repeated calls, as the one-call form does", "[stencil3d]") {
  Context& ctx = test::cpu_context();
  const std::vector<float> c = test::random_vector<float>(5, 0.1, 1.0);
  const StarWeights<float> prepared(ctx, c);
  CHECK(prepared.radius() == 4);
  const Extent3 e{19, 13, 11};
  for (int step = 0; step < 3; ++step) {
    const std::vector<float> field = test::random_vector<float>(e.cells());
    Buffer<float> in(ctx, field), once(ctx, e.cells()), again(ctx, e.cells());
    star_stencil3d(ctx, in, e, prepared, once);
    star_stencil3d(ctx, in, e, c, again);
    CHECK(once.download() == again.download());
    const std::vector<double> want =
        reference::stencil3d(field, e.nx, e.ny, e.nz, reference::star_points(c), 4, Boundary::zero);
    CHECK(reference::within(once.download(), want, 8.0 * 25 * 2.0 * std::numeric_limits<float>::epsilon()).empty());
  }
  Context& other = test::another_context();
  const StarWeights<float> foreign(other, c);
  Buffer<float> in(ctx, e.cells()), out(ctx, e.cells());
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, foreign, out), Catch::Contains("weights belongs to another context"));
  CHECK_THROWS_WITH(StarWeights<float>(ctx, {1.0f}), Catch::Contains("R from 1 to 4"));
}

// Float only: the class's plan shapes the launch, which the element type
// does not change; the cases above cover double.
TEST_CASE("3D star stencil runs under every device class's plan", "[stencil3d]") {
  Context& ctx = test::cpu_context();
  int gpus = 0;
  for (const auto& [f, opt] : test::class_plans(ElementType::f32)) {
    INFO(f);
    Stencil3dOptions o;
    o.boundary = Boundary::zero;
    o.plan = opt;
    check_star<float>(ctx, {23, 17, 12}, 4, o);
    // Rows of 64 or more: GPUs take blocks 64 wide, 4 outputs in y and
    // loads 3 planes ahead.
    const LaunchPlan used = check_star<float>(ctx, {67, 13, 11}, 4, o);
    if (used.device_class == DeviceClass::nvidia_gpu || used.device_class == DeviceClass::amd_gcn_gpu) {
      ++gpus;
      CHECK(used.decision("outputs_y")->value == "4");
      CHECK(used.decision("prefetch_planes")->value == "3");
      CHECK(used.decision("block_width")->value == "64");
      CHECK(used.local[0] == 64);
    }
  }
  CHECK(gpus >= 3);  // two NVIDIA fixtures and an AMD GCN
}

TEMPLATE_TEST_CASE("3D star stencil: constant and linear fields, and mirror symmetry", "[stencil3d]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  const std::vector<T> c{T(-3.0), T(0.5), T(0.25), T(0.125), T(0.0625)};  // dyadic: sums exact
  const double factor = -3.0 + 6 * (0.5 + 0.25 + 0.125 + 0.0625);
  const Extent3 e{21, 18, 14};
  for (std::optional<bool> queue : {std::optional<bool>(), std::optional<bool>(true)}) {
    Stencil3dOptions clamp;
    clamp.boundary = Boundary::clamp;
    clamp.plane_queue = queue;
    Buffer<T> flat(ctx, std::vector<T>(e.cells(), T(1.5))), out(ctx, e.cells());
    star_stencil3d(ctx, flat, e, c, out, clamp);
    for (T v : out.download()) CHECK(double(v) == 1.5 * factor);

    // A linear field: the odd terms cancel, so the star scales it.
    Stencil3dOptions valid;
    valid.boundary = Boundary::valid;
    valid.plane_queue = queue;
    std::vector<T> linear(e.cells());
    for (std::size_t z = 0; z < e.nz; ++z)
      for (std::size_t y = 0; y < e.ny; ++y)
        for (std::size_t x = 0; x < e.nx; ++x)
          linear[(z * e.ny + y) * e.nx + x] = T(0.25 * double(x) - 0.5 * double(y) + 0.125 * double(z) + 2.0);
    const Extent3 o3 = stencil3d_output_extent(e, 4, Boundary::valid);
    Buffer<T> lin(ctx, linear), inner(ctx, o3.cells());
    star_stencil3d(ctx, lin, e, c, inner, valid);
    const std::vector<T> got = inner.download();
    for (std::size_t z = 0; z < o3.nz; ++z)
      for (std::size_t y = 0; y < o3.ny; ++y)
        for (std::size_t x = 0; x < o3.nx; ++x)
          CHECK(double(got[(z * o3.ny + y) * o3.nx + x]) ==
                factor * double(linear[((z + 4) * e.ny + y + 4) * e.nx + x + 4]));

    // Mirroring x and z of the input mirrors the output. Dyadic inputs (k /
    // 64, |k| <= 128) make every sum exact, so the mirrored run must match
    // bit for bit whatever order the kernel adds in: with random reals the
    // two orders differed by more than a fixed 32 ulps now and then (seed
    // 13332456079515823865, double).
    Stencil3dOptions zero;
    zero.boundary = Boundary::zero;
    zero.plane_queue = queue;
    const std::vector<T> field = test::random_dyadic<T>(e.cells(), 2, 64);
    std::vector<T> mirrored(e.cells());
    for (std::size_t z = 0; z < e.nz; ++z)
      for (std::size_t y = 0; y < e.ny; ++y)
        for (std::size_t x = 0; x < e.nx; ++x)
          mirrored[((e.nz - 1 - z) * e.ny + y) * e.nx + (e.nx - 1 - x)] = field[(z * e.ny + y) * e.nx + x];
    Buffer<T> a(ctx, field), b(ctx, mirrored), ra(ctx, e.cells()), rb(ctx, e.cells());
    star_stencil3d(ctx, a, e, c, ra, zero);
    star_stencil3d(ctx, b, e, c, rb, zero);
    const std::vector<T> ga = ra.download(), gb = rb.download();
    for (std::size_t z = 0; z < e.nz; ++z)
      for (std::size_t y = 0; y < e.ny; ++y)
        for (std::size_t x = 0; x < e.nx; ++x)
          CHECK(gb[((e.nz - 1 - z) * e.ny + y) * e.nx + (e.nx - 1 - x)] == ga[(z * e.ny + y) * e.nx + x]);
  }
}

TEMPLATE_TEST_CASE("general 3D stencil with its own weight per offset matches the host", "[stencil3d]", float, double) {
  using T = TestType;
  Context& ctx = test::cpu_context();
  // An asymmetric 10-point stencil reaching 3 cells, corners included.
  const std::vector<std::array<int, 3>> offsets{{0, 0, 0}, {1, 0, 0},    {-3, 0, 0}, {0, 2, 0},  {0, -1, 1},
                                                {1, 1, 1}, {-1, -1, -1}, {0, 0, -3}, {2, -2, 0}, {0, 3, -2}};
  const std::vector<T> w = test::random_vector<T>(offsets.size(), 0.1, 1.0);
  std::vector<StencilPoint<T>> points;
  std::vector<std::array<double, 4>> ref;
  for (std::size_t p = 0; p < offsets.size(); ++p) {
    points.push_back({offsets[p][0], offsets[p][1], offsets[p][2], w[p]});
    ref.push_back({double(offsets[p][0]), double(offsets[p][1]), double(offsets[p][2]), double(w[p])});
  }
  // The rules' variant (whole rows here), and the cache-reliant one forced
  // (float only: each combination is a program to build).
  for (std::optional<bool> queue : {std::optional<bool>(), std::optional<bool>(false)})
    for (Boundary b : {Boundary::valid, Boundary::zero, Boundary::clamp})
      for (const Extent3 e : std::vector<Extent3>{{1, 1, 1}, {13, 11, 9}, {37, 8, 10}}) {
        if (queue && sizeof(T) == 8) continue;
        if (b == Boundary::valid && std::min({e.nx, e.ny, e.nz}) <= 6) continue;
        const std::vector<T> field = test::random_vector<T>(e.cells());
        const std::vector<double> want = reference::stencil3d(field, e.nx, e.ny, e.nz, ref, 3, b);
        Buffer<T> in(ctx, field), out(ctx, std::vector<T>(want.size(), std::numeric_limits<T>::quiet_NaN()));
        Stencil3dOptions o;
        o.boundary = b;
        o.plane_queue = queue;
        const LaunchPlan used = stencil3d(ctx, in, e, points, out, o);
        const std::vector<T> got = out.download();
        std::size_t bad = 0;
        for (std::size_t k = 0; k < got.size(); ++k)
          if (!(std::fabs(double(got[k]) - want[k]) <= 64 * std::numeric_limits<T>::epsilon())) ++bad;
        INFO(e.nx << " x " << e.ny << " x " << e.nz << ", boundary " << to_string(b) << "\n" << used.explain());
        CHECK(bad == 0);
      }
}

TEST_CASE("general 3D stencil: prepared points serve repeated calls, as the one-call form does", "[stencil3d]") {
  Context& ctx = test::cpu_context();
  const std::vector<std::array<int, 3>> offsets{{0, 0, 0}, {2, 0, -1}, {0, -2, 0}, {-1, 1, 1}};
  const std::vector<float> w = test::random_vector<float>(offsets.size(), 0.1, 1.0);
  std::vector<StencilPoint<float>> points;
  std::vector<std::array<double, 4>> ref;
  for (std::size_t p = 0; p < offsets.size(); ++p) {
    points.push_back({offsets[p][0], offsets[p][1], offsets[p][2], w[p]});
    ref.push_back({double(offsets[p][0]), double(offsets[p][1]), double(offsets[p][2]), double(w[p])});
  }
  const StencilPoints<float> prepared(ctx, points);
  CHECK(prepared.reach() == 2);
  const Extent3 e{17, 9, 7};
  for (int step = 0; step < 3; ++step) {
    const std::vector<float> field = test::random_vector<float>(e.cells());
    const std::vector<float> poison(e.cells(), std::numeric_limits<float>::quiet_NaN());
    Buffer<float> in(ctx, field), once(ctx, poison), again(ctx, poison);
    stencil3d(ctx, in, e, prepared, once);
    stencil3d(ctx, in, e, points, again);
    CHECK(once.download() == again.download());
    const std::vector<double> want = reference::stencil3d(field, e.nx, e.ny, e.nz, ref, 2, Boundary::zero);
    CHECK(reference::within(once.download(), want, 8.0 * 4 * 2.0 * std::numeric_limits<float>::epsilon()).empty());
  }
  Context& other = test::another_context();
  const StencilPoints<float> foreign(other, points);
  Buffer<float> in(ctx, e.cells()), out(ctx, e.cells());
  CHECK_THROWS_WITH(stencil3d(ctx, in, e, foreign, out), Catch::Contains("points belongs to another context"));
  CHECK_THROWS_WITH(StencilPoints<float>(ctx, {}), Catch::Contains("no points"));
  CHECK_THROWS_WITH(StencilPoints<float>(ctx, {{0, 0, 0, 1.0f}, {0, 0, 0, 2.0f}}), Catch::Contains("repeats"));
}

TEST_CASE("3D stencils refuse bad input before any launch", "[stencil3d]") {
  Context& ctx = test::cpu_context();
  const Extent3 e{8, 8, 8};
  Buffer<float> in(ctx, e.cells()), out(ctx, e.cells()), small(ctx, 5);
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, std::vector<float>{1.0f}, out), Catch::Contains("R from 1 to 4"));
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, std::vector<float>(6, 1.0f), out), Catch::Contains("R from 1 to 4"));
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, std::vector<float>{1.0f, NAN}, out), Catch::Contains("c1"));
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, std::vector<float>{1.0f, 1.0f}, small),
                    Catch::Contains("out has 5 elements"));
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, {8, 8, 7}, std::vector<float>{1.0f, 1.0f}, out),
                    Catch::Contains("in has 512 elements"));
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, std::vector<float>{1.0f, 1.0f}, in), Catch::Contains("same buffer"));
  Stencil3dOptions valid;
  valid.boundary = Boundary::valid;
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, std::vector<float>(5, 1.0f), out, valid),
                    Catch::Contains("no interior"));
  Stencil3dOptions many;
  many.outputs_y = 9;
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, std::vector<float>{1.0f, 1.0f}, out, many),
                    Catch::Contains("outputs_y"));
  Stencil3dOptions no_planes;
  no_planes.z_chunk = 0;
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, std::vector<float>{1.0f, 1.0f}, out, no_planes),
                    Catch::Contains("z_chunk must be at least 1 plane"));
  Stencil3dOptions deep;
  deep.prefetch_planes = 5;
  CHECK_THROWS_WITH(star_stencil3d(ctx, in, e, std::vector<float>{1.0f, 1.0f}, out, deep),
                    Catch::Contains("prefetch_planes must be 1 to 4, not 5"));
  CHECK_THROWS_WITH(stencil3d(ctx, in, e, std::vector<StencilPoint<float>>{}, out), Catch::Contains("no points"));
  CHECK_THROWS_WITH(stencil3d(ctx, in, e, std::vector<StencilPoint<float>>{{9, 0, 0, 1.0f}}, out),
                    Catch::Contains("beyond 8 cells"));
  CHECK_THROWS_WITH(stencil3d(ctx, in, e, std::vector<StencilPoint<float>>{{1, 0, 0, 1.0f}, {1, 0, 0, 2.0f}}, out),
                    Catch::Contains("repeats an offset"));
}
