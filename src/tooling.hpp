// SPDX-License-Identifier: Apache-2.0
// What portacl's own tools and tests use beyond the user API, never
// installed: the binary cache, the tuning database and tuning spaces, every
// family's traits and tunables, the timing shared by the tuner and the
// benchmark, and the reference problem shapes portacl-query plans. (The
// operation list the tuner and the benchmark run, with its test workloads,
// is src/tuning/operations.hpp.)
#pragma once

#include "portacl/portacl.hpp"
#include "kernels/reference_calls.hpp"
#include "kernels/reference_shapes.hpp"
#include "portacl/programs.hpp"
#include "rules/tuning_database.hpp"
#include "rules/quirks.hpp"
#include "rules/tuning_space.hpp"
#include "tuning/timing.hpp"
#include "kernels/binary_gemm_tunables.hpp"
#include "kernels/gemm_tunables.hpp"
#include "kernels/gemv_tunables.hpp"
#include "kernels/fft_tunables.hpp"
#include "kernels/histogram_tunables.hpp"
#include "kernels/ml/conv_layer_tunables.hpp"
#include "kernels/ml/kmeans_tunables.hpp"
#include "kernels/ml/knn_tunables.hpp"
#include "kernels/packed_symv_tunables.hpp"
#include "kernels/reduce_tunables.hpp"
#include "kernels/scan_tunables.hpp"
#include "kernels/sparse/tunables.hpp"
#include "kernels/stencil/tunables.hpp"
#include "kernels/stream_tunables.hpp"
#include "kernels/trsv_tunables.hpp"
#include "rules/binary_gemm_rules.hpp"
#include "rules/coverage_rules.hpp"
#include "rules/gemm_rules.hpp"
#include "rules/fft_rules.hpp"
#include "rules/histogram_rules.hpp"
#include "rules/row_team.hpp"
#include "rules/sparse_rules.hpp"
#include "rules/stencil_rules.hpp"
