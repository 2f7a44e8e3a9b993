# SPDX-License-Identifier: Apache-2.0
# The fuzz harnesses' library (included from the top-level CMakeLists.txt,
# whose directory generates the embedded kernels). Every harness reads text:
# JSON, clinfo output, tuning databases, program-cache entries, kernel
# includes, Matrix Market files. Those readers live in the lower layers
# (util, device, rules, programs), one sparse file and two families'
# descriptors (which two harnesses plan for), so the harnesses link a static
# library of those files, instrumented, instead of the whole of libportacl:
# the kernel families' launch code is never reached from a harness and need
# not be built for fuzzing.
set(PORTACL_FUZZ_LAYERS util device rules programs)
set(fuzz_core_sources "${PORTACL_EMBEDDED}")
foreach(file sparse/matrix_market.cpp stream_traits.cpp reduce_traits.cpp)
  list(APPEND fuzz_core_sources "${CMAKE_CURRENT_SOURCE_DIR}/src/kernels/${file}")
endforeach()
foreach(layer ${PORTACL_FUZZ_LAYERS})
  file(GLOB_RECURSE layer_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/src/${layer}/*.cpp")
  list(APPEND fuzz_core_sources ${layer_sources})
endforeach()
add_library(portacl_fuzz_core STATIC ${fuzz_core_sources})
target_include_directories(portacl_fuzz_core
  PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/include" "${CMAKE_CURRENT_BINARY_DIR}/generated/include" "${PORTACL_CLHPP_DIR}"
         "${CMAKE_CURRENT_SOURCE_DIR}/src"
  PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}/src/programs")
target_compile_definitions(portacl_fuzz_core PRIVATE PORTACL_LIB_TO_DATA="${PORTACL_LIB_TO_DATA}")
target_compile_features(portacl_fuzz_core PUBLIC cxx_std_17)
target_link_libraries(portacl_fuzz_core PUBLIC OpenCL::OpenCL ${CMAKE_DL_LIBS})

