// SPDX-License-Identifier: Apache-2.0
// Boost.Compute (header-only, Debian's libboost-dev) as the kernels table's
// second baseline library, for the operations CLBlast lacks: the prefix
// sums and the sorts. Where portacl-bench was built without it, there is none.
#pragma once

#include <optional>
#include <string>

#include "tuning/operations.hpp"

namespace bench {

/// Boost.Compute's algorithm with the meaning of `operation`, on the
/// workload's own context and queue, checked like portacl's; or nothing.
std::optional<portacl::Baseline> boost_compute_baseline(const std::string& operation);

/// True when this build carries Boost.Compute.
bool have_boost_compute();

}  // namespace bench
