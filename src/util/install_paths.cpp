// SPDX-License-Identifier: Apache-2.0
#include "install_paths.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "files.hpp"

#ifndef PORTACL_LIB_TO_DATA
#error "PORTACL_LIB_TO_DATA (the data directory relative to the library's directory) must be defined"
#endif

namespace portacl::install_paths {

std::string data_directory() {
  // The file this function was loaded from: libportacl.so.N wherever it is.
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&data_directory), &info) == 0 || !info.dli_fname || !*info.dli_fname) return "";
  // The directory with its links resolved, so ".." steps are exact and the
  // paths shown to users (plan provenance) read plainly.
  char* real = ::realpath(files::directory_of(info.dli_fname).c_str(), nullptr);
  if (!real) return "";
  std::string dir = real;
  std::free(real);
  std::stringstream steps(PORTACL_LIB_TO_DATA);
  for (std::string step; std::getline(steps, step, '/');) {
    if (step.empty() || step == ".") continue;
    if (step == "..")
      dir = dir.substr(0, std::max<std::size_t>(dir.rfind('/'), 1));
    else
      dir += (dir == "/" ? "" : "/") + step;
  }
  return dir;
}

std::vector<std::string> path_list(const char* value) {
  std::vector<std::string> out;
  if (!value) return out;
  const std::string list = value;
  for (std::size_t at = 0; at <= list.size();) {
    std::size_t colon = list.find(':', at);
    if (colon == std::string::npos) colon = list.size();
    if (colon > at) out.push_back(list.substr(at, colon - at));
    at = colon + 1;
  }
  return out;
}

}  // namespace portacl::install_paths
