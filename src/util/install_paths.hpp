// SPDX-License-Identifier: Apache-2.0
// Where the installed library's data lives, found at run time from the
// library's own location, so an install prefix can be moved (or unpacked
// anywhere, as a .deb's contents or a container layer) and still find its
// kernels and shipped tuning results. The build tree is laid out the same
// way (lib/ and share/portacl/ under the build directory), so the library
// behaves alike before and after installing, and carries no build path.
#pragma once

#include <string>
#include <vector>

namespace portacl::install_paths {

// <prefix>/share/portacl, where <prefix>/lib holds the loaded libportacl
// ("" when the library's own path cannot be found).
std::string data_directory();

// The non-empty entries of a colon-separated list (PORTACL_KERNEL_PATH,
// PORTACL_TUNING_PATH); none for a null or empty value.
std::vector<std::string> path_list(const char* value);

}  // namespace portacl::install_paths
