// SPDX-License-Identifier: Apache-2.0
/// \file
/// The fast Fourier transform family: complex-to-complex, real-to-complex
/// and complex-to-real transforms of 1 to 3 dimensions, batched, of any
/// length, in float or double.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "portacl/plan.hpp"

// ---- fft ---------------------------------------------------------------------
/// A transform is planned once (a BasicFft) and run many times, as FFTW's
/// and cuFFT's plans are. Conventions are FFTW's and cuFFT's:
///   forward  X_k = sum_j x_j exp(-2 pi i j k / n)
///   inverse  x_j = sum_k X_k exp(+2 pi i j k / n)
/// unnormalised (an inverse after a forward gives n x, n the product of the
/// lengths). Complex values are interleaved (real, imaginary) pairs of T in
/// a Buffer<T>; a real-to-complex transform of lengths (..., n) keeps the
/// n / 2 + 1 first values of the last axis (the rest follow by symmetry),
/// and a complex-to-real one reads them.
///
/// Lengths: any from 1 up. Lengths whose prime factors are at most 13 run
/// as mixed-radix stages; others by Bluestein's chirp-z through a smooth
/// length at least 2n - 1 (the plan's explain() says which).
///
/// Layouts (FFTW's advanced interface, cuFFT's stride and distance):
/// element e of axis-shaped position p of batch b sits at offset +
/// b distance + (the packed index of p) stride, counted in the array's own
/// elements (complex values for a complex array, reals for a real one);
/// distance 0 means packed batches. A C2C transform may run in place (the
/// same buffer, the same layout); R2C and C2R run out of place, and C2R
/// leaves its input unchanged (FFTW's and cuFFT's may overwrite theirs).
///
/// Memory a plan holds on the device: two temporaries, each as large as the
/// batch's complex values (along an axis's padded length under Bluestein),
/// where an axis takes more than one stage or runs Bluestein, a copy of a
/// C2R input, and
/// tables of roots made in double once, rounded to T: a length's roots
/// (all of them up to 4096, else two tables of about sqrt(n)), the GPUs'
/// pass tables (small), on CPUs the later lanes stages' twiddles (about n
/// roots for a length that takes several stages: 33.6 MB for 2^22 in
/// float), and under Bluestein the chirp and the kernel's spectra.
///
/// Errors, before any launch: no lengths or more than 3, a length or a
/// batch of 0, a stride of 0, double on a device without fp64; at a call,
/// a buffer of another context, a buffer smaller than the layout reaches,
/// the wrong direction for R2C or C2R, an in-place call of R2C or C2R or
/// with two layouts, output batches that overlap.
namespace portacl {

/// What a transform takes and gives.
enum class FftKind {
  c2c,  ///< complex to complex, either direction
  r2c,  ///< real to complex, forward
  c2r,  ///< complex to real, inverse
};

/// Where a batch of transforms sits in a buffer.
struct FftLayout {
  std::size_t offset = 0;    ///< elements before the first
  std::size_t stride = 1;    ///< between consecutive elements of the last axis
  std::size_t distance = 0;  ///< between consecutive transforms; 0: packed (stride x the lengths' product)
};

/// A transform's kind, batch and layouts.
struct FftOptions {
  FftKind kind = FftKind::c2c;  ///< C2C, R2C or C2R
  std::size_t batch = 1;        ///< transforms of the shape, one after another (FftLayout::distance apart)
  FftLayout input;              ///< the input's layout
  FftLayout output;             ///< the output's layout
  PlanOptions plan;             ///< for every launch of the transform
};

/// The elements (T) a transform's buffers must hold at least.
struct FftElements {
  std::size_t input = 0;   ///< the input's layout's reach
  std::size_t output = 0;  ///< the output's
};

/// A planned transform of lengths `shape` (the last the fastest-varying) in
/// precision T (float or double).
template <class T>
class BasicFft {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value, "the FFT runs in float or double");

 public:
  /// Plans the transform and makes its tables (twiddles in double, rounded
  /// once; Bluestein's chirp and its spectrum) on ctx's device.
  BasicFft(Context& ctx, std::vector<std::size_t> shape, const FftOptions& options = {});
  ~BasicFft();
  BasicFft(BasicFft&&) noexcept;  ///< takes the other's plan

  /// C2C forward, or R2C: out = F(in).
  void forward(const Buffer<T>& in, Buffer<T>& out) const;
  /// C2C inverse, or C2R: out = F^-1(in), unnormalised.
  void inverse(const Buffer<T>& in, Buffer<T>& out) const;
  /// C2C in place.
  void forward(Buffer<T>& data) const;
  /// C2C inverse in place.
  void inverse(Buffer<T>& data) const;

  /// Elements (T) the input's and output's layouts reach: a buffer must
  /// hold at least this many.
  FftElements elements() const;
  /// Each launch's plan, forward (inverse for C2R) then, for C2C, inverse.
  std::vector<LaunchPlan> plans() const;
  /// The algorithm, stages and radices of every axis, and every launch's
  /// decisions with their rules.
  std::string explain() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

using Fft = BasicFft<float>;         ///< in float
using FftDouble = BasicFft<double>;  ///< in double

extern template class BasicFft<float>;
extern template class BasicFft<double>;

}  // namespace portacl

// ---- group fft ---------------------------------------------------------------
/// A 3D complex transform over a device group, in slabs: member i holds
/// planes plane_offsets()[i] to plane_offsets()[i + 1] of axis 0 (the
/// group's split of n0 by its weights, rule group.split), each plane
/// n1 x n2 complex values packed (the last axis fastest). A transform runs
/// each member's 2D transforms of its planes, an all-to-all through the
/// host (each slab transposed on its device and read whole into pinned
/// memory, each block written to its receiver as a rectangle) that leaves
/// member j the columns column_offsets()[j] to
/// column_offsets()[j + 1] of axis 1 (for every i0 and i2, axis 0
/// contiguous), their 1D transforms along axis 0, and the all-to-all back:
/// the output has the input's slabs. The members' transforms run at the
/// same time. Conventions are BasicFft's (unnormalised); the result is the
/// single-device transform's within its rounding (the same passes).
///
/// forward_to_columns leaves the spectrum where the 1D transforms left it
/// (FFTW's transposed output) and inverse_from_columns starts from there:
/// one all-to-all a transform instead of two, for work in the spectrum
/// between a forward and an inverse transform (a convolution, a Poisson
/// solve). There value (k0, k1, k2) lies on the member j whose columns
/// hold k1, complex value ((k1 - column_offsets()[j]) n2 + k2) n0 + k0.
///
/// Memory: besides its slab, each member keeps its columns (the columns'
/// share of the array), a device copy and a pinned host copy of its slab
/// (the all-to-all's), made once with the plan.
///
/// Errors, before any launch: a length of 0, double on a member without
/// fp64; at a call, not one slab (column buffer) a member, a slab of
/// another member's context or smaller than its planes, a column buffer
/// of another member's context or smaller than its columns.
namespace portacl {

/// A 3D complex transform of n0 x n1 x n2 over a device group, in slabs
/// of axis 0 (above), in precision T.
template <class T>
class BasicGroupFft3d {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value, "the FFT runs in float or double");

 public:
  /// Plans the transform of n0 x n1 x n2 (`shape`) over `group`: each
  /// member's transforms of its planes and columns, both directions.
  BasicGroupFft3d(DeviceGroup& group, std::array<std::size_t, 3> shape, const PlanOptions& plan = {});
  ~BasicGroupFft3d();
  BasicGroupFft3d(BasicGroupFft3d&&) noexcept;  ///< takes the other's plans

  /// Forward, in place on the members' slabs (one a member, in order).
  void forward(std::vector<Buffer<T>>& slabs) const;
  /// Inverse, unnormalised, likewise.
  void inverse(std::vector<Buffer<T>>& slabs) const;
  /// Forward from the slabs (overwritten) into the members' columns (one a
  /// member, make_columns()'s sizes at least), in the columns' layout
  /// (above): one all-to-all.
  void forward_to_columns(std::vector<Buffer<T>>& slabs, std::vector<Buffer<T>>& columns) const;
  /// Inverse, unnormalised, from the columns' layout (overwritten) into the
  /// slabs: one all-to-all.
  void inverse_from_columns(std::vector<Buffer<T>>& columns, std::vector<Buffer<T>>& slabs) const;
  /// Buffers for the columns' layout, one on each member, each holding its
  /// columns of axis 1 (2 n0 n2 values a column; empty for a member with none).
  std::vector<Buffer<T>> make_columns() const;

  /// Axis 0's split: members + 1 offsets.
  const std::vector<std::size_t>& plane_offsets() const;
  /// Axis 1's split between the all-to-alls: members + 1 offsets.
  const std::vector<std::size_t>& column_offsets() const;
  /// A whole n0 x n1 x n2 complex array (2 n0 n1 n2 values) cut into the
  /// members' slabs, each uploaded to its member.
  std::vector<Buffer<T>> scatter(const std::vector<T>& whole) const;
  /// The slabs read back into one array.
  std::vector<T> gather(const std::vector<Buffer<T>>& slabs) const;
  /// Seconds in the all-to-alls (the devices' transposes, the reads into
  /// pinned memory, the rectangle writes, and the reverse), summed over
  /// calls.
  double exchange_seconds() const;
  /// The splits and why, then each member's transforms.
  std::string explain() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

using GroupFft3d = BasicGroupFft3d<float>;         ///< in float
using GroupFft3dDouble = BasicGroupFft3d<double>;  ///< in double

extern template class BasicGroupFft3d<float>;
extern template class BasicGroupFft3d<double>;

}  // namespace portacl
