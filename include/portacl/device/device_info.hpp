// SPDX-License-Identifier: Apache-2.0
/// \file
/// The device model: a plain value holding everything the mapping rules decide
/// from. It can come from a live device, from JSON, or from clinfo text, so a
/// dump of any real device is a usable description. Unknown numbers are 0 and
/// unknown strings empty: a partial dump is still a valid description.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "portacl/util/element_type.hpp"
#include "portacl/util/json.hpp"

namespace portacl {

enum class DeviceType { unknown, cpu, gpu, accelerator, custom };
enum class LocalMemType { unknown, none, local, global };

std::string to_string(DeviceType t);
std::string to_string(LocalMemType t);
DeviceType device_type_from_string(const std::string& s);       ///< throws on unknown text
LocalMemType local_mem_type_from_string(const std::string& s);  ///< throws on unknown text

struct VectorWidths {
  std::uint32_t char_ = 0, short_ = 0, int_ = 0, long_ = 0, half = 0, float_ = 0, double_ = 0;
  std::uint32_t of(ElementType t) const;
  bool operator==(const VectorWidths& o) const;
};

/// cl_nv_device_attribute_query.
struct NvidiaAttributes {
  std::uint32_t compute_capability_major = 0, compute_capability_minor = 0;
  std::uint32_t warp_size = 0;
  std::uint32_t registers_per_block = 0;
  bool integrated_memory = false;
  bool operator==(const NvidiaAttributes& o) const;
};

/// cl_amd_device_attribute_query.
struct AmdAttributes {
  std::string board_name;
  std::uint32_t wavefront_width = 0;
  std::uint32_t simd_per_compute_unit = 0;
  std::uint32_t simd_width = 0;
  std::uint32_t simd_instruction_width = 0;
  std::uint32_t gfxip_major = 0, gfxip_minor = 0;
  bool operator==(const AmdAttributes& o) const;
};

/// cl_khr_command_buffer: recording commands once and enqueueing them again.
struct CommandBufferSupport {
  std::uint32_t version = 0;       ///< the extension's version as CL_MAKE_VERSION packs it; 0: not reported
  std::uint64_t capabilities = 0;  ///< CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR
  std::uint64_t required_queue_properties = 0;  ///< CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR
  /// "0.9.0"; "unknown" when not reported.
  std::string version_text() const;
  bool operator==(const CommandBufferSupport& o) const;
};

struct DeviceInfo {
  /// Platform.
  std::string platform_name, platform_vendor, platform_version;
  /// Identity.
  std::string name, vendor, version, driver_version, opencl_c_version;
  std::uint32_t vendor_id = 0;
  DeviceType type = DeviceType::unknown;
  /// Execution resources.
  std::uint32_t compute_units = 0;
  std::uint32_t clock_mhz = 0;
  std::uint64_t max_work_group_size = 0;
  std::vector<std::uint64_t> max_work_item_sizes;  ///< one entry per dimension
  std::uint32_t preferred_work_group_multiple = 0;
  /// Memory.
  LocalMemType local_mem_type = LocalMemType::unknown;
  std::uint64_t local_mem_size = 0;
  std::uint64_t global_mem_size = 0;
  std::uint64_t max_mem_alloc_size = 0;
  std::uint64_t global_cache_size = 0;
  std::uint32_t global_cache_line_size = 0;
  std::uint64_t max_constant_buffer_size = 0;
  bool host_unified_memory = false;
  /// Vectors and precision.
  VectorWidths preferred_vector_width, native_vector_width;
  bool fp64 = false, fp16 = false;
  std::vector<std::string> extensions;
  /// Vendor attributes, present only where the extension exists.
  std::optional<NvidiaAttributes> nvidia;
  std::optional<AmdAttributes> amd;
  std::vector<std::uint32_t> intel_sub_group_sizes;
  /// Present only where the device offers cl_khr_command_buffer.
  std::optional<CommandBufferSupport> command_buffer;

  /// Where this description came from ("live", "clinfo:FILE", "json:FILE").
  std::string source;
  /// Fields the rules read that the description did not give (a truncated
  /// or partial dump): they read as 0, "unknown". Set by the file readers
  /// (missing_rule_fields); tools warn about them.
  std::vector<std::string> missing_fields;

  bool has_extension(const std::string& ext) const;
  /// Dimension `d`'s item limit, 0 when unknown.
  std::uint64_t max_item_size(unsigned d) const;

  Json to_json() const;
  /// Throws portacl::Error naming the offending field.
  static DeviceInfo from_json(const Json& j);
  /// The descriptions in a JSON file: one description, an array of them, or
  /// portacl-query --json output. The file must be a regular file of at
  /// most 16 MiB; errors name the path.
  static std::vector<DeviceInfo> from_json_file(const std::string& path);

  bool operator==(const DeviceInfo& o) const;
  bool operator!=(const DeviceInfo& o) const { return !(*this == o); }
};

/// The fields the rules decide from that `d` leaves unknown (0 or empty),
/// by their clinfo labels.
std::vector<std::string> missing_rule_fields(const DeviceInfo& d);

}  // namespace portacl
