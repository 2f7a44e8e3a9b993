// SPDX-License-Identifier: Apache-2.0
/// \file
/// Radix sort of 32-bit keys, alone or with 32-bit values carried along:
/// stable (equal keys keep their order), any length, in place (the sorted
/// keys and values replace the inputs).
///
/// Key order: unsigned and int keys by value; float keys in IEEE order with
/// -0.0 equal to +0.0 (their order is kept, as std::stable_sort with
/// operator< keeps it) and every NaN after +infinity, NaNs in their input
/// order. The bits of every key, NaN payloads included, are moved
/// unchanged.
///
/// The plan says how: on CPUs each work-item counts and moves a contiguous
/// chunk of keys with private counters (no local memory, no barriers); on
/// GPUs each work-group ranks a tile of keys in local memory and writes it
/// out digit by digit. Each pass sorts by one digit (the plan's digit
/// width) and the passes run from the lowest digit up; a pass is a count,
/// a scan of the counts and a scatter. The scatter needs a second array of
/// the keys (and values) that the context keeps as scratch memory.
///
/// Errors, before any launch: buffers of another context, values of
/// another length than the keys, values sharing memory with the keys, more
/// than 2^32 - 1 keys, key_bits outside 1..32 or below 32 for int and
/// float keys.
#pragma once

#include <cstddef>
#include <cstdint>

#include "portacl/rules/launch_plan.hpp"
#include "portacl/rules/mapping_rules.hpp"
#include "portacl/kernels/element.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"

namespace portacl {

struct SortOptions {
  /// Unsigned keys only: the keys are below 2^key_bits, so only their low
  /// key_bits bits are sorted (cell indices below 2^20 need 20, not 32,
  /// which saves whole passes). Keys with higher bits set end in an
  /// unspecified order; they are never lost.
  unsigned key_bits = 32;
  PlanOptions plan;
};

/// Sorts `keys` in place. Returns the scatter's plan; its decisions name
/// the variant, the digit width and the passes.
template <class K, class = only_for<K, std::uint32_t, int, float>>
LaunchPlan sort(Context& ctx, Buffer<K>& keys, const SortOptions& options = {});

/// Sorts `keys` in place and moves `values` with them: values[i] follows
/// keys[i] (a stable sort of pairs by key).
template <class K, class V, class = only_for<K, std::uint32_t, int, float>,
          class = only_for<V, std::uint32_t, int, float>>
LaunchPlan sort_by_key(Context& ctx, Buffer<K>& keys, Buffer<V>& values, const SortOptions& options = {});

}  // namespace portacl
