# SPDX-License-Identifier: Apache-2.0
# Builds the .deb with CPack, unpacks it into a scratch root (dpkg -x: an
# install that needs no root), and checks its metadata, its files and that
# its tools run from there.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${CPACK}" -G DEB -B "${WORK}/out" --config "${BUILD_DIR}/CPackConfig.cmake"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB debs "${WORK}/out/*.deb")
if(rc OR NOT debs)
  message(FATAL_ERROR "cpack -G DEB failed (${rc}): ${out}${err}")
endif()
execute_process(COMMAND dpkg-deb --field "${debs}" Package Version Depends OUTPUT_VARIABLE fields RESULT_VARIABLE rc)
if(rc OR NOT fields MATCHES "Package: portacl" OR NOT fields MATCHES "Version: ${VERSION}"
   OR NOT fields MATCHES "libclblast1")
  message(FATAL_ERROR "the package's fields are wrong (${rc}):\n${fields}")
endif()
execute_process(COMMAND dpkg -x "${debs}" "${WORK}/root" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "dpkg -x failed (${rc})")
endif()
foreach(f usr/bin/portacl-query usr/include/portacl/portacl.hpp usr/share/portacl/kernels/stream.cl
          usr/share/doc/portacl/LICENSE)
  if(NOT EXISTS "${WORK}/root/${f}")
    message(FATAL_ERROR "the package lacks ${f}")
  endif()
endforeach()
execute_process(COMMAND "${WORK}/root/usr/bin/portacl-query" --version OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(rc OR NOT out STREQUAL "portacl-query ${VERSION}\n")
  message(FATAL_ERROR "the packaged portacl-query does not run from the scratch root (${rc}): ${out}")
endif()
