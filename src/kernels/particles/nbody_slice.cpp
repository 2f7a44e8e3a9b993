// SPDX-License-Identifier: Apache-2.0
// One part's slice of a split N-body run (a device group member's, an MPI
// rank's): the halves of a leapfrog step around the position exchange.
#include "kernels/particles/nbody_slice.hpp"

#include <cmath>

#include "portacl/error.hpp"

namespace portacl {

void check_split_nbody_inputs(const std::string& op, const std::vector<float>& bodies,
                              const std::vector<float>& velocities, const NbodyOptions& o) {
  if (!(o.softening > 0) || !std::isfinite(o.softening))
    throw Error(op + ": softening " + std::to_string(o.softening) +
                " must be a finite length above 0 (a body's own term is 0/0 without it)");
  if (!std::isfinite(o.gravity)) throw Error(op + ": gravity must be finite");
  if (bodies.size() % 4)
    throw Error(op + ": bodies has " + std::to_string(bodies.size()) + " floats, not 4 per body (x, y, z, m)");
  if (velocities.size() != bodies.size())
    throw Error(op + ": velocities has " + std::to_string(velocities.size()) + " floats but bodies has " +
                std::to_string(bodies.size()));
}

NbodySlice::NbodySlice(Context& c, std::string name, std::size_t f, std::size_t k, std::size_t n)
    : ctx(&c),
      owner(std::move(name)),
      first(f),
      count(k),
      positions(c, 4 * n),
      velocities(c, 4 * k),
      accelerations(c, 4 * k),
      sent(c, 4 * k),
      received(c, 4 * n) {}

void NbodySlice::load(const std::vector<float>& bodies, const std::vector<float>& all_velocities,
                      const NbodyOptions& o) {
  positions.upload(bodies);
  velocities.upload(all_velocities.data() + 4 * first, 4 * count);
  nbody_slice_accelerations(*ctx, positions, first, count, accelerations, o);
}

void NbodySlice::kick_drift_and_read(float dt, float* into, const NbodyOptions& o) {
  nbody_slice_kick_drift(*ctx, positions, first, count, velocities, accelerations, dt, o);
  drifted = ctx->done();
  check_cl(ctx->queue().enqueueReadBuffer(positions.cl_buffer(), CL_FALSE, 4 * first * sizeof(float),
                                          4 * count * sizeof(float), into, nullptr, &read),
           "N-body slice of " + owner + ": reading its positions");
  check_cl(ctx->queue().flush(), "N-body slice: clFlush");
}

void NbodySlice::write_positions(const float* all, std::size_t from, std::size_t bodies) {
  check_cl(ctx->queue().enqueueWriteBuffer(positions.cl_buffer(), CL_FALSE, 4 * from * sizeof(float),
                                           4 * bodies * sizeof(float), all + 4 * from, nullptr, &written),
           "N-body slice of " + owner + ": writing its copy of the positions");
  check_cl(ctx->queue().flush(), "N-body slice: clFlush");
}

void NbodySlice::forces_and_kick(float dt, const NbodyOptions& o) {
  nbody_slice_accelerations(*ctx, positions, first, count, accelerations, o);
  nbody_slice_kick(*ctx, count, velocities, accelerations, dt, o);
}

}  // namespace portacl
