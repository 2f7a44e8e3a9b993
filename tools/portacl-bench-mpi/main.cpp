// SPDX-License-Identifier: Apache-2.0
// portacl-bench-mpi: strong and weak scaling of the MPI layer (CG, heat 2D,
// N-body, training) over the ranks of one mpirun, a device a rank. Rank 0's
// device alone first, by the single-device call, in the same run; then the
// ranks together. Run it at several -np to fill a table.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>

#include "../common/cli.hpp"
#include "../common/scaling_cases.hpp"
#include "kernels/sparse/generators.hpp"
#include "portacl/mpi.hpp"
#include "portacl/version.hpp"
#include "tuning/timing.hpp"

using namespace portacl;
using namespace bench;

namespace {

const char* kUsage =
    "usage: mpirun -np P portacl-bench-mpi [--cases LIST] [--reps N] [--seed N] [--device SEL]\n"
    "  --cases LIST       comma-separated cases (default cg:1024,heat:2048,nbody:16384,train:64):\n"
    "%s"
    "  --reps N           timed runs a case, median reported (default 5)\n"
    "  --seed N           the inputs' seed (default: drawn, printed)\n"
    "  --device SEL       each rank's device; {rank} and {local_rank} are replaced\n"
    "                     (gpu:{local_rank}: a GPU a rank); default PORTACL_DEVICE\n";

MPI_Comm comm = MPI_COMM_WORLD;

struct Timing {
  double ms = 0;              // per unit, median
  double spread = 0;          // (max - min) / median of the runs
  double exchange_share = 0;  // the slowest rank's exchange over the wall time
};

// The ranks together on `c`: barrier, the run, clFinish, barrier; wall clock on every rank.
Timing distributed_ms(Context& ctx, const ScalingCase& c, int reps, std::uint64_t seed) {
  const std::size_t k = scaling_units(c);
  ScalingRun r;
  if (c.kind == "cg") {
    auto a = std::make_shared<mpi::DistributedMatrix<double>>(ctx, comm, poisson2d<double>(c.n));
    auto b = std::make_shared<Buffer<double>>(ctx, std::vector<double>(a->local_rows(), 1.0));
    auto x = std::make_shared<Buffer<double>>(ctx, a->local_rows());
    r = scaling_run(a, [&ctx, b, x, k](const mpi::DistributedMatrix<double>& m) {
      if (x->size()) fill(ctx, *x, 0.0);
      mpi::distributed_cg(m, *b, *x, scaling_cg_options(k));
    });
  } else if (c.kind == "spmv") {
    auto a = std::make_shared<mpi::DistributedMatrix<double>>(ctx, comm, poisson2d<double>(c.n));
    auto x = std::make_shared<Buffer<double>>(ctx, std::vector<double>(a->local_rows(), 1.0));
    auto y = std::make_shared<Buffer<double>>(ctx, a->local_rows());
    r = scaling_run(a, [x, y, k](const mpi::DistributedMatrix<double>& m) {
      for (std::size_t i = 0; i < k; ++i) m.multiply(*x, *y);
    });
  } else if (c.kind == "heat") {
    r = heat_run(
        std::make_shared<mpi::DistributedHeat2d<float>>(ctx, comm, std::vector<float>(c.n * c.n, 1.0f), c.n, c.n), k);
  } else if (c.kind == "nbody") {
    const NbodyOptions o = scaling_nbody_options();
    r = nbody_run(std::make_shared<mpi::DistributedNbody>(ctx, comm, scaling_bodies(c.n, seed),
                                                          std::vector<float>(4 * c.n, 0.0f), o),
                  k);
  } else if (c.kind == "fft3d") {
    auto f = std::make_shared<mpi::DistributedFft3d<float>>(ctx, comm, std::array<std::size_t, 3>{c.n, c.n, c.n});
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const std::vector<float> whole = scaling_fft3d_values(c.n, seed);
    const std::size_t plane = 2 * c.n * c.n, first = f->plane_offsets()[std::size_t(rank)] * plane,
                      last = f->plane_offsets()[std::size_t(rank) + 1] * plane;
    auto slab = std::make_shared<Buffer<float>>(
        ctx, std::vector<float>(whole.begin() + std::ptrdiff_t(first), whole.begin() + std::ptrdiff_t(last)));
    r = scaling_run(f, [slab, k](const mpi::DistributedFft3d<float>& g) {
      for (std::size_t s = 0; s < k; ++s) g.forward(*slab);
    });
  } else {
    std::vector<float> images;
    std::vector<int> labels;
    scaling_batch(c.n, seed, images, labels);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const std::vector<std::size_t> split = mpi::rank_split(c.n, comm);
    const std::size_t first = split[std::size_t(rank)], count = split[std::size_t(rank) + 1] - first;
    const std::size_t per_image = images.size() / c.n;
    auto net = std::make_shared<SmallCnn>(ctx, scaling_network(), seed);
    auto di = std::make_shared<Buffer<float>>(ctx, std::max<std::size_t>(count * per_image, 1));
    auto dl = std::make_shared<Buffer<int>>(ctx, std::max<std::size_t>(count, 1));
    if (count) {
      di->upload(images.data() + first * per_image, count * per_image);
      dl->upload(labels.data() + first, count);
    }
    auto seconds = std::make_shared<double>(0.0);
    r.run = [net, di, dl, count, k, seconds] {
      const SgdOptions o = scaling_sgd_options();
      for (std::size_t s = 0; s < k; ++s)
        *seconds += mpi::distributed_train_step(*net, comm, *di, *dl, count, o).exchange_seconds;
    };
    r.exchanging = [seconds] { return *seconds; };
  }
  const std::function<void()>& run = r.run;
  const std::function<double()>& exchanging = r.exchanging;
  auto timed = [&] {
    MPI_Barrier(comm);
    const auto start = std::chrono::steady_clock::now();
    run();
    ctx.finish();
    MPI_Barrier(comm);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  timed();  // warm-up: compiles the kernels
  const double before = exchanging();
  double wall = 0;
  const TimingSummary t = measure(0, reps, [&] {
    const double ms = timed();
    wall += ms;
    return ms;
  });
  double mine = exchanging() - before, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  Timing out;
  out.ms = t.median_ms / double(k);
  out.spread = t.spread();
  out.exchange_share = wall > 0 ? 1000.0 * slowest / wall : 0.0;
  return out;
}

// Rank 0's device alone on `c` while the others wait; every rank gets the time.
double rank0_alone_ms(Context& ctx, const ScalingCase& c, int reps, std::uint64_t seed) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  double ms = rank == 0 ? alone_ms(ctx, c, reps, seed) : 0.0;
  MPI_Bcast(&ms, 1, MPI_DOUBLE, 0, comm);
  return ms;
}

int run(int argc, char** argv) {
  std::vector<std::string> specs = cli::split("cg:1024,heat:2048,nbody:16384,train:64");
  int reps = 5;
  unsigned long long seed = std::random_device{}();
  std::string device;
  for (cli::Arguments args(argc, argv); args.next();) {
    char usage[2048];
    std::snprintf(usage, sizeof usage, kUsage, scaling_forms_text().c_str());
    if (cli::help_or_version(args, "portacl-bench-mpi", usage)) return 0;
    if (args.arg() == "--cases")
      specs = cli::split(args.value());
    else if (args.arg() == "--reps")
      reps = std::max(1, cli::non_negative(args.value(), "--reps"));
    else if (args.arg() == "--seed")
      seed = cli::seed(args.value(), "--seed");
    else if (args.arg() == "--device")
      device = args.value();
    else
      throw std::invalid_argument("unknown option '" + args.arg() + "' (--help lists them)");
  }
  std::vector<ScalingCase> cases;
  for (const std::string& s : specs) cases.push_back(parse_scaling_case(s, "--cases"));
  MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  Context ctx(mpi::rank_device_selector(comm, device));
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Every rank's device, printed by rank 0 in order.
  std::string line = mpi::rank_prefix(comm) + ctx.info().name + "\n";
  std::vector<char> all(std::size_t(size) * 256, '\0');
  line.resize(255);
  MPI_Gather(line.c_str(), 256, MPI_CHAR, all.data(), 256, MPI_CHAR, 0, comm);
  std::ostringstream out;
  out << "portacl-bench-mpi " << PORTACL_VERSION_STRING << ", seed " << seed << ", " << size
      << " ranks; wall clock between barriers around the calls and clFinish, median of " << reps << " runs\n";
  for (int r = 0; r < size; ++r) out << (all.data() + 256 * r);
  out << "\nstrong scaling (the same problem), ms per unit (CG iteration, step):\n"
      << "| case | rank 0 alone | " << size << " ranks | spread | vs rank 0 alone | efficiency | in exchange |\n"
      << "|---|---|---|---|---|---|---|\n";
  for (const ScalingCase& c : cases) {
    const double one = rank0_alone_ms(ctx, c, reps, seed);
    const Timing t = distributed_ms(ctx, c, reps, seed);
    out << "| " << c.spec() << " | " << fixed(one, 3) << " | " << fixed(t.ms, 3) << " | " << fixed(100 * t.spread, 0)
        << "% | " << fixed(one / t.ms, 2) << "x | " << fixed(100.0 * one / (double(size) * t.ms), 0) << "% | "
        << fixed(100.0 * t.exchange_share, 1) << "% |\n";
  }
  out << "\nweak scaling (N becomes sqrt(P) N, as the work is N^2; a batch B becomes P B; a 3D FFT's N the smallest "
         "2^a 3^b 5^c at least cbrt(P) N), rank 0 alone at the case's size against the ranks on the grown case:\n"
      << "| case | rank 0 alone | grown case | " << size << " ranks | efficiency | in exchange |\n"
      << "|---|---|---|---|---|---|\n";
  for (const ScalingCase& c : cases) {
    const double one = rank0_alone_ms(ctx, c, reps, seed);
    const ScalingCase g = c.grown(std::size_t(size));
    const Timing t = distributed_ms(ctx, g, reps, seed);
    out << "| " << c.spec() << " | " << fixed(one, 3) << " | " << g.spec() << " | " << fixed(t.ms, 3) << " | "
        << fixed(100.0 * one / t.ms, 0) << "% | " << fixed(100.0 * t.exchange_share, 1) << "% |\n";
  }
  if (rank == 0) std::cout << out.str() << std::flush;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    status = run(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "portacl-bench-mpi: %s\n", e.what());
    MPI_Abort(comm, 2);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    std::fprintf(stderr, "portacl-bench-mpi: %s\n",
                 what.rfind("rank ", 0) == 0 ? what.c_str() : (mpi::rank_prefix(comm) + what).c_str());
    MPI_Abort(comm, 1);
  }
  MPI_Finalize();
  return status;
}
