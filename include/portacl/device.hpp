// SPDX-License-Identifier: Apache-2.0
/// \file
/// Devices: what a device is (its description, read live, from clinfo or JSON),
/// its class, and finding devices by index, type
/// or name (PORTACL_DEVICE).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "portacl/cl.hpp"
#include "portacl/element_type.hpp"
#include "portacl/json.hpp"

// ---- device info -------------------------------------------------------------
/// The device model: a plain value holding everything the mapping rules decide
/// from. It can come from a live device, from JSON, or from clinfo text, so a
/// dump of any real device is a usable description. Unknown numbers are 0 and
/// unknown strings empty: a partial dump is still a valid description.
namespace portacl {

/// CL_DEVICE_TYPE, as one value (unknown where the description did not say).
enum class DeviceType { unknown, cpu, gpu, accelerator, custom };
/// CL_DEVICE_LOCAL_MEM_TYPE: dedicated on-chip memory (local), emulated in
/// global memory (global), none, or not reported (unknown).
enum class LocalMemType { unknown, none, local, global };

/// "cpu", "gpu", "accelerator", "custom" or "unknown".
std::string to_string(DeviceType t);
/// "local", "global", "none" or "unknown".
std::string to_string(LocalMemType t);
DeviceType device_type_from_string(const std::string& s);       ///< throws on unknown text
LocalMemType local_mem_type_from_string(const std::string& s);  ///< throws on unknown text

/// CL_DEVICE_PREFERRED_VECTOR_WIDTH_* or CL_DEVICE_NATIVE_VECTOR_WIDTH_*:
/// lanes per element type (0 where not reported, or, for half and double,
/// where the type is not supported).
struct VectorWidths {
  std::uint32_t char_ = 0;    ///< 8-bit integers
  std::uint32_t short_ = 0;   ///< 16-bit integers
  std::uint32_t int_ = 0;     ///< 32-bit integers
  std::uint32_t long_ = 0;    ///< 64-bit integers
  std::uint32_t half = 0;     ///< 16-bit floats
  std::uint32_t float_ = 0;   ///< 32-bit floats
  std::uint32_t double_ = 0;  ///< 64-bit floats
  /// The width for element type `t` (its integer kinds by their size).
  std::uint32_t of(ElementType t) const;
  /// Every width equal.
  bool operator==(const VectorWidths& o) const;
};

/// cl_nv_device_attribute_query.
struct NvidiaAttributes {
  std::uint32_t compute_capability_major = 0;  ///< 9 for sm_90
  std::uint32_t compute_capability_minor = 0;  ///< 0 for sm_90
  std::uint32_t warp_size = 0;                 ///< CL_DEVICE_WARP_SIZE_NV, 32
  std::uint32_t registers_per_block = 0;       ///< CL_DEVICE_REGISTERS_PER_BLOCK_NV
  bool integrated_memory = false;              ///< CL_DEVICE_INTEGRATED_MEMORY_NV: shares the host's memory
  /// Every attribute equal.
  bool operator==(const NvidiaAttributes& o) const;
};

/// cl_amd_device_attribute_query.
struct AmdAttributes {
  std::string board_name;                    ///< CL_DEVICE_BOARD_NAME_AMD, the marketing name
  std::uint32_t wavefront_width = 0;         ///< CL_DEVICE_WAVEFRONT_WIDTH_AMD, 64 on GCN
  std::uint32_t simd_per_compute_unit = 0;   ///< CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD, 4 on GCN
  std::uint32_t simd_width = 0;              ///< CL_DEVICE_SIMD_WIDTH_AMD, lanes of one SIMD
  std::uint32_t simd_instruction_width = 0;  ///< CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD
  std::uint32_t gfxip_major = 0;             ///< CL_DEVICE_GFXIP_MAJOR_AMD: 9 for gfx9 (GCN 5)
  std::uint32_t gfxip_minor = 0;             ///< CL_DEVICE_GFXIP_MINOR_AMD
  /// Every attribute equal.
  bool operator==(const AmdAttributes& o) const;
};

/// cl_khr_command_buffer: recording commands once and enqueueing them again.
struct CommandBufferSupport {
  std::uint32_t version = 0;       ///< the extension's version as CL_MAKE_VERSION packs it; 0: not reported
  std::uint64_t capabilities = 0;  ///< CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR
  std::uint64_t required_queue_properties = 0;  ///< CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR
  /// "0.9.0"; "unknown" when not reported.
  std::string version_text() const;
  /// Every field equal.
  bool operator==(const CommandBufferSupport& o) const;
};

/// One device's description: the OpenCL queries the rules read, by
/// group. Sizes are in bytes.
struct DeviceInfo {
  std::string platform_name;              ///< CL_PLATFORM_NAME
  std::string platform_vendor;            ///< CL_PLATFORM_VENDOR
  std::string platform_version;           ///< CL_PLATFORM_VERSION
  std::string name;                       ///< CL_DEVICE_NAME
  std::string vendor;                     ///< CL_DEVICE_VENDOR
  std::string version;                    ///< CL_DEVICE_VERSION ("OpenCL 3.0 CUDA")
  std::string driver_version;             ///< CL_DRIVER_VERSION
  std::string opencl_c_version;           ///< CL_DEVICE_OPENCL_C_VERSION
  std::uint32_t vendor_id = 0;            ///< CL_DEVICE_VENDOR_ID (0x10de NVIDIA, 0x1002 AMD, 0x8086 Intel)
  DeviceType type = DeviceType::unknown;  ///< CL_DEVICE_TYPE
  /// Execution resources.
  std::uint32_t compute_units = 0;                  ///< CL_DEVICE_MAX_COMPUTE_UNITS
  std::uint32_t clock_mhz = 0;                      ///< CL_DEVICE_MAX_CLOCK_FREQUENCY
  std::uint64_t max_work_group_size = 0;            ///< CL_DEVICE_MAX_WORK_GROUP_SIZE
  std::vector<std::uint64_t> max_work_item_sizes;   ///< one entry per dimension
  std::uint32_t preferred_work_group_multiple = 0;  ///< CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of a probe kernel
  /// Memory.
  LocalMemType local_mem_type = LocalMemType::unknown;  ///< CL_DEVICE_LOCAL_MEM_TYPE
  std::uint64_t local_mem_size = 0;                     ///< CL_DEVICE_LOCAL_MEM_SIZE
  std::uint64_t global_mem_size = 0;                    ///< CL_DEVICE_GLOBAL_MEM_SIZE
  std::uint64_t max_mem_alloc_size = 0;                 ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest buffer
  std::uint64_t global_cache_size = 0;                  ///< CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
  std::uint32_t global_cache_line_size = 0;             ///< CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE
  std::uint64_t max_constant_buffer_size = 0;           ///< CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE
  bool host_unified_memory = false;                     ///< CL_DEVICE_HOST_UNIFIED_MEMORY: memory shared with the host
  /// Vectors and precision.
  VectorWidths preferred_vector_width;  ///< CL_DEVICE_PREFERRED_VECTOR_WIDTH_*
  VectorWidths native_vector_width;     ///< CL_DEVICE_NATIVE_VECTOR_WIDTH_*
  bool fp64 = false;                    ///< double precision (cl_khr_fp64, or OpenCL 1.2's core doubles)
  bool fp16 = false;                    ///< half precision arithmetic (cl_khr_fp16)
  std::vector<std::string> extensions;  ///< CL_DEVICE_EXTENSIONS, one name each
  /// Vendor attributes, present only where the extension exists.
  std::optional<NvidiaAttributes> nvidia;            ///< cl_nv_device_attribute_query
  std::optional<AmdAttributes> amd;                  ///< cl_amd_device_attribute_query
  std::vector<std::uint32_t> intel_sub_group_sizes;  ///< CL_DEVICE_SUB_GROUP_SIZES_INTEL; empty elsewhere
  /// Present only where the device offers cl_khr_command_buffer.
  std::optional<CommandBufferSupport> command_buffer;

  /// Where this description came from ("live", "clinfo:FILE", "json:FILE").
  std::string source;
  /// Fields the rules read that the description did not give (a truncated
  /// or partial dump): they read as 0, "unknown". Set by the file readers
  /// (missing_rule_fields); tools warn about them.
  std::vector<std::string> missing_fields;

  /// Whether `ext` is among the extensions.
  bool has_extension(const std::string& ext) const;
  /// Dimension `d`'s item limit, 0 when unknown.
  std::uint64_t max_item_size(unsigned d) const;

  /// Every field as JSON, the form from_json reads and portacl-query --json writes.
  Json to_json() const;
  /// Throws portacl::Error naming the offending field.
  static DeviceInfo from_json(const Json& j);
  /// The descriptions in a JSON file: one description, an array of them, or
  /// portacl-query --json output. The file must be a regular file of at
  /// most 16 MiB; errors name the path.
  static std::vector<DeviceInfo> from_json_file(const std::string& path);

  /// Every field equal (compared through the JSON form).
  bool operator==(const DeviceInfo& o) const;
  /// Some field differs.
  bool operator!=(const DeviceInfo& o) const { return !(*this == o); }
};

/// The fields the rules decide from that `d` leaves unknown (0 or empty),
/// by their clinfo labels.
std::vector<std::string> missing_rule_fields(const DeviceInfo& d);

}  // namespace portacl

// ---- device class ------------------------------------------------------------
/// Classification: a pure function from a description to the device class
/// whose chapter-1 rules apply, plus the architecture detail those rules use.
namespace portacl {

/// The device classes whose mapping rules differ (docs/mapping-rules.md).
enum class DeviceClass {
  cpu,                ///< multi-core vector CPU (work-items become SIMD lanes and loops)
  nvidia_gpu,         ///< NVIDIA GPU: warps of 32
  amd_gcn_gpu,        ///< AMD GCN GPU: wavefronts of 64
  intel_mic,          ///< Intel Xeon Phi (MIC): 512-bit vectors, no local memory
  amd_gpu_other,      ///< pre-GCN VLIW, RDNA
  intel_gpu,          ///< Intel integrated or discrete GPU
  other_gpu,          ///< any other GPU
  other_accelerator,  ///< anything else (FPGAs, custom devices)
};

/// The class's name as the rules and tools print it ("nvidia_gpu").
std::string to_string(DeviceClass c);
/// A GPU of any maker: many SIMT lanes, real local memory, high-latency
/// memory that wants many loads in flight.
inline bool gpu_class(DeviceClass c) {
  return c == DeviceClass::nvidia_gpu || c == DeviceClass::amd_gcn_gpu || c == DeviceClass::amd_gpu_other ||
         c == DeviceClass::intel_gpu || c == DeviceClass::other_gpu;
}
DeviceClass device_class_from_string(const std::string& s);  ///< throws on unknown text

/// What classify() concluded about a device.
struct Classification {
  DeviceClass device_class = DeviceClass::other_accelerator;  ///< the class whose rules apply
  /// Human-readable architecture: "compute capability 9.0 (sm_90)", "gfx IP 9.2 (GCN 5)", "AVX (8 floats)".
  std::string architecture;
  /// The hardware's lock-step width in work-items: warp, wavefront, SIMD lanes
  /// for floats. Work-group sizes are multiples of it.
  std::uint32_t execution_width = 1;
  /// SIMD lanes for 32-bit floats (CPU/MIC vector unit; 1 on SIMT GPUs).
  std::uint32_t simd_width_float = 1;
  /// Why this class was chosen, for --explain.
  std::string reason;
};

/// The class of `d` and the architecture detail its rules use; a pure
/// function of the description (no device needed).
Classification classify(const DeviceInfo& d);

}  // namespace portacl

// ---- clinfo ------------------------------------------------------------------
/// Device descriptions from the text clinfo prints, in its default
/// (human-readable) form and in --raw form.
namespace portacl {

/// Every device found in `text`, in order. Throws portacl::Error if the text
/// holds no device at all. Lines starting with '#' (but not clinfo's own
/// "#PLATFORMS"/"#DEVICES" raw markers) are comments, so fixtures can carry
/// their provenance. `origin` is recorded in DeviceInfo::source.
std::vector<DeviceInfo> parse_clinfo(const std::string& text, const std::string& origin = "clinfo");

/// Reads and parses a file; errors name the file.
std::vector<DeviceInfo> parse_clinfo_file(const std::string& path);

}  // namespace portacl

// ---- read device -------------------------------------------------------------
/// A DeviceInfo read from a live OpenCL device.
namespace portacl {

/// Every field the live device reports (the vendor attribute queries only
/// where their extension is offered).
DeviceInfo read_device_info(const cl::Platform& platform, const cl::Device& device);

}  // namespace portacl

// ---- device ------------------------------------------------------------------
/// Finding devices: every platform's devices, classified, and selection by
/// index, "platform:device", type, or name substring, also through the
/// PORTACL_DEVICE environment variable so any program can be pointed at
/// another device without recompiling.
namespace portacl {

/// One OpenCL device, its description read once and classified.
class Device {
 public:
  /// Reads `device`'s description; the indices are its platform's place,
  /// its place on the platform, and its place in all_devices().
  Device(cl::Platform platform, cl::Device device, unsigned platform_index, unsigned device_index,
         unsigned global_index);

  const DeviceInfo& info() const { return info_; }                 ///< the description
  const Classification& classification() const { return class_; }  ///< its class
  const cl::Device& cl_device() const { return device_; }          ///< the OpenCL handle
  const cl::Platform& cl_platform() const { return platform_; }    ///< its platform's handle
  unsigned platform_index() const { return platform_index_; }      ///< the platform's place
  unsigned device_index() const { return device_index_; }          ///< the place on its platform
  unsigned index() const { return global_index_; }                 ///< position in all_devices()
  /// "[0] pthread-haswell-AMD EPYC (Portable Computing Language) cpu"
  std::string describe() const;

 private:
  cl::Platform platform_;
  cl::Device device_;
  unsigned platform_index_, device_index_, global_index_;
  DeviceInfo info_;
  Classification class_;
};

/// Every device of every platform, in platform order. Empty when there is no
/// OpenCL platform (that is not an error here; selection reports it).
std::vector<Device> all_devices();

/// Selector grammar:
///   ""            PORTACL_DEVICE if set, else VexCL's OCL_DEVICE (name),
///                 OCL_PLATFORM (platform name) and OCL_TYPE (GPU, CPU,
///                 ACCELERATOR) if any is set, else the first GPU, else the
///                 first device
///   "2"           the third device of all_devices()
///   "1:0"         platform 1, device 0
///   "gpu:1"       the second GPU (also cpu:N, accelerator:N)
///   otherwise comma-separated conditions, all of which must hold, the
///   first device meeting them chosen:
///     gpu, cpu, accelerator (or type=...)   the device type
///     fp64, fp16                            the precision
///     name=S, platform=S, vendor=S          case-insensitive substrings
///     ext=cl_khr_subgroups                  an extension
///     a bare word                           a substring of the device name,
///                                           else of the platform name or a
///                                           vendor ("pocl", "H100", "nvidia")
///   e.g. "gpu,name=H100", "cpu,fp64", "vendor=amd,gpu".
/// Throws portacl::Error listing the available devices when nothing matches.
Device select_device(const std::string& selector = "");
/// The first device `accept` returns true for; throws portacl::Error listing
/// the devices when it accepts none.
Device select_device(const std::function<bool(const Device&)>& accept);

/// The Device of an OpenCL device handle the program already holds (the
/// device of its own queue). Throws portacl::Error when it is not one of
/// all_devices() (a sub-device made by clCreateSubDevices, for example).
Device device_of(const cl::Device& device);

}  // namespace portacl
