// SPDX-License-Identifier: Apache-2.0
// All-pairs N-body: leapfrog steps of (n, 4) float32 bodies (x, y, z, mass)
// and velocities.
#include "bindings.hpp"

namespace portacl::python {

namespace {

py::array_t<float, py::array::c_style> bodies_array(const py::array& a, const std::string& what) {
  const auto v = checked<float>(a, 2, what);
  if (v.shape(1) != 4)
    throw py::value_error(what + ": an (n, 4) array is needed (x, y, z and mass or w), not (" +
                          std::to_string(v.shape(0)) + ", " + std::to_string(v.shape(1)) + ")");
  return v;
}

}  // namespace

void bind_particles(py::module_& m) {
  m.def("nbody", [](Context& ctx, const py::array& bodies, const py::array& velocities, double dt, std::size_t steps,
                    double softening, double gravity) {
    const auto hb = bodies_array(bodies, "nbody: bodies"), hv = bodies_array(velocities, "nbody: velocities");
    if (hb.shape(0) != hv.shape(0))
      throw py::value_error("nbody: " + std::to_string(hb.shape(0)) + " bodies but " + std::to_string(hv.shape(0)) +
                            " velocities");
    const py::ssize_t n = hb.shape(0);
    NbodyOptions o;
    o.softening = float(softening);
    o.gravity = float(gravity);
    Buffer<float> b(ctx, values(hb)), v(ctx, values(hv)), a(ctx, std::size_t(4 * n));
    LaunchPlan plan;
    {
      py::gil_scoped_release release;
      plan = nbody_accelerations(ctx, b, a, o);
      for (std::size_t s = 0; s < steps; ++s) plan = nbody_step(ctx, b, v, a, float(dt), o);
    }
    py::tuple out = py::make_tuple(download(b, {n, 4}), download(v, {n, 4}), download(a, {n, 4}));
    return with_plan(out, plan);
  });
}

}  // namespace portacl::python
