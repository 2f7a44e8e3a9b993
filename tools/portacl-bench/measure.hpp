// How portacl-bench times things: portacl's operations by the library's
// timing, other libraries' commands behind a gate.
#pragma once

#include <functional>
#include <vector>

#include "portacl/portacl.hpp"
#include "portacl/tuning/timing.hpp"

namespace bench {

// The library's timing (portacl/tuning/timing.hpp), shared with the tuner.
using Stats = portacl::TimingSummary;
using portacl::measure;
inline double portacl_ms(portacl::Context& ctx, const std::function<void()>& run) {
  return portacl::device_ms(ctx, run);
}

// Device time of commands another library enqueues on ctx's queue: they
// queue behind a marker held by a user event, so host-side enqueue time is
// not counted; `enqueue` returns the event of the last command.
double gated_ms(portacl::Context& ctx, const std::function<cl_event()>& enqueue);
// The same for a library that waits on its own commands inside the call
// (CLBlast's Xtrsv), which a held gate would deadlock: from a marker
// enqueued first to the last command's end, host gaps between its
// commands included (they are part of its cost).
double marked_ms(portacl::Context& ctx, const std::function<cl_event()>& enqueue);

}  // namespace bench
