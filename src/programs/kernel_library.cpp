// SPDX-License-Identifier: Apache-2.0
#include "portacl/programs.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "embedded_kernels.hpp"
#include "../util/files.hpp"
#include "../util/install_paths.hpp"
#include "portacl/error.hpp"
#include "programs/source_text.hpp"

namespace portacl {
namespace {

std::string dir_of(const std::string& origin) {
  if (origin.rfind("embedded:", 0) == 0 || origin.rfind("text:", 0) == 0) return "";
  return files::directory_of(origin);
}

// `#include "name"` or `#include <name>`: returns name, or "" if the line is
// no include.
std::string include_target(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return "";
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return "";
  i = line.find_first_of("\"<", i + 7);
  if (i == std::string::npos) return "";
  char close = line[i] == '"' ? '"' : '>';
  size_t j = line.find(close, i + 1);
  if (j == std::string::npos) return "";
  return line.substr(i + 1, j - i - 1);
}

}  // namespace

std::uint64_t fnv1a64(const std::string& data) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

KernelLibrary::KernelLibrary(std::vector<std::string> search_path, bool use_embedded)
    : path_(std::move(search_path)), embedded_(use_embedded) {}

std::vector<std::string> KernelLibrary::default_search_path() {
  std::vector<std::string> p = install_paths::path_list(std::getenv("PORTACL_KERNEL_PATH"));
  const std::string data = install_paths::data_directory();
  if (!data.empty()) p.push_back(data + "/kernels");
  return p;
}

const KernelLibrary& KernelLibrary::standard() {
  // Read once: the environment is consulted when the first kernel loads.
  static const KernelLibrary lib(default_search_path(), true);
  return lib;
}

std::vector<std::string> KernelLibrary::embedded_names() {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < embedded::file_count; ++i) names.push_back(embedded::files[i].name);
  return names;
}

bool KernelLibrary::find(const std::string& name, const std::string& including_dir, std::string& text,
                         std::string& origin) const {
  if (name.empty() || name.find("..") != std::string::npos)
    throw Error("kernel file name '" + name + "' is not a plain file name");
  if (name[0] == '/')
    throw Error("kernel file name '" + name +
                "' is an absolute path; kernels and includes name files on the kernel path");
  std::vector<std::string> dirs;
  if (!including_dir.empty()) dirs.push_back(including_dir);
  dirs.insert(dirs.end(), path_.begin(), path_.end());
  for (const auto& d : dirs) {
    std::string candidate = d + "/" + name, why;
    const files::ReadFailure failure = files::read_regular_file(candidate, text, files::kMaxKernelSourceBytes, why);
    if (failure == files::ReadFailure::missing) continue;
    // There but not usable (a directory, unreadable, too large): say so
    // rather than fall through to another copy or to a compiler error.
    if (failure != files::ReadFailure::none) throw Error("kernel file on the kernel path: " + why);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw Error("kernel file '" + candidate + "' is empty");
    origin = candidate;
    return true;
  }
  if (embedded_) {
    for (std::size_t i = 0; i < embedded::file_count; ++i) {
      if (name == embedded::files[i].name) {
        text.assign(reinterpret_cast<const char*>(embedded::files[i].data), embedded::files[i].size);
        origin = "embedded:" + name;
        return true;
      }
    }
  }
  return false;
}

// The most source text one kernel file may expand to, includes and all.
constexpr std::size_t kMaxExpandedBytes = std::size_t{16} << 20;

void KernelLibrary::expand(const std::string& name, const std::string& text, const std::string& origin,
                           std::vector<std::string>& stack, KernelSource& src) const {
  std::string& out = src.text;
  auto emit = [&](const std::string& line, const std::string& file, std::size_t no) {
    out += line;
    out += '\n';
    src.line_origin.emplace_back(file, no);
  };
  if (std::find(stack.begin(), stack.end(), name) != stack.end())
    throw Error("kernel file '" + name + "' includes itself (through " + stack.back() + ")");
  if (stack.size() > 32) throw Error("kernel includes nested deeper than 32 levels at '" + name + "'");
  // Depth alone does not bound a tree in which each file includes the next
  // twice (2^depth copies): the expanded text is capped too.
  if (out.size() > kMaxExpandedBytes)
    throw Error("kernel file '" + name + "': the expanded source passed " + std::to_string(kMaxExpandedBytes) +
                " bytes (an include tree that repeats files?)");
  stack.push_back(name);
  emit("#line 1 \"" + name + "\"", "", 0);
  std::istringstream in(text);
  std::string line;
  std::size_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    std::string target = include_target(line);
    if (target.empty()) {
      emit(line, name, lineno);
      continue;
    }
    std::string sub_text, sub_origin;
    if (!find(target, dir_of(origin), sub_text, sub_origin))
      throw Error(name + ":" + std::to_string(lineno) + ": included kernel file '" + target + "' not found");
    expand(target, sub_text, sub_origin, stack, src);
    emit("#line " + std::to_string(lineno + 1) + " \"" + name + "\"", "", 0);
  }
  stack.pop_back();
}

KernelSource KernelLibrary::load(const std::string& name) const {
  std::string text, origin;
  if (!find(name, "", text, origin)) {
    std::string where;
    for (const auto& d : path_) where += "\n  " + d + "/" + name;
    if (embedded_) where += "\n  (embedded copies: none named '" + name + "')";
    if (where.empty()) where = "\n  (empty search path, embedded copies disabled)";
    throw Error("kernel file '" + name + "' not found; looked in:" + where +
                "\n(set PORTACL_KERNEL_PATH to a directory holding it)");
  }
  KernelSource s;
  s.name = name;
  s.origin = origin;
  std::vector<std::string> stack;
  expand(name, text, origin, stack, s);
  s.hash = fnv1a64(s.text);
  return s;
}

KernelSource KernelLibrary::from_text(const std::string& name, const std::string& text) const {
  KernelSource s;
  s.name = name;
  s.origin = "text:" + name;
  std::vector<std::string> stack;
  expand(name, text, s.origin, stack, s);
  s.hash = fnv1a64(s.text);
  return s;
}

}  // namespace portacl

namespace portacl {

std::string KernelSource::where(std::size_t expanded_line) const {
  if (expanded_line == 0 || expanded_line > line_origin.size()) return "";
  const auto& o = line_origin[expanded_line - 1];
  return o.first.empty() ? "" : o.first + ":" + std::to_string(o.second);
}

std::string map_log_lines(const std::string& log, const KernelSource& source) {
  static const char* markers[] = {"<kernel>:", "<source>:"};
  std::string out;
  std::size_t i = 0;
  while (i < log.size()) {
    bool mapped = false;
    for (const char* m : markers) {
      std::size_t len = std::char_traits<char>::length(m);
      if (log.compare(i, len, m) != 0) continue;
      std::size_t j = i + len, line = 0;
      while (j < log.size() && std::isdigit(static_cast<unsigned char>(log[j]))) line = line * 10 + (log[j++] - '0');
      std::string w = j > i + len ? source.where(line) : "";
      if (!w.empty()) {
        out += w;
        i = j;
        mapped = true;
      }
      break;
    }
    if (!mapped) out += log[i++];
  }
  return out;
}

}  // namespace portacl
