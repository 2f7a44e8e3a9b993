// SPDX-License-Identifier: Apache-2.0
// Kernel launches recorded once and enqueued as often as needed
// (cl_khr_command_buffer): a repeated step then costs one enqueue, not a
// launch per kernel with its arguments set again. Whether a device can is
// the rules' question (command_replay_support); this carries it out.
#pragma once

#include <cstddef>

#include "portacl/context.hpp"

namespace portacl {

class RecordedCommands {
 public:
  /// A recording for ctx.queue(), enqueueable again while an earlier
  /// enqueue is pending. Throws portacl::Error when the platform gives no
  /// entry points or the driver refuses.
  explicit RecordedCommands(Context& ctx);
  ~RecordedCommands();
  RecordedCommands(const RecordedCommands&) = delete;
  RecordedCommands& operator=(const RecordedCommands&) = delete;

  /// Records `k` over its plan's ranges with the arguments set now (the
  /// recording keeps them), after every command recorded before it.
  void record(const PreparedKernel& k);
  /// Ends the recording; only enqueue() after it.
  void finalize();
  /// Enqueues the recording on ctx.queue(), in order with everything else
  /// there; its event joins the context's launch record.
  cl::Event enqueue();
  std::size_t commands() const { return commands_; }

 private:
  struct EntryPoints;
  Context& ctx_;
  const EntryPoints* api_ = nullptr;
  void* buffer_ = nullptr;  ///< the cl_command_buffer_khr
  unsigned last_sync_point_ = 0;
  std::size_t commands_ = 0;
  bool finalized_ = false;
};

}  // namespace portacl
