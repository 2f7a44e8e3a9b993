// SPDX-License-Identifier: Apache-2.0
// The stencil family's declarations for the runtime, the tuner and the
// tests: its kernels' traits (what the rules see) and tuning spaces (what
// the tuner may change). Tuner plumbing, not user API: never installed.
#pragma once

#include <string>

#include "portacl/programs.hpp"
#include "portacl/plan.hpp"
#include "rules/tuning_space.hpp"
#include "portacl/stencil.hpp"

namespace portacl {

KernelTraits heat2d_traits(ElementType element);
/// work-group shape (work_group_size; the planner's 2D shape), local memory
/// on or off, STEPS_PER_LAUNCH (temporal blocking), CELLS_X (cells of a row
/// per work-item, cache-reliant step), CELLS_Y (cells of a column per
/// work-item, temporal tile).
const TuningSpace& heat2d_tunables();

KernelTraits stencil3d_traits(ElementType element);
/// work-group size, local memory on or off (the plane queue),
/// OUTPUTS_Y (outputs per work-item in y), PREFETCH_PLANES (1 to 3) and
/// BLOCK_X (32 or 64: the work-group width).
const TuningSpace& stencil3d_tunables();

KernelTraits convolution_traits(ElementType element);
/// Convolution by FFT's pointwise steps (extend, multiply, crop): an
/// element read and written, a work-item each.
KernelTraits convolution_fft_traits(ElementType element);
/// work-group size of the pointwise steps (the transforms keep the FFT's
/// own plan and knobs).
const TuningSpace& convolution_fft_tunables();
/// work-group size, local memory on or off, OUTPUTS_X (outputs of a row
/// per work-item), OUTPUTS_Y (output rows per work-item).
const TuningSpace& convolution_tunables();

KernelTraits ncc_traits(ElementType pixel);
/// work-group size, local memory on or off, OUTPUTS_X.
const TuningSpace& ncc_tunables();

}  // namespace portacl
