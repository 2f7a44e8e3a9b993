// SPDX-License-Identifier: Apache-2.0
/// \file
/// A device group's split weights measured rather than guessed: each
/// member times a short workload alone, and its weight is its rate. The
/// rates are kept like tuning results (records of the user's tuning
/// database, kernel "group-calibration.<workload>", one per device), so a
/// later program, and portacl-query --group, find them without measuring.
///   memory    a copy of 2^22 floats: the rate of the streaming, stencil
///             and sparse families (bandwidth-bound)
///   compute   the N-body force sum on 4096 bodies: compute-bound families
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "portacl/runtime/device_group.hpp"

namespace portacl {

enum class GroupWorkload { memory, compute };
const char* to_string(GroupWorkload w);

struct GroupCalibration {
  std::vector<double> weights;     ///< each member's rate, relative (the slowest 1)
  std::vector<double> median_ms;   ///< each member's time for the workload
  std::string why;                 ///< a line a member, for plans and portacl-query
  std::vector<std::string> notes;  ///< where the rates were stored, or why not
};

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
