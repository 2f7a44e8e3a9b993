#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on a two-GPU machine lent through the device tool (nvidia-h200-x2 or
# nvidia-h100-x2; not part of CI): multi-GPU scaling of CG, heat 2D, N-body
# and training, as a device group of both GPUs in one process and as two MPI
# ranks with a GPU each, every single-GPU baseline in the same run; and MPI
# ranks on PoCL (the host's CPU cut into ranks of 8 cores). Logs go to $OUT.
# Needs .debs/ as gpu-run.sh does and Debian's Open MPI in .debs/mpi/.
# NVLink multicast stays off as the machine sets it (NCCL_NVLS_ENABLE=0 and
# friends): portacl does not use NCCL, and nothing here unsets them.
# STEPS (default "build query tests correct group mpi pocl-mpi"; also mpi-one, cg-ranks) picks what runs.
set -u
STEPS=${STEPS:-build query tests correct group mpi pocl-mpi}
source tools/gpu/gpu-env.sh
export PORTACL_TUNING_DB="$OUT/tuning_two_gpu.json"
mpirun="mpirun --allow-run-as-root"
# Issue 30's cases: CG on 2D Poisson at 4M and 16M rows, heat 2D at 8192^2 and
# 16384^2, N-body at 2^18 and 2^20 bodies, a training step on 256 images.
CASES=${CASES:-cg:2048,cg:4096,spmv:2048,spmv:4096,heat:8192,heat:16384,nbody:262144,nbody:1048576,train:256}
if has build; then
  build_portacl
  env | grep -E "NCCL_NVLS|NVSHMEM_DISABLE|TORCH_SYMM" > "$OUT/multicast_env.txt"
fi
if has query; then
  { nvidia-smi -L; nvidia-smi topo -m; } > "$OUT/gpus.txt" 2>&1
  for g in gpu:0 gpu:1; do /tmp/build/tools/portacl-query --device "$g" --explain > "$OUT/query_${g/:/}.txt" 2>&1; done
  /tmp/build/tools/portacl-tune --group gpu:0,gpu:1 > "$OUT/group_calibration.txt" 2>&1
  /tmp/build/tools/portacl-query --group gpu:0,gpu:1 >> "$OUT/group_calibration.txt" 2>&1
  head -3 "$OUT/query_gpu0.txt"; head -3 "$OUT/query_gpu1.txt"; grep -iE "weight|member|split" "$OUT/group_calibration.txt" | head -12
fi
if has tests; then
  # The whole suite on the first GPU (and PoCL for the CPU groups).
  PORTACL_TEST_DEVICE=gpu timeout ${TEST_TIMEOUT:-400} /tmp/build/tests/portacl_tests ${TESTS:-} > "$OUT/tests_gpu.log" 2>&1
  echo "gpu tests exit $?" >> "$OUT/tests_gpu.log"
  tail -n 4 "$OUT/tests_gpu.log"
fi
if has correct; then
  # Both layouts against one GPU: the two-GPU group (one process), then two
  # MPI ranks with a GPU each (tests/mpi/mpi_checks.cpp), then the ctest MPI jobs on PoCL.
  timeout 200 /tmp/build/tests/portacl_tests "[group_mixed]" > "$OUT/correct_group.log" 2>&1
  echo "two-GPU group tests exit $?" >> "$OUT/correct_group.log"
  PORTACL_DEVICE='gpu:{local_rank}' timeout 200 $mpirun -np 2 $rank_env /tmp/build/tests/portacl_mpi_checks \
    > "$OUT/correct_mpi_gpus.log" 2>&1
  echo "two-rank GPU checks exit $?" >> "$OUT/correct_mpi_gpus.log"
  (cd /tmp/build && timeout 200 ctest -L mpi --output-on-failure) > "$OUT/correct_mpi_pocl.log" 2>&1
  tail -n 3 "$OUT/correct_group.log"; tail -n 3 "$OUT/correct_mpi_gpus.log"; grep "tests passed" "$OUT/correct_mpi_pocl.log"
fi
if has group; then
  # One process, both GPUs: each GPU alone first (the single-GPU baselines), then the group
  # weighted by those times; weak scaling after.
  timeout 330 /tmp/build/tools/portacl-bench --group gpu:0,gpu:1 --group-only --reps ${REPS:-3} \
    --group-cases "$CASES" > "$OUT/group_two_gpus.txt" 2>&1
  echo "group bench exit $?" >> "$OUT/group_two_gpus.txt"
  grep -E "^\||exit" "$OUT/group_two_gpus.txt"
fi
if has mpi; then
  # Two ranks, a GPU each: rank 0's GPU alone first, then both.
  PORTACL_DEVICE='gpu:{local_rank}' timeout 330 $mpirun -np 2 $rank_env /tmp/build/tools/portacl-bench-mpi --reps ${REPS:-3} \
    --cases "$CASES" > "$OUT/mpi_two_gpus.txt" 2>&1
  echo "mpi bench exit $?" >> "$OUT/mpi_two_gpus.txt"
  grep -E "^\||exit" "$OUT/mpi_two_gpus.txt"
fi
if has mpi-one; then
  # One rank: the distributed forms' own cost against the single-device calls on the same GPU.
  PORTACL_DEVICE=gpu:0 timeout 200 $mpirun -np 1 $rank_env /tmp/build/tools/portacl-bench-mpi --reps ${REPS:-3} \
    --cases cg:2048,spmv:2048 > "$OUT/mpi_one_gpu.txt" 2>&1
  grep -E "^\|" "$OUT/mpi_one_gpu.txt"
fi
if has cg-ranks; then
  # Each rank's queue during distributed CG on 16M rows (tools/gpu/cg_ranks.cpp): launches, halo transfers, gaps.
  mpicxx -O2 -std=c++17 -I include -I src -I /tmp/build/generated/include tools/gpu/cg_ranks.cpp -o /tmp/cg_ranks \
    -L$libdir -lportacl_mpi -lportacl -lOpenCL -Wl,-rpath,$libdir > "$OUT/cg_ranks.txt" 2>&1
  PORTACL_DEVICE='gpu:{local_rank}' timeout 200 $mpirun -np 2 $rank_env /tmp/cg_ranks ${CG_RANKS_N:-4096} \
    >> "$OUT/cg_ranks.txt" 2>&1
  cat "$OUT/cg_ranks.txt"
fi
if has pocl-mpi; then
  # MPI ranks on PoCL: 8 cores a rank (POCL_CPU_MAX_CU_NUM, each rank bound to its own cores),
  # 2 and 4 ranks, rank 0 alone first; and the same CPU as a device group of 2 and 4 sub-devices.
  cores=${RANK_CORES:-8}
  for p in 2 4; do
    for binding in "--map-by slot:PE=$cores --bind-to core" "--bind-to none"; do
      echo "mpirun $binding" > "$OUT/mpi_pocl_$p.txt"
      POCL_CPU_MAX_CU_NUM=$cores PORTACL_DEVICE=cpu timeout 240 $mpirun -np $p $binding \
        $rank_env /tmp/build/tools/portacl-bench-mpi --reps ${REPS:-3} \
        --cases ${POCL_CASES:-cg:1024,heat:4096,nbody:32768,train:64} >> "$OUT/mpi_pocl_$p.txt" 2>&1
      status=$?
      [ $status = 0 ] && break  # else the binding was refused (fewer cores than asked): unbound
    done
    echo "pocl mpi $p exit $status" >> "$OUT/mpi_pocl_$p.txt"
    grep -E "^\||exit" "$OUT/mpi_pocl_$p.txt"
  done
fi
rm -f "$OUT"/tuning_two_gpu.json.*
