// SPDX-License-Identifier: Apache-2.0
// CG across MPI ranks, a device each: mpirun -np 4 example_cg_mpi --matrix F.mtx ("{rank}" in
// F becomes the rank) or --poisson N. An error on a rank is printed with its rank and ends the job.
#include <mpi.h>
#include <cstdio>
#include <string>

#include "portacl/mpi.hpp"
#include "portacl/portacl.hpp"

using namespace portacl;

static HostCsr<double> poisson(std::size_t n) {
  CooEntries e;
  e.rows = e.cols = n * n;
  auto add = [&](std::size_t r, std::size_t c, double v) {
    e.row.push_back(std::uint32_t(r)), e.col.push_back(std::uint32_t(c)), e.value.push_back(v);
  };
  for (std::size_t i = 0; i < n * n; ++i) {
    add(i, i, 4.0);
    if (i % n) add(i, i - 1, -1.0), add(i - 1, i, -1.0);
    if (i >= n) add(i, i - n, -1.0), add(i - n, i, -1.0);
  }
  return csr_from_entries<double>(e);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  try {
    std::string file;
    std::size_t n = 64;
    for (int i = 1; i + 1 < argc; i += 2) {
      if (std::string(argv[i]) == "--matrix") file = argv[i + 1];
      if (std::string(argv[i]) == "--poisson") n = std::stoul(argv[i + 1]);
    }
    if (const auto at = file.find("{rank}"); at != std::string::npos) file.replace(at, 6, std::to_string(rank));
    const HostCsr<double> whole =
        file.empty() ? poisson(n) : csr_from_entries<double>(general_entries(read_matrix_market(file)));
    Context ctx(mpi::rank_device_selector(comm));  // PORTACL_DEVICE, {local_rank} replaced
    const mpi::DistributedMatrix<double> a(ctx, comm, whole);
    Buffer<double> b(ctx, std::vector<double>(a.local_rows(), 1.0)), x(ctx, std::vector<double>(a.local_rows(), 0.0));
    SolverOptions o;
    o.tolerance = 1e-8;
    o.max_iterations = 5000;
    const SolverResult r = mpi::distributed_cg(a, b, x, o);
    if (rank == 0)
      std::printf("%zu rows: %s after %zu iterations, residual %.3g\n", a.rows(), r.stop_reason.c_str(), r.iterations,
                  r.residual);
    MPI_Finalize();
    return r.converged ? 0 : 1;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    std::fprintf(stderr, "%s\n", what.rfind("rank ", 0) == 0 ? what.c_str() : (mpi::rank_prefix(comm) + what).c_str());
    MPI_Abort(comm, 1);
  }
}
