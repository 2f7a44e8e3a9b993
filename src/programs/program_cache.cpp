// SPDX-License-Identifier: Apache-2.0
#include "portacl/programs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "portacl/error.hpp"
#include "../util/files.hpp"
#include "../util/stderr_capture.hpp"
#include "rules/quirks.hpp"
#include "programs/source_text.hpp"

namespace portacl {
namespace {

const char kMagic[] = "PORTACL-PROGRAM-BINARY 1";

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// mkdir -p; returns the errno of the failing step, 0 on success.
std::string cache_key(const DeviceInfo& info, const KernelSource& source, const std::string& options) {
  // Everything that changes the binary: a new driver or source means a new key.
  return "platform=" + info.platform_name + " " + info.platform_version + "\ndevice=" + info.name +
         "\ndriver=" + info.driver_version + "\nsource=" + source.name + " " + hex64(source.hash) +
         "\noptions=" + options + "\n";
}

[[noreturn]] void build_failed(const cl::Program& program, const cl::Device& device, const DeviceInfo& info,
                               const KernelSource& source, const std::string& options, cl_int status) {
  std::string log;
  program.getBuildInfo(device, CL_PROGRAM_BUILD_LOG, &log);
  while (!log.empty() && (log.back() == '\n' || log.back() == '\0')) log.pop_back();
  // Compilers that ignore #line report lines of the expanded text: map them back.
  log = map_log_lines(log, source);
  throw BuildError("OpenCL build of '" + source.name + "' (" + source.origin + ") failed on '" + info.name + "' with " +
                       cl_error_name(status) + "\n  options: " + options + "\n  compiler log:\n" + log,
                   log);
}

// "2 warnings generated." and the like: the compiler's own summary.
bool is_compiler_summary(const std::string& line) {
  const std::string tail = " generated.";
  return line.size() > tail.size() && line.compare(line.size() - tail.size(), tail.size(), tail) == 0 &&
         (line.find("warning") != std::string::npos || line.find("error") != std::string::npos);
}

// clBuildProgram. Where the compiler also prints to the program's stderr
// (quirk pocl.compiler-writes-stderr), its summary lines reach the user only
// with PORTACL_VERBOSE; anything else written meanwhile passes through.
cl_int build_program(cl::Program& program, const cl::Device& device, const std::string& options,
                     bool compiler_writes_stderr) {
  if (!compiler_writes_stderr) return program.build(std::vector<cl::Device>{device}, options.c_str());
  StderrCapture capture;
  const cl_int err = program.build(std::vector<cl::Device>{device}, options.c_str());
  const std::string text = capture.release();
  const bool verbose = std::getenv("PORTACL_VERBOSE") != nullptr;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (verbose || !is_compiler_summary(line)) std::cerr << line << "\n";
  return err;
}

}  // namespace

std::string ProgramCache::default_directory() {
  if (const char* env = std::getenv("PORTACL_CACHE_DIR")) {
    std::string v = env;
    if (v == "off" || v == "0" || v == "none") return "";
    return v;
  }
  return files::user_cache_path("programs");
}

ProgramCache::ProgramCache(std::string disk_dir) : dir_(std::move(disk_dir)) {
  if (dir_.empty()) return;
  if (int err = files::make_dirs(dir_))
    throw Error("program binary cache directory '" + dir_ + "' cannot be created: " + std::strerror(err) +
                " (set PORTACL_CACHE_DIR to a writable directory, or PORTACL_CACHE_DIR=off)");
  if (::access(dir_.c_str(), R_OK | W_OK | X_OK) != 0)
    throw Error("program binary cache directory '" + dir_ + "' is not readable and writable: " + std::strerror(errno) +
                " (set PORTACL_CACHE_DIR to a writable directory, or PORTACL_CACHE_DIR=off)");
}

CacheStats ProgramCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

std::string ProgramCache::entry_path(const DeviceInfo& info, const KernelSource& source,
                                     const std::string& options) const {
  if (dir_.empty()) return "";
  return dir_ + "/" + hex64(fnv1a64(cache_key(info, source, options))) + ".bin";
}

std::string ProgramCache::parse_entry(const std::string& bytes, const std::string& key, std::string& payload) {
  std::istringstream f(bytes);
  std::string magic;
  std::getline(f, magic);
  if (magic != kMagic) return "not a portacl program binary";
  std::size_t key_len = 0, payload_len = 0;
  std::string checksum;
  if (!(f >> key_len) || f.get() != '\n' || key_len > (1u << 20)) return "bad header";
  if (key_len > bytes.size()) return "truncated key";
  std::string stored_key(key_len, '\0');
  if (!f.read(&stored_key[0], static_cast<std::streamsize>(key_len))) return "truncated key";
  // Same file name but another key: a hash collision or a stale entry.
  if (stored_key != key) return "key mismatch (stale entry)";
  if (!(f >> payload_len >> checksum) || f.get() != '\n') return "bad payload header";
  // Checked before any allocation: a header claiming 4 GiB in a short file.
  const std::size_t at = static_cast<std::size_t>(f.tellg());
  if (payload_len != bytes.size() - at)
    return "the header claims " + std::to_string(payload_len) + " payload bytes, the file holds " +
           std::to_string(bytes.size() - at);
  payload = bytes.substr(at);
  if (hex64(fnv1a64(payload)) != checksum) return "checksum mismatch (corrupt binary)";
  return "";
}

bool ProgramCache::load_from_disk(const std::string& path, const std::string& key, const cl::Context& context,
                                  const cl::Device& device, const std::string& options, const std::string& entry,
                                  bool compiler_writes_stderr, cl::Program& out) {
  auto reject = [&](const std::string& why) {
    std::remove(path.c_str());
    ++stats_.disk_rejects;
    if (std::getenv("PORTACL_VERBOSE"))
      std::cerr << "portacl: rebuilding cached program " << path << ": " << why << "\n";
    return false;
  };
  // The whole entry, bounded: a header claiming a 4 GiB payload cannot make
  // the reader allocate more than the file holds.
  std::string bytes, why;
  const files::ReadFailure failure = files::read_regular_file(path, bytes, files::kMaxProgramBinaryBytes, why);
  if (failure == files::ReadFailure::missing) return false;  // no entry yet
  if (failure != files::ReadFailure::none) return reject(why);
  std::string payload;
  if (std::string bad = parse_entry(bytes, key, payload); !bad.empty()) return reject(bad);

  cl_int err = CL_SUCCESS;
  cl::Program::Binaries bins{std::vector<unsigned char>(payload.begin(), payload.end())};
  std::vector<cl_int> status;
  cl::Program program(context, std::vector<cl::Device>{device}, bins, &status, &err);
  if (err != CL_SUCCESS) return reject("driver refused the binary");
  err = build_program(program, device, options, compiler_writes_stderr);
  if (err != CL_SUCCESS) return reject("driver could not build the binary");
  if (!entry.empty()) {
    // A valid binary of some other program (a forged entry with a matching
    // checksum): it must hold the kernel the caller is about to create.
    std::string names;
    program.getInfo(CL_PROGRAM_KERNEL_NAMES, &names);
    names = ";" + names + ";";
    if (names.find(";" + entry + ";") == std::string::npos)
      return reject("the binary has no kernel '" + entry + "' (forged or foreign entry)");
  }
  out = program;
  return true;
}

void ProgramCache::store_to_disk(const std::string& path, const std::string& key, const cl::Program& program) {
  std::vector<std::vector<unsigned char>> bins;
  if (program.getInfo(CL_PROGRAM_BINARIES, &bins) != CL_SUCCESS || bins.empty() || bins[0].empty())
    return;  // the driver keeps no binary: nothing to cache
  std::string payload(bins[0].begin(), bins[0].end());
  std::ostringstream entry;
  entry << kMagic << "\n" << key.size() << "\n" << key << payload.size() << " " << hex64(fnv1a64(payload)) << "\n";
  entry.write(payload.data(), static_cast<std::streamsize>(payload.size()));
  // A reader sees the old entry or the complete new one, never a partial file.
  const std::string failure = files::write_atomically(path, entry.str());
  if (!failure.empty()) {
    std::cerr << "portacl: warning: program cache entry not stored (" << failure
              << "); the program works but will be rebuilt next time\n";
    return;
  }
  ++stats_.disk_writes;
}

cl::Program ProgramCache::get(const cl::Context& context, const cl::Device& device, const DeviceInfo& info,
                              const KernelSource& source, const std::string& options, const std::string& entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto mem_key = std::make_tuple(context(), device(), source.hash, options);
  auto it = memory_.find(mem_key);
  if (it != memory_.end()) {
    ++stats_.memory_hits;
    return it->second;
  }
  std::string key = cache_key(info, source, options);
  std::string path = entry_path(info, source, options);
  cl::Program program;
  const bool compiler_writes_stderr = quirk("pocl.compiler-writes-stderr").applies(info);
  if (!path.empty() && load_from_disk(path, key, context, device, options, entry, compiler_writes_stderr, program)) {
    ++stats_.disk_hits;
  } else {
    cl_int err = CL_SUCCESS;
    program = cl::Program(context, source.text, false, &err);
    check_cl(err, "clCreateProgramWithSource(" + source.name + ")");
    err = build_program(program, device, options, compiler_writes_stderr);
    ++stats_.compiles;
    if (err != CL_SUCCESS) build_failed(program, device, info, source, options, err);
    if (!path.empty()) store_to_disk(path, key, program);
  }
  memory_.emplace(mem_key, program);
  return program;
}

}  // namespace portacl
