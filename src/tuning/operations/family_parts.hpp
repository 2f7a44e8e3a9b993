// SPDX-License-Identifier: Apache-2.0
// The parts of a family that live in one file and are registered from
// another (family.hpp): operations beside their cases, and the particle
// members' operations, which join one family.
#pragma once

#include <vector>

#include "../operations.hpp"

namespace portacl {

std::vector<Operation> stencil_operations();  // stencil_operations.cpp; registered with stencil_cases.cpp
std::vector<Operation> sparse_operations();   // sparse_operations.cpp; with sparse_cases.cpp
std::vector<Operation> gemm_operations();     // gemm_operations.cpp; with gemm_cases.cpp
std::vector<Operation> md_operations();       // particles_md_operations.cpp; with particles_nbody_operations.cpp
std::vector<Operation> rdf_operations();      // particles_rdf_operations.cpp; likewise

}  // namespace portacl
