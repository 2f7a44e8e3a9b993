// SPDX-License-Identifier: Apache-2.0
/// \file
/// Where .cl sources come from: a search path (PORTACL_KERNEL_PATH, then the
/// share/portacl/kernels beside the loaded library) and, last, the copy
/// embedded in the library at build time, so an installed library works with
/// no files beside it. `#include "x.cl"` between kernel files is resolved here,
/// with #line markers so compiler messages name the real file and line.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace portacl {

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

/// Rewrites "<kernel>:N" / "<source>:N" references to expanded lines in a
/// compiler log into "file.cl:line".
std::string map_log_lines(const std::string& log, const KernelSource& source);

class KernelLibrary {
 public:
  /// An empty search path and no embedded copies finds nothing; tests use
  /// that to check each source on its own.
  KernelLibrary(std::vector<std::string> search_path, bool use_embedded);

  /// The library every Context uses: default_search_path() plus embedded.
  static const KernelLibrary& standard();
  static std::vector<std::string> default_search_path();

  /// Throws portacl::Error naming every place looked in when `name` is missing.
  KernelSource load(const std::string& name) const;
  /// A source given as text (user kernels); includes resolve as for files.
  KernelSource from_text(const std::string& name, const std::string& text) const;

  const std::vector<std::string>& search_path() const { return path_; }
  bool uses_embedded() const { return embedded_; }
  /// Names of the embedded .cl files.
  static std::vector<std::string> embedded_names();

 private:
  bool find(const std::string& name, const std::string& including_dir, std::string& text, std::string& origin) const;
  void expand(const std::string& name, const std::string& text, const std::string& origin,
              std::vector<std::string>& stack, KernelSource& out) const;

  std::vector<std::string> path_;
  bool embedded_;
};

std::uint64_t fnv1a64(const std::string& data);

}  // namespace portacl
