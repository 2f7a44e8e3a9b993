// SPDX-License-Identifier: Apache-2.0
// Where a distributed CG iteration's time goes on each rank (run by
// tools/gpu/two-gpu-run.sh, step "cg-ranks", under mpirun): CG on 2D Poisson
// (double) of N^2 rows split over the ranks, every launch and halo
// transfer of 20 iterations recorded by its profiling events. Each rank
// prints its wall time and its device's span and busy time per iteration,
// then the last iteration's commands: duration and idle gap before each.
// usage: cg_ranks [N]   (default 4096)
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/sparse/generators.hpp"
#include "portacl/mpi.hpp"
#include "portacl/portacl.hpp"

using namespace portacl;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    const std::size_t n = argc > 1 ? std::stoul(argv[1]) : 4096, iterations = 20;
    Context ctx(mpi::rank_device_selector(MPI_COMM_WORLD));
    const mpi::DistributedMatrix<double> a(ctx, MPI_COMM_WORLD, poisson2d<double>(n));
    const std::size_t m = a.local_rows();
    const Buffer<double> b(ctx, std::vector<double>(m, 1.0));
    Buffer<double> x(ctx, m);
    SolverOptions o;
    o.tolerance = 0;
    o.max_iterations = iterations;
    for (int rep = 0; rep < 3; ++rep) {  // the first run compiles
      fill(ctx, x, 0.0);
      ctx.finish();
      MPI_Barrier(MPI_COMM_WORLD);
      LaunchRecorder rec(ctx);
      const auto start = std::chrono::steady_clock::now();
      mpi::distributed_cg(a, b, x, o);
      ctx.finish();
      const double wall = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
      std::vector<std::pair<double, double>> t;  // start, end in microseconds
      std::vector<cl_command_type> kind;
      for (const cl::Event& e : rec.events()) {
        t.push_back({1e-3 * double(e.getProfilingInfo<CL_PROFILING_COMMAND_START>()),
                     1e-3 * double(e.getProfilingInfo<CL_PROFILING_COMMAND_END>())});
        kind.push_back(e.getInfo<CL_EVENT_COMMAND_TYPE>());
      }
      std::vector<std::size_t> order(t.size());  // by start: the halo read runs on a second queue
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return t[i].first < t[j].first; });
      {
        std::vector<std::pair<double, double>> sorted_t;
        std::vector<cl_command_type> sorted_kind;
        for (std::size_t i : order) sorted_t.push_back(t[i]), sorted_kind.push_back(kind[i]);
        t.swap(sorted_t);
        kind.swap(sorted_kind);
      }
      double busy = 0;
      for (const auto& [s, e] : t) busy += e - s;
      const double span = t.empty() ? 0 : t.back().second - t.front().first;
      for (int r = 0; r < size; ++r) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (r != rank) continue;
        std::printf("rank %d run %d: %zu rows, %zu commands, wall %.1f us, span %.1f us, busy %.1f us per iteration\n",
                    rank, rep, m, t.size(), wall / double(iterations), span / double(iterations),
                    busy / double(iterations));
        if (rep == 2) {
          const std::size_t per = t.size() / (iterations + 1), from = t.size() > 2 * per ? t.size() - 2 * per : 0;
          for (std::size_t i = from; i < t.size(); ++i) {
            const char* what = kind[i] == CL_COMMAND_NDRANGE_KERNEL ? "kernel"
                               : kind[i] == CL_COMMAND_READ_BUFFER  ? "read"
                               : kind[i] == CL_COMMAND_WRITE_BUFFER ? "write"
                                                                    : "other";
            std::printf("  %3zu %-6s %8.1f us, starts %8.1f us after the one before ended\n", i, what,
                        t[i].second - t[i].first, i ? t[i].first - t[i - 1].second : 0.0);
          }
        }
        std::fflush(stdout);
      }
    }
  }
  MPI_Finalize();
}
