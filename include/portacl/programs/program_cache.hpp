// SPDX-License-Identifier: Apache-2.0
/// \file
/// Compiled programs, cached twice: in memory per (context, device, source,
/// options), and on disk as program binaries keyed by platform, device name,
/// driver version, source hash and options. Disk entries are written
/// atomically (temporary file + rename) and verified when read: a stale,
/// truncated or corrupt entry is detected, removed and rebuilt.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "portacl/cl.hpp"
#include "portacl/device/device_info.hpp"
#include "portacl/programs/kernel_library.hpp"

namespace portacl {

struct CacheStats {
  std::size_t memory_hits = 0;
  std::size_t disk_hits = 0;
  std::size_t compiles = 0;  ///< builds from source
  std::size_t disk_writes = 0;
  std::size_t disk_rejects = 0;  ///< entries found corrupt or stale and rebuilt
};

class ProgramCache {
 public:
  /// `disk_dir` empty: no disk cache. Otherwise the directory is created if
  /// needed; throws portacl::Error naming it if it cannot be used.
  explicit ProgramCache(std::string disk_dir);

  /// PORTACL_CACHE_DIR ("off" disables the disk cache), else
  /// $XDG_CACHE_HOME/portacl/programs, else $HOME/.cache/portacl/programs.
  static std::string default_directory();

  /// The built program; throws BuildError with the compiler's log on failure.
  /// A disk entry whose binary lacks `entry` (a forged or foreign file) is
  /// dropped and the program rebuilt from source.
  cl::Program get(const cl::Context& context, const cl::Device& device, const DeviceInfo& info,
                  const KernelSource& source, const std::string& options, const std::string& entry = "");

  CacheStats stats() const;
  /// One disk entry's bytes checked against the key it must hold: "" and
  /// its payload (the program binary), or why the entry is unusable. Never
  /// allocates more than `bytes` holds. (Exposed for the fuzzer.)
  static std::string parse_entry(const std::string& bytes, const std::string& key, std::string& payload);
  const std::string& directory() const { return dir_; }
  /// The disk file that holds (or would hold) this entry.
  std::string entry_path(const DeviceInfo& info, const KernelSource& source, const std::string& options) const;

 private:
  bool load_from_disk(const std::string& path, const std::string& key, const cl::Context& context,
                      const cl::Device& device, const std::string& options, const std::string& entry,
                      bool compiler_writes_stderr, cl::Program& out);
  void store_to_disk(const std::string& path, const std::string& key, const cl::Program& program);

  std::string dir_;
  mutable std::mutex mutex_;
  std::map<std::tuple<cl_context, cl_device_id, std::uint64_t, std::string>, cl::Program> memory_;
  CacheStats stats_;
};

}  // namespace portacl
