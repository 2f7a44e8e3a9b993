// SPDX-License-Identifier: Apache-2.0
#include "files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "portacl/error.hpp"

namespace portacl::files {

std::string user_cache_path(const std::string& leaf) {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"))
    if (*xdg) return std::string(xdg) + "/portacl/" + leaf;
  if (const char* home = std::getenv("HOME"))
    if (*home) return std::string(home) + "/.cache/portacl/" + leaf;
  return "";
}

int make_dirs(const std::string& path) {
  std::string cur;
  std::stringstream ss(path);
  std::string part;
  if (!path.empty() && path[0] == '/') cur = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    cur += part + "/";
    if (::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return errno;
    struct stat st;
    if (::stat(cur.c_str(), &st) != 0) return errno;
    if (!S_ISDIR(st.st_mode)) return ENOTDIR;
  }
  return 0;
}

std::string directory_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string write_atomically(const std::string& path, const std::string& bytes) {
  std::random_device rd;
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return "cannot create " + tmp + ": " + std::strerror(errno);
  struct stat old {};
  if (::stat(path.c_str(), &old) == 0) ::fchmod(fd, old.st_mode & 07777);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return "cannot write " + tmp + ": " + why;
    }
    done += static_cast<std::size_t>(w);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return "cannot flush " + tmp + ": " + why;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return "cannot rename " + tmp + " to " + path + ": " + why;
  }
  return "";
}

std::string resolve_links(const std::string& path) {
  std::string current = path;
  for (int hop = 0; hop < 16; ++hop) {
    struct stat st {};
    if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return current;
    std::string target(4096, '\0');
    const ssize_t len = ::readlink(current.c_str(), &target[0], target.size());
    if (len <= 0) return current;
    target.resize(static_cast<std::size_t>(len));
    current = target[0] == '/' ? target : directory_of(current) + "/" + target;
  }
  return current;
}

std::string unique_sibling(const std::string& path, const std::string& tag) {
  static std::atomic<unsigned> counter{0};
  std::time_t t = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", std::gmtime(&t));
  return path + "." + tag + "-" + stamp + "-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

ReadFailure read_regular_file(const std::string& path, std::string& out, std::size_t max_bytes, std::string& why) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    why = "cannot read '" + path + "': " + std::strerror(err);
    return err == ENOENT ? ReadFailure::missing : ReadFailure::unreadable;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    why = "'" + path + "' is not a regular file";
    return ReadFailure::not_regular;
  }
  if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    ::close(fd);
    why = "'" + path + "' has " + std::to_string(st.st_size) + " bytes, more than the " + std::to_string(max_bytes) +
          "-byte limit for such files";
    return ReadFailure::too_large;
  }
  out.clear();
  out.reserve(static_cast<std::size_t>(st.st_size));
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int err = errno;
      ::close(fd);
      why = "cannot read '" + path + "': " + std::strerror(err);
      return ReadFailure::unreadable;
    }
    if (got == 0) break;
    if (out.size() + static_cast<std::size_t>(got) > max_bytes) {  // grew while being read
      ::close(fd);
      why = "'" + path + "' grew past the " + std::to_string(max_bytes) + "-byte limit while being read";
      return ReadFailure::too_large;
    }
    out.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return ReadFailure::none;
}

bool read_file(const std::string& path, std::string& out, std::size_t max_bytes) {
  std::string why;
  return read_regular_file(path, out, max_bytes, why) == ReadFailure::none;
}

FileLock::FileLock(const std::string& path) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd_ < 0) throw Error("cannot open lock file " + path + ": " + std::strerror(errno));
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const std::string why = std::strerror(errno);
    ::close(fd_);
    throw Error("cannot lock " + path + ": " + why);
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
}

}  // namespace portacl::files
