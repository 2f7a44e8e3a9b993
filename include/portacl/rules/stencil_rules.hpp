// SPDX-License-Identifier: Apache-2.0
/// \file
/// The named rules shared by the stencils and convolutions: whether a
/// kernel stages its block and halo in local memory, where a mask or a set
/// of weights lives, how many outputs of a row a work-item computes, and
/// when a separable mask runs as two passes. Each records its decision in
/// the plan, with the rule's id and why.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "portacl/device/device_info.hpp"
#include "portacl/rules/launch_plan.hpp"

namespace portacl {

/// Rule stencil.tile-beyond-cache: the local-memory tile only where the
/// planner allows local memory (never on CPUs), not on NVIDIA GPUs, and
/// only where `grid_bytes` (every grid the kernel streams) exceed the
/// device's cache. `forced` is the caller's choice. Records "variant".
bool stencil_uses_tile(LaunchPlan& plan, const DeviceInfo& device, std::uint64_t grid_bytes,
                       std::optional<bool> forced);

/// Rule cpu.large-grain for stencils: a CPU's cache-reliant stencil walks
/// whole rows (or long chunks of them) per work-item; elsewhere a
/// work-item takes a few cells.
bool stencil_walks_rows(const LaunchPlan& plan, bool tiled);

/// Rule convolution.mask-in-constant: weights in constant memory when they
/// fit the device's constant buffer (64 KiB, the minimum OpenCL
/// guarantees, when the device does not say), else in global memory.
/// Records "mask_memory".
bool mask_in_constant_memory(LaunchPlan& plan, const DeviceInfo& device, std::uint64_t mask_bytes,
                             std::optional<bool> forced);

/// Rule convolution.outputs-per-work-item: outputs of a row per work-item
/// of a cache-reliant or tiled convolution (1 on CPUs, whose rows variant
/// needs none). Records "outputs_per_work_item".
std::size_t convolution_outputs_per_work_item(LaunchPlan& plan, std::size_t element_bytes, std::optional<long> tuned);

/// Rule convolution.outputs-per-work-item, rows: output rows per work-item
/// of the cache-reliant convolution, 4 on GPUs and MIC for masks of up to 9
/// rows (each input row read serves several output rows), else 1.
/// Records "output_rows_per_work_item".
std::size_t convolution_output_rows_per_work_item(LaunchPlan& plan, std::size_t mask_rows, std::optional<long> tuned);

/// Rule convolution.separable-passes: a separable MR x MC mask runs as two
/// 1D passes when that saves more arithmetic than the second pass's
/// memory traffic costs. Records "passes".
bool convolution_uses_two_passes(LaunchPlan& plan, std::size_t mask_rows, std::size_t mask_cols);

}  // namespace portacl
