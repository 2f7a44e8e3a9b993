// SPDX-License-Identifier: Apache-2.0
// One call of a CLBlast routine as its users make it: the status checked
// (a failure throws portacl::Error naming the routine and status), the
// completion event released. Callers finish the queue when they need the
// result. Used by the operation list's baselines and by portacl-bench.
#pragma once

#include <clblast_c.h>

#include <string>

#include "../kernels/clblast_status.hpp"
#include "portacl/error.hpp"

namespace portacl {

// `call(cl_event*)` makes the CLBlast call and returns its status.
template <class Call>
void clblast_call(const char* routine, Call call) {
  cl_event done = nullptr;
  const CLBlastStatusCode status = call(&done);
  if (done) clReleaseEvent(done);
  if (status != CLBlastSuccess)
    throw Error(std::string("CLBlast ") + routine + " failed: " + clblast_status_text(static_cast<int>(status)));
}

}  // namespace portacl
