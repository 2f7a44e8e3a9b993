// SPDX-License-Identifier: Apache-2.0
/// \file
/// Everything a user of portacl needs, in one include: devices, contexts and
/// buffers, the kernel library (a header per family under
/// portacl/kernels/), plans and their explanations. What the tools and tests
/// need beyond this (tuning spaces, the tuning database, kernel traits,
/// reference shapes) is build-tree internal: src/tooling.hpp.
#pragma once

#include "portacl/cl.hpp"
#include "portacl/device/clinfo.hpp"
#include "portacl/device/device_class.hpp"
#include "portacl/device/device_info.hpp"
#include "portacl/device/read_device.hpp"
#include "portacl/error.hpp"
#include "portacl/kernels/binary_gemm.hpp"
#include "portacl/kernels/element.hpp"
#include "portacl/kernels/gemm.hpp"
#include "portacl/kernels/gemv.hpp"
#include "portacl/kernels/histogram.hpp"
#include "portacl/kernels/ml/kmeans.hpp"
#include "portacl/kernels/ml/knn.hpp"
#include "portacl/kernels/packed_symv.hpp"
#include "portacl/kernels/particles/bonds.hpp"
#include "portacl/kernels/particles/lennard_jones.hpp"
#include "portacl/kernels/particles/molecular_dynamics.hpp"
#include "portacl/kernels/particles/nbody.hpp"
#include "portacl/kernels/particles/neighbours.hpp"
#include "portacl/kernels/particles/rdf.hpp"
#include "portacl/kernels/pipeline.hpp"
#include "portacl/kernels/reduce.hpp"
#include "portacl/kernels/scan.hpp"
#include "portacl/kernels/sort.hpp"
#include "portacl/kernels/sparse.hpp"
#include "portacl/kernels/stencil.hpp"
#include "portacl/kernels/stream.hpp"
#include "portacl/kernels/trsv.hpp"
#include "portacl/programs/kernel_library.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/rules/launch_plan.hpp"
#include "portacl/rules/mapping_rules.hpp"
#include "portacl/rules/rule_book.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/host_buffer.hpp"
#include "portacl/runtime/context.hpp"
#include "portacl/runtime/device.hpp"
#include "portacl/runtime/device_value.hpp"
#include "portacl/tuning/prebuild.hpp"
#include "portacl/version.hpp"
