// SPDX-License-Identifier: Apache-2.0
// The N-body calls on a slice of the bodies: bodies first .. first + count
// - 1 of `bodies` (all n, every one read as a source), with velocities and
// accelerations holding the slice's own. The whole run is the slice 0 .. n
// - 1; a device group member runs its own. Operands are checked by the
// caller.
#pragma once

#include <cstddef>

#include "portacl/kernels/particles/nbody.hpp"

namespace portacl {

/// Each slice body's sum runs over all n in the same order as the whole
/// run's: the results are the whole run's, bit for bit.
LaunchPlan nbody_slice_accelerations(Context& ctx, const Buffer<float>& bodies, std::size_t first, std::size_t count,
                                     Buffer<float>& accelerations, const NbodyOptions& options);
/// v += a dt/2; x += v dt on the slice.
void nbody_slice_kick_drift(Context& ctx, Buffer<float>& bodies, std::size_t first, std::size_t count,
                            Buffer<float>& velocities, const Buffer<float>& accelerations, float dt,
                            const NbodyOptions& options);
/// v += a dt/2 on the slice.
void nbody_slice_kick(Context& ctx, std::size_t count, Buffer<float>& velocities, const Buffer<float>& accelerations,
                      float dt, const NbodyOptions& options);

}  // namespace portacl
