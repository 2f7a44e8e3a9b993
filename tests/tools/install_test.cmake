# SPDX-License-Identifier: Apache-2.0
# Installs the build tree to a scratch prefix, then configures, builds and
# runs tests/install_consumer against it with find_package(portacl).
file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
foreach(f include/portacl/portacl.hpp include/portacl/version.hpp share/portacl/kernels/stream.cl)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install is missing ${f}")
  endif()
endforeach()
set(extra "")
if(SANITIZE)
  # A sanitized library needs its runtime linked into the executable too.
  set(extra "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${WORK}/consumer" -G "${GENERATOR}"
                        "-DCMAKE_PREFIX_PATH=${prefix}" ${extra}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}/consumer" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed (${rc})")
endif()
# Hide the installed kernel files: the library must still run from its embedded copy.
file(RENAME "${prefix}/share/portacl/kernels" "${prefix}/share/portacl/kernels.hidden")
execute_process(COMMAND "${WORK}/consumer/consumer" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "consumer said: ${out}${err}")
if(rc)
  message(FATAL_ERROR "the consumer failed (${rc})")
endif()
if(NOT out MATCHES "consumer ok")
  message(FATAL_ERROR "the consumer did not report success")
endif()
