// SPDX-License-Identifier: Apache-2.0
// How a fast Fourier transform is laid out on a device (src/kernels/fft.cpp
// carries it out): each axis's length as mixed-radix stages or Bluestein's
// chirp-z, the stages' lengths, radices and work-groups, and the order of
// the launches over the caller's buffers and the plan's temporaries. Each
// choice records its decision and rule in the plan of the launch it makes.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "portacl/device.hpp"
#include "portacl/plan.hpp"

namespace portacl {

/// A problem as the rules see it (the user's FftOptions, in numbers).
/// Lengths and layouts count the array's own elements: reals for a real
/// array, complex pairs for a complex one.
struct FftProblem {
  enum Kind { c2c, r2c, c2r };
  std::vector<std::size_t> shape;  ///< 1 to 3 lengths, the last the fastest-varying
  std::size_t batch = 1;
  Kind kind = c2c;
  bool inverse = false;  ///< c2c's direction (r2c forward, c2r inverse)
  std::size_t in_offset = 0, in_stride = 1, in_distance = 0;
  std::size_t out_offset = 0, out_stride = 1, out_distance = 0;
  std::size_t element_bytes = 4;  ///< a real's: 4 (float) or 8 (double)
};

/// The real array's and the complex array's lengths along the last axis
/// of a transform of length n: n and n / 2 + 1.
inline std::size_t fft_half(std::size_t n) { return n / 2 + 1; }

/// n's prime factors, smallest first (n >= 1; 1 has none).
std::vector<std::size_t> fft_prime_factors(std::size_t n);
/// Whether every prime factor of n is at most 13 (the kernels' radices).
bool fft_smooth(std::size_t n);
/// The smallest 2^a 3^b 5^c 7^d at least `least`, of the primes up to
/// `largest_prime` alone (2, 3, 5 or 7).
std::size_t fft_smooth_at_least(std::size_t least, std::size_t largest_prime = 7);

/// One stage: sub-sequences of `length` after stages whose lengths
/// multiply to `before`, its passes' radices (each 2 to 13), and the
/// sub-sequences a work-group holds (`slots`).
struct FftStage {
  std::size_t length = 1, before = 1, slots = 1;
  std::vector<unsigned> radices;
  /// The specialised stage: where its passes' twiddles start in the
  /// length's pass table (FftLength::pass_twiddles); a lanes stage after
  /// others: where its own twiddles start there.
  std::size_t twiddle_offset = 0;
};

/// How one length is transformed: stages of n itself, or Bluestein's
/// chirp-z through stages of a smooth length m >= 2n - 1.
struct FftLength {
  std::size_t n = 1;
  bool bluestein = false;
  std::size_t m = 1;  ///< the length the stages transform (n unless bluestein)
  /// Bluestein: the convolution kernel's spectrum transformed in double
  /// (the device has fp64), else in the transform's precision.
  bool spectrum_in_double = false;
  std::size_t capacity = 1;  ///< complex values a stage's local memory holds for one slot
  /// The twiddle table's split: W_m^k = lo[k mod 2^shift] hi[k >> shift]
  /// (one table up to 4096 roots, else two of about sqrt(m)).
  unsigned twiddle_shift = 0;
  /// The specialised stages' pass table (rule fft.pass-twiddles): for each
  /// stage's passes after the first, W_(nsl q)^(i k) at k nsl + i (i < nsl,
  /// k < q; nsl the product of the earlier passes' radices). Lanes
  /// (fft.lanes): for each stage after the first, W_(before length)^(j k)
  /// at (k - 1) before + j (j < before, 1 <= k < length). 0: none.
  std::size_t pass_twiddles = 0;
  std::vector<FftStage> stages;
  /// CPUs and Xeon Phi (rule fft.lanes): each stage is a launch of
  /// fft_lanes, a work-item this many of its sequences at once, one SIMD
  /// lane each, a sequence in private memory; 0: the stage kernel.
  std::size_t lanes = 0;
  /// Lanes: a work-item's lanes take the same slot of consecutive
  /// transforms (they lie side by side), else consecutive slots of one.
  bool lanes_across = false;
};

/// The stages for length n under `plan` (its class decides; limits are
/// `device`'s) of reals of `element_bytes`:
///   Bluestein's chirp-z where a prime factor is above 13, through the
///   smallest 2^a 3^b 5^c 7^d at least 2n - 1, its kernel's spectrum made
///   in double where the device has fp64 (rule fft.bluestein);
///   stages as long as a work-group's two local buffers hold, as few as
///   that allows, of near-equal length (fft.stage-length: GPUs their local
///   memory, CPUs and Xeon Phi 256 KiB, a core's second-level cache);
///   radices 8 first, then 4, 2, 3, 5, 7, 11 and 13 (fft.radices);
///   slots to give a work-group about its planned size of butterflies a
///   pass, within the local memory (fft.slots).
/// `across_batches`: the axis's transforms lie side by side in memory (a
/// column axis: consecutive transforms are nearer than a transform's
/// consecutive values), so a GPU stage must also hold a sector's worth of
/// them (fft.columns).
FftLength choose_fft_length(LaunchPlan& plan, const DeviceInfo& device, std::size_t n, std::size_t element_bytes,
                            bool across_batches = false);

/// Where a launch reads or writes: the caller's input or output, the
/// plan's two temporaries, or its copy of a C2R input (which the inverse
/// axes then transform in place of the caller's).
enum class FftOperand { input, output, temp_a, temp_b, copy };

/// A strided batch over an operand: element e of batch b at
/// offset + b0 d0 + b1 d1 + b2 d2 + e stride, b = b0 + c0 (b1 + c1 b2).
struct FftView {
  FftOperand operand = FftOperand::input;
  std::size_t offset = 0, stride = 1;
  std::array<std::size_t, 3> distance{{0, 0, 0}};
};

/// One launch of a transform.
struct FftStep {
  enum Kind { stage, chirp_in, chirp_product, chirp_out, real_post, real_pre, lanes } kind = stage;
  /// fft_stage, fft_chirp_in, fft_chirp_product, fft_chirp_out, fft_real_post, fft_real_pre, fft_lanes
  std::string entry;
  LaunchPlan plan;  ///< whole: macros, grid, local size
  FftView in, out;
  std::size_t c0 = 1, c1 = 1;  ///< the batch's inner counts (FftView)
  std::size_t transforms = 0;  ///< sequences transformed (every batch's)
  std::size_t n = 0;  ///< the sequences' length (stage: the stage's transform, m under Bluestein; real_*: the reals')
  std::size_t axis = 0;  ///< which length's tables (twiddles, chirp, spectrum): FftLaunches::lengths
  // stage
  FftStage shape;
  bool in_slot_first = false, out_slot_first = false;
  /// Consecutive slots are consecutive transforms at one index (a column
  /// axis, rule fft.columns), not consecutive indices of one transform.
  bool batch_major = false;
  std::size_t local_bytes = 0;    ///< the first local buffer
  std::size_t second_buffer = 0;  ///< the second's (0: the passes run in place)
  // chirp steps: the transform's length n and the convolution's m
  std::size_t chirp_n = 0, chirp_m = 0;
};

/// A plan's launches in order, and what they need: the lengths (one per
/// axis; twiddle tables for each length's stages, chirp and spectrum
/// tables under Bluestein) and the temporaries' sizes in complex values.
struct FftLaunches {
  bool inverse = false;            ///< the transform's direction (the chirp product's spectrum)
  std::vector<FftLength> lengths;  ///< per axis, the shape's order
  std::vector<FftStep> steps;
  std::size_t temp_values = 0;  ///< each of temp_a and temp_b
  std::size_t copy_values = 0;  ///< the C2R input's copy
  /// The packed real transform (rule fft.real-packed): the last axis's n
  /// reals run as n / 2 complex values (lengths.back() is n / 2's), and
  /// fft_real_post / fft_real_pre read the roots W_n^k from a table of
  /// n's split at real_shift (as FftLength::twiddle_shift); 0: not packed.
  std::size_t real_n = 0;
  unsigned real_shift = 0;
};

/// The launches of `problem` (already validated) under `plan` (the stage
/// kernel's plan for this problem) on `device`: each axis in turn, the
/// last first for R2C and last of all for C2R (an even length's reals as
/// half as many complex values where rule fft.real-packed takes them, with
/// a launch after (R2C) or before (C2R) its stages), each axis's length by
/// choose_fft_length, its stages' grids, work-groups and local memory
/// (rule fft.slots), their loads' and stores' orders (fft.coalescing), and
/// the chirp-z's elementwise passes a work-item per value.
FftLaunches plan_fft_launches(const LaunchPlan& plan, const DeviceInfo& device, const FftProblem& problem);

/// A stage's work-group within its compiled kernel's CL_KERNEL_WORK_GROUP_SIZE
/// (`compiled_limit`, 0: unknown): the largest power of two within it, the
/// grid kept (rule limits.kernel-work-group-size).
void fit_fft_group(FftStep& step, std::size_t compiled_limit);

}  // namespace portacl
