// SPDX-License-Identifier: Apache-2.0
// CLBlast's status codes by name: errors say "CLBlastInvalidDimension
// (-1017)", not a bare number to look up in clblast_c.h.
#pragma once

#include <string>

namespace portacl {

// "CLBlastInvalidDimension (-1017)"; an unknown code as "status N".
std::string clblast_status_text(int status);

}  // namespace portacl
