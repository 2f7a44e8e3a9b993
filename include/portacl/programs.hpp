// SPDX-License-Identifier: Apache-2.0
/// \file
/// Programs: the .cl kernel library and the binary cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "portacl/cl.hpp"
#include "portacl/device.hpp"

// ---- kernel library ----------------------------------------------------------
/// Where .cl sources come from: a search path (PORTACL_KERNEL_PATH, then the
/// share/portacl/kernels beside the loaded library) and, last, the copy
/// embedded in the library at build time, so an installed library works with
/// no files beside it. `#include "x.cl"` between kernel files is resolved here,
/// with #line markers so compiler messages name the real file and line.
namespace portacl {

/// A kernel file loaded, its includes expanded, with where each line came from.
struct KernelSource {
  std::string name;        ///< "stream.cl"
  std::string text;        ///< includes expanded
  std::string origin;      ///< "/path/to/axpy.cl" or "embedded:axpy.cl"
  std::uint64_t hash = 0;  ///< of `text`; part of the binary cache key
  /// For each line of `text` (index = line - 1): the file and line it came
  /// from. Some compilers (NVIDIA's) ignore #line, so logs are mapped back.
  std::vector<std::pair<std::string, std::size_t>> line_origin;

  /// "axpy.cl:12" for line `expanded_line` of `text`, or "" if unknown.
  std::string where(std::size_t expanded_line) const;
};

/// Where kernel sources are found: the search path's files first, then
/// the copies embedded in the library.
class KernelLibrary {
 public:
  /// An empty search path and no embedded copies finds nothing; tests use
  /// that to check each source on its own.
  KernelLibrary(std::vector<std::string> search_path, bool use_embedded);

  /// The library every Context uses: default_search_path() plus embedded.
  static const KernelLibrary& standard();
  /// PORTACL_KERNEL_PATH's folders, then the installed kernels' folder.
  static std::vector<std::string> default_search_path();

  /// Throws portacl::Error naming every place looked in when `name` is missing.
  KernelSource load(const std::string& name) const;
  /// A source given as text (user kernels); includes resolve as for files.
  KernelSource from_text(const std::string& name, const std::string& text) const;

  const std::vector<std::string>& search_path() const { return path_; }  ///< the folders, in order
  bool uses_embedded() const { return embedded_; }                       ///< whether embedded copies are a last resort
  /// Names of the embedded .cl files.
  static std::vector<std::string> embedded_names();

 private:
  bool find(const std::string& name, const std::string& including_dir, std::string& text, std::string& origin) const;
  void expand(const std::string& name, const std::string& text, const std::string& origin,
              std::vector<std::string>& stack, KernelSource& out) const;

  std::vector<std::string> path_;
  bool embedded_;
};

}  // namespace portacl

// ---- program cache -----------------------------------------------------------
/// Compiled programs, cached twice: in memory per (context, device, source,
/// options), and on disk as program binaries keyed by platform, device name,
/// driver version, source hash and options. Disk entries are written
/// atomically (temporary file + rename) and verified when read: a stale,
/// truncated or corrupt entry is detected, removed and rebuilt.
namespace portacl {

/// What a ProgramCache has done since it was made.
struct CacheStats {
  std::size_t memory_hits = 0;   ///< programs found in memory
  std::size_t disk_hits = 0;     ///< programs loaded from a disk entry
  std::size_t compiles = 0;      ///< builds from source
  std::size_t disk_writes = 0;   ///< disk entries written
  std::size_t disk_rejects = 0;  ///< entries found corrupt or stale and rebuilt
};

/// The two caches of compiled programs (above).
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

  CacheStats stats() const;  ///< the counts so far
  /// One disk entry's bytes checked against the key it must hold: "" and
  /// its payload (the program binary), or why the entry is unusable. Never
  /// allocates more than `bytes` holds. (Exposed for the fuzzer.)
  static std::string parse_entry(const std::string& bytes, const std::string& key, std::string& payload);
  const std::string& directory() const { return dir_; }  ///< the disk cache's folder; "" when off
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
