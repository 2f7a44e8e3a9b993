// SPDX-License-Identifier: Apache-2.0
/// \file
/// Vectors spread over a device group, and the group's calibrated weights.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "portacl/buffer.hpp"
#include "portacl/context.hpp"
#include "portacl/vectors.hpp"

// ---- group vector ------------------------------------------------------------
/// Vectors spread over a device group, and the streaming and reduction
/// calls on them: each member holds a contiguous part, sized by the group's
/// split (rule group.split), and runs its part's kernels on its own queue;
/// every member's work is enqueued before any result is read, so the
/// members run at the same time. Reductions add the members' partial
/// results on the host, in double, in member order: the same inputs and
/// weights give the same result every run, within float rounding of the
/// single-device result (its order of additions differs).
///
/// Errors: vectors of different lengths, or split for another group or
/// other weights (their parts would not line up).
namespace portacl {

/// A vector split over a device group's members by the group's weights,
/// each part in its member's memory.
template <class T>
class GroupVector {
 public:
  /// `host` split over `group` by its weights, each part uploaded to its member.
  GroupVector(DeviceGroup& group, const std::vector<T>& host);
  /// n elements, uninitialised, split likewise.
  GroupVector(DeviceGroup& group, std::size_t n);

  std::size_t size() const { return offsets_.back(); }  ///< elements over every part
  DeviceGroup& group() const { return *group_; }        ///< the group it is split over
  /// Member i's part, elements offsets()[i] to offsets()[i + 1].
  Buffer<T>& part(std::size_t member) { return parts_.at(member); }
  /// As above, read-only.
  const Buffer<T>& part(std::size_t member) const { return parts_.at(member); }
  /// Where each member's part starts, and the end: members + 1 offsets.
  const std::vector<std::size_t>& offsets() const { return offsets_; }
  /// Every part read back, in order.
  std::vector<T> download() const;

 private:
  DeviceGroup* group_;
  std::vector<std::size_t> offsets_;
  std::vector<Buffer<T>> parts_;
};

/// The sum of x's elements: each member's part summed on its device, the
/// parts added in member order in double.
template <class T, class = only_for<T, float, double>>
double group_sum(const GroupVector<T>& x);
/// x . y, the parts' dot products added as group_sum adds.
template <class T, class = only_for<T, float, double>>
double group_dot(const GroupVector<T>& x, const GroupVector<T>& y);
/// y = a x + y, each member on its part.
template <class T, class = only_for<T, float, double>>
void group_axpy(T a, const GroupVector<T>& x, GroupVector<T>& y);

}  // namespace portacl

// ---- group calibration -------------------------------------------------------
/// A device group's split weights measured rather than guessed: each
/// member times a short workload alone, and its weight is its rate. The
/// rates are kept like tuning results (records of the user's tuning
/// database, kernel "group-calibration.<workload>", one per device), so a
/// later program, and portacl-query --group, find them without measuring.
///   memory    a copy of 2^22 floats: the rate of the streaming, stencil
///             and sparse families (bandwidth-bound)
///   compute   the N-body force sum on 4096 bodies: compute-bound families
namespace portacl {

/// The workload a calibration times (above).
enum class GroupWorkload { memory, compute };
/// "memory" or "compute".
const char* to_string(GroupWorkload w);

/// What a calibration measured and set.
struct GroupCalibration {
  std::vector<double> weights;     ///< each member's rate, relative (the slowest 1)
  std::vector<double> median_ms;   ///< each member's time for the workload
  std::string why;                 ///< a line a member, for plans and portacl-query
  std::vector<std::string> notes;  ///< where the rates were stored, or why not
};

/// How a calibration keeps its rates.
struct CalibrationOptions {
  bool save = true;      ///< merge the rates into the database
  std::string database;  ///< "": the user's tuning database (PORTACL_TUNING_DB, else the cache's)
};

/// Times the workload on every member (2 untimed runs, then the median of
/// 7), sets the group's weights, and merges the rates into the database
/// (a database that cannot be written is a note, not an error: the weights
/// are set all the same).
GroupCalibration calibrate_group(DeviceGroup& group, GroupWorkload workload, const CalibrationOptions& options = {});

/// The weights stored for every member of `group` (the same device and
/// compute units, any driver) in `database` ("" as above), or nothing when
/// a member has no record.
std::optional<GroupCalibration> stored_group_weights(const DeviceGroup& group, GroupWorkload workload,
                                                     const std::string& database = "");

}  // namespace portacl
