// SPDX-License-Identifier: Apache-2.0
// All-pairs N-body (leapfrog steps of (n, 4) float32 or float64 bodies: x, y, z, mass)
// and Lennard-Jones molecular dynamics in a periodic box.
#include "bindings.hpp"

#include <tuple>

namespace portacl::python {

namespace {

template <class T>
py::array_t<T, py::array::c_style> bodies_array(const py::array& a, const std::string& what) {
  const auto v = checked<T>(a, 2, what);
  if (v.shape(1) != 4)
    throw py::value_error(what + ": an (n, 4) array is needed (x, y, z and mass or w), not (" +
                          std::to_string(v.shape(0)) + ", " + std::to_string(v.shape(1)) + ")");
  return v;
}

// `steps` velocity-Verlet steps of Lennard-Jones particles (one type) in a
// periodic box: (positions, velocities, info).
template <class T>
py::tuple lennard_jones_md(Context& ctx, const py::array& positions, const py::array& velocities,
                           std::tuple<float, float, float> box, std::size_t steps, double dt, double cutoff,
                           double epsilon, double sigma, double mass, double skin) {
  const auto hp = checked<T>(positions, 2, "md: positions"), hv = checked<T>(velocities, 2, "md: velocities");
  if (hp.shape(1) != 4 || hv.shape(1) != 4 || hp.shape(0) != hv.shape(0))
    throw py::value_error("md: positions and velocities must both be (n, 4) (x, y, z and type or unused), not (" +
                          std::to_string(hp.shape(0)) + ", " + std::to_string(hp.shape(1)) + ") and (" +
                          std::to_string(hv.shape(0)) + ", " + std::to_string(hv.shape(1)) + ")");
  const py::ssize_t n = hp.shape(0);
  Buffer<T> p = uploaded(ctx, hp), v = uploaded(ctx, hv);
  LennardJones lj;
  lj.epsilon = {float(epsilon)};
  lj.sigma = {float(sigma)};
  lj.cutoff = float(cutoff);
  MdOptions o;
  o.dt = float(dt);
  o.masses = {float(mass)};
  o.skin = float(skin);
  MdEnergy energy;
  std::size_t rebuilds = 0;
  {
    py::gil_scoped_release release;
    BasicLennardJonesMd<T> md(ctx, p, v, PeriodicBox{std::get<0>(box), std::get<1>(box), std::get<2>(box)}, lj, o);
    md.run(steps);
    energy = md.energy();
    rebuilds = md.rebuilds();
  }
  const py::dict info("kinetic"_a = energy.kinetic, "potential"_a = energy.potential, "total"_a = energy.total(),
                      "rebuilds"_a = rebuilds);
  return py::make_tuple(download(p, {n, 4}), download(v, {n, 4}), info);
}

// `steps` leapfrog steps of all-pairs gravity in T: (bodies, velocities,
// accelerations).
template <class T>
py::tuple leapfrog(Context& ctx, const py::array& bodies, const py::array& velocities, double dt, std::size_t steps,
                   double softening, double gravity) {
  const auto hb = bodies_array<T>(bodies, "nbody: bodies"), hv = bodies_array<T>(velocities, "nbody: velocities");
  if (hb.shape(0) != hv.shape(0))
    throw py::value_error("nbody: " + std::to_string(hb.shape(0)) + " bodies but " + std::to_string(hv.shape(0)) +
                          " velocities");
  const py::ssize_t n = hb.shape(0);
  NbodyOptions o;
  o.softening = softening;
  o.gravity = gravity;
  Buffer<T> b = uploaded(ctx, hb), v = uploaded(ctx, hv), a(ctx, std::size_t(4 * n));
  LaunchPlan plan;
  {
    py::gil_scoped_release release;
    plan = nbody_accelerations(ctx, b, a, o);
    for (std::size_t s = 0; s < steps; ++s) plan = nbody_step(ctx, b, v, a, dt, o);
  }
  py::tuple out = py::make_tuple(download(b, {n, 4}), download(v, {n, 4}), download(a, {n, 4}));
  return with_plan(out, plan);
}

}  // namespace

void bind_particles(py::module_& m) {
  m.def("md",
        [](Context& ctx, const py::array& positions, const py::array& velocities, std::tuple<float, float, float> box,
           std::size_t steps, double dt, double cutoff, double epsilon, double sigma, double mass, double skin) {
          return by_real_dtype("md", positions, [&](auto t) {
            return lennard_jones_md<decltype(t)>(ctx, positions, velocities, box, steps, dt, cutoff, epsilon, sigma,
                                                 mass, skin);
          });
        });
  m.def("nbody", [](Context& ctx, const py::array& bodies, const py::array& velocities, double dt, std::size_t steps,
                    double softening, double gravity) {
    return by_real_dtype("nbody", bodies, [&](auto t) {
      return leapfrog<decltype(t)>(ctx, bodies, velocities, dt, steps, softening, gravity);
    });
  });
}

}  // namespace portacl::python
