// File-system helpers for the library's on-disk state (program binaries,
// tuning databases): where it lives, and how it is written so that a reader
// never sees half a file.
#pragma once

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
std::string write_atomically(const std::string& path, const std::string& bytes);

// The whole file, or false when it cannot be opened.
bool read_file(const std::string& path, std::string& out);

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
