// SPDX-License-Identifier: Apache-2.0
#include "rules/quirks.hpp"

#include "portacl/device.hpp"
#include "portacl/error.hpp"

namespace portacl {

namespace {
bool is_pocl(const DeviceInfo& d) { return d.platform_name.find("Portable Computing Language") != std::string::npos; }
bool is_nvidia_gpu(const DeviceInfo& d) { return classify(d).device_class == DeviceClass::nvidia_gpu; }
bool any(const DeviceInfo&) { return true; }
}  // namespace

const std::vector<Quirk>& quirk_book() {
  static const std::vector<Quirk> book = {
      {"pocl.barrier-loop-in-branch", "PoCL, any device",
       "a loop that contains barriers, inside a branch that some work-groups skip, is mis-compiled by PoCL's "
       "work-group compiler (work-items wait at the wrong barrier)",
       "scan.cl calls its look-back (a barrier loop) in every tile, tile 0 included, which finds nothing before it; "
       "csr_block runs every barrier of a unit in every work-group (rule sparse.block-uniform-barriers: PoCL 5.0 "
       "aborts compiling its branches, 'region_entry_barrier != NULL', pocl pull request 2281); gemv_dot with a "
       "work-item a row (CPU plans) has no barrier at all (PoCL 5.0 aborted on its barrier loop too)",
       is_pocl},
      {"pocl.compiler-writes-stderr", "PoCL, any device",
       "its compiler prints a summary ('2 warnings generated.') straight to the program's stderr during "
       "clBuildProgram, besides the build log: noise in every program that builds a kernel",
       "the program cache takes stderr aside while PoCL builds: the summary lines are shown only with "
       "PORTACL_VERBOSE=1, anything else written meanwhile is passed through",
       is_pocl},
      {"pocl.dlhandle-cache-release", "PoCL 5.0 (Ubuntu 24.04), a device group of several PoCL devices",
       "PoCL keeps one compiled-kernel entry per kernel hash, work-group size and specialisation (grid size, "
       "offset) but finds the entry to release by hash and work-group size alone: one kernel in flight on two "
       "sub-devices at once with different grid sizes (an uneven split) releases the wrong entry, and the process "
       "aborts ('pocl_release_dlhandle_cache: found->ref_count > 0')",
       "a device group builds each PoCL member's programs with a define of its own (-DPORTACL_GROUP_MEMBER=i, "
       "src/runtime/device_group.cpp), so no two members' kernels share an entry",
       is_pocl},
      {"pocl.subdevice-freed-under-queue", "PoCL 3.1 (Debian 12) to 7, sub-devices",
       "the last release of a command queue releases its context, which frees a sub-device nobody else holds, "
       "and then reads the queue's device to free the queue: when that last release is PoCL's own (a worker thread "
       "dropping a finished command's event after the program let go of a device group), it reads freed memory and "
       "the process crashes later in that worker (POclReleaseEvent)",
       "a PoCL device's sub-devices are made once for each split and kept for the life of the process "
       "(src/runtime/device_group.cpp): a later group of the same split gets the same sub-devices, and none is "
       "freed under a queue",
       is_pocl},
      {"nvidia.shuffle-divergent", "NVIDIA GPUs",
       "shfl.sync in one arm of a branch the warp diverges on waits for lanes that never arrive: a deadlock",
       "combine.cl shuffles first and combines after (COMBINE may name an operand twice, and a ?: would diverge)",
       is_nvidia_gpu},
      {"nvidia.user-event-deferral", "NVIDIA GPUs",
       "commands queued behind a user event are deferred by NVIDIA's runtime long after the event completes: "
       "profiling them from a gate made CLBlast look 4x to 1750x slower than it is",
       "portacl-bench times every library by wall clock around the call and clFinish, never behind a gate",
       is_nvidia_gpu},
      {"clblast.beta-zero-reads-c", "CLBlast 1.5.3 (Debian), any device",
       "Xgemm, Xgemv and Xspmv compute beta * C even when beta = 0, so NaN or Inf in C (y) survive into the "
       "result (BLAS says it is not read)",
       "gemm with the CLBlast backend clears C with portacl's own kernel first when beta = 0; the bench's checks of "
       "those baselines start their output at zero instead of NaN",
       any},
      {"clblast.xtrsv-waits-inside", "CLBlast 1.5.3 (Debian), any device",
       "Xtrsv waits on its own commands inside the call, so a command it enqueues behind a held event never runs: "
       "a deadlock",
       "portacl-bench never holds CLBlast's commands back (wall-clock timing around the call)", any},
      {"clblast.ixamax-large-n", "CLBlast 1.5.3 (Debian) on NVIDIA GPUs",
       "iSmax and iSamax return wrong indices for 2^24 elements and more (seen on the H100)",
       "portacl-bench checks every CLBlast result and reports the wrong ones; portacl's argmax and iamax are "
       "its own kernels",
       is_nvidia_gpu},
  };
  return book;
}

const Quirk& quirk(const std::string& id) {
  for (const Quirk& q : quirk_book())
    if (id == q.id) return q;
  throw Error("no quirk with id '" + id + "' in the quirk book");
}

std::vector<const Quirk*> quirks_of(const DeviceInfo& device) {
  std::vector<const Quirk*> out;
  for (const Quirk& q : quirk_book())
    if (q.applies(device)) out.push_back(&q);
  return out;
}

}  // namespace portacl
