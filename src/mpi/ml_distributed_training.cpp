// SPDX-License-Identifier: Apache-2.0
// SmallCnn replicas across MPI ranks: gradients averaged by MPI_Allreduce.
#include "portacl/mpi.hpp"

#include <chrono>
#include <optional>

#include "kernels/ml/gradient_average.hpp"
#include "mpi/datatype.hpp"

namespace portacl::mpi {

TrainingStepResult distributed_train_step(SmallCnn& replica, MPI_Comm comm, const Buffer<float>& images,
                                          const Buffer<int>& labels, std::size_t local_batch,
                                          const SgdOptions& options) {
  const std::string name = rank_prefix(comm);
  TrainingStepResult result;
  // The local gradients; a failure here is shared, so that no rank waits
  // for a failed one in the all-reduce below.
  double loss = 0;
  std::optional<Error> failed;
  try {
    if (local_batch) loss = replica.compute_gradients(images, labels, local_batch);
  } catch (const Error& e) {
    failed = Error(name + "distributed_train_step: " + e.what());
  }
  int any_failed = failed ? 1 : 0, ranks_failed = 0;
  MPI_Allreduce(&any_failed, &ranks_failed, 1, MPI_INT, MPI_SUM, comm);
  if (failed) throw *failed;
  if (ranks_failed)
    throw Error(name + "distributed_train_step: " + std::to_string(ranks_failed) +
                " other rank(s) failed; the step is not taken");

  replica.context().finish();  // the exchange's time starts after the backward pass
  const auto start = std::chrono::steady_clock::now();
  unsigned long long mine = local_batch, total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  if (total == 0) throw Error(name + "distributed_train_step: a batch of 0 images on every rank");
  result.batch = std::size_t(total);
  const std::vector<ParameterSegment> segments = parameter_segments(replica);
  std::vector<float> gradients(replica.gradients().size(), 0.0f);
  if (local_batch) gradients = replica.gradients().download();
  std::vector<double> packed;
  add_packed_gradients(segments, gradients.data(), double(local_batch), packed);
  // One all-reduce carries the weighted gradients and the weighted loss.
  packed.push_back(loss * double(local_batch));
  MPI_Allreduce(MPI_IN_PLACE, packed.data(), message_count(packed.size(), comm), MPI_DOUBLE, MPI_SUM, comm);
  for (double& g : packed) g /= double(total);
  result.loss = packed.back();
  packed.pop_back();
  unpack_gradients(segments, packed, gradients.data(), gradients.size());
  replica.gradients().upload(gradients);
  result.exchange_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  replica.apply_gradients(options);
  return result;
}

void broadcast_parameters(SmallCnn& replica, MPI_Comm comm) {
  std::vector<float> packed = replica.packed_parameters();
  MPI_Bcast(packed.data(), message_count(packed.size(), comm), MPI_FLOAT, 0, comm);
  replica.set_packed_parameters(packed);
}

}  // namespace portacl::mpi
