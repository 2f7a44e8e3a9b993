// SPDX-License-Identifier: Apache-2.0
// File-system helpers for the library's on-disk state (program binaries,
// tuning databases): where it lives, and how it is written so that a reader
// never sees half a file.
#pragma once

#include <cstddef>
#include <string>

namespace portacl::files {

// $XDG_CACHE_HOME/portacl/<leaf>, else $HOME/.cache/portacl/<leaf>; "" when
// neither is set.
std::string user_cache_path(const std::string& leaf);

// Creates `path` and its parents; returns 0 or the errno of the failure.
int make_dirs(const std::string& path);

// The directory part of `path` ("." when it has none).
std::string directory_of(const std::string& path);

// Writes `bytes` to a unique temporary file beside `path`, flushes it to
// disk and renames it over `path`. Returns "" or what failed (with errno's
// text); the temporary file is removed on failure.
// The new file keeps the mode of the file it replaces (0644 when new).
std::string write_atomically(const std::string& path, const std::string& bytes);

// Size limits of the files the library reads (docs/design.md lists them):
// anything larger is refused before it is read.
constexpr std::size_t kMaxDescriptionBytes = std::size_t{16} << 20;   // clinfo dumps, device JSON
constexpr std::size_t kMaxKernelSourceBytes = std::size_t{16} << 20;  // one .cl file
constexpr std::size_t kMaxTuningDatabaseBytes = std::size_t{256} << 20;
constexpr std::size_t kMaxProgramBinaryBytes = std::size_t{512} << 20;

// Why a read failed: the file is not there; it is there but could not be
// read (permissions, an I/O error); it is not a regular file (a directory,
// device or FIFO: /dev/zero never ends); or it exceeds the limit.
enum class ReadFailure { none, missing, unreadable, not_regular, too_large };

// Reads the whole regular file `path` into `out`, refusing more than
// `max_bytes`. Returns ReadFailure::none, or the failure with `why` set to
// a sentence naming the path ("'x' is not a regular file").
ReadFailure read_regular_file(const std::string& path, std::string& out, std::size_t max_bytes, std::string& why);

// `path` with its symbolic links followed (up to 16 hops), so a writer
// replaces the target rather than the link. The target need not exist.
std::string resolve_links(const std::string& path);

// A name beside `path` no other call, in this or another process, returns:
// "<path>.<tag>-<UTC time>-<pid>-<counter>". Set-aside copies use it, so
// two in the same second never overwrite each other.
std::string unique_sibling(const std::string& path, const std::string& tag);

// The whole regular file, or false when it cannot be read (any failure).
bool read_file(const std::string& path, std::string& out, std::size_t max_bytes);

// An exclusive advisory lock (flock) on `path` (created if missing), held
// for the object's lifetime: writers of one file serialise on it.
class FileLock {
 public:
  explicit FileLock(const std::string& path);  // throws portacl::Error
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace portacl::files
