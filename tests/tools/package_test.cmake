# SPDX-License-Identifier: Apache-2.0
# Builds the Debian packages with CPack, as a packager would: one a
# component (libportacl<soname>, libportacl-dev, portacl-tools, and
# libportacl-mpi<soname> and python3-portacl where built). Checks their
# fields (exact versions between them, dependencies from dpkg-shlibdeps,
# no placeholder maintainer at localhost; lintian's errors where it is
# installed), what each holds (the multiarch
# library directory, the versioned soname, headers only in -dev), then
# unpacks them all into a scratch root (dpkg -x: an install that needs no
# root) and runs the tools from there, imports the Python module, and
# builds and runs a consumer against the root with find_package(portacl).
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${CPACK}" -G DEB -B "${WORK}/out" --config "${BUILD_DIR}/CPackConfig.cmake"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB debs "${WORK}/out/*.deb")
if(rc OR NOT debs)
  message(FATAL_ERROR "cpack -G DEB failed (${rc}): ${out}${err}")
endif()
string(REGEX MATCH "^[0-9]+" major "${VERSION}")
string(REGEX MATCH "^[0-9]+\\.[0-9]+" major_minor "${VERSION}")
if(major STREQUAL "0")
  set(soname "${major_minor}")
else()
  set(soname "${major}")
endif()
set(runtime "libportacl${soname}")
function(fields_of package out)
  file(GLOB deb "${WORK}/out/${package}_*.deb")
  if(NOT deb)
    message(FATAL_ERROR "no package ${package} among: ${debs}")
  endif()
  execute_process(COMMAND dpkg-deb --field "${deb}" Package Version Depends Maintainer OUTPUT_VARIABLE f
                  RESULT_VARIABLE rc)
  execute_process(COMMAND dpkg-deb -c "${deb}" OUTPUT_VARIABLE files)
  if(rc OR NOT f MATCHES "Version: ${VERSION}\n" OR f MATCHES "localhost")
    message(FATAL_ERROR "${package}: wrong fields (${rc}):\n${f}")
  endif()
  set(${out} "${f}" PARENT_SCOPE)
  set(${out}_files "${files}" PARENT_SCOPE)
endfunction()
fields_of(${runtime} rt)
fields_of(libportacl-dev dev)
fields_of(portacl-tools tools)
if(NOT rt MATCHES "libclblast1" OR NOT rt MATCHES "libc6" OR rt MATCHES "Depends:[^\n]*libportacl")
  message(FATAL_ERROR "${runtime}'s dependencies are not dpkg-shlibdeps' (CLBlast, libc):\n${rt}")
endif()
# (dpkg-deb -c shows a link as "name -> target": names end at a space or the line's end.)
if(NOT rt_files MATCHES "usr/lib/[a-z0-9_]+-linux-gnu[a-z]*/libportacl\\.so\\.${soname}[ \n]" OR rt_files MATCHES "include/"
   OR rt_files MATCHES "libportacl\\.so[ \n]" OR NOT rt_files MATCHES "share/portacl/kernels/stream\\.cl")
  message(FATAL_ERROR "${runtime} holds the wrong files:\n${rt_files}")
endif()
if(NOT dev MATCHES "${runtime} \\(= ${VERSION}\\)" OR NOT dev MATCHES "opencl-clhpp-headers"
   OR NOT dev_files MATCHES "include/portacl/portacl\\.hpp" OR NOT dev_files MATCHES "libportacl\\.so[ \n]"
   OR NOT dev_files MATCHES "cmake/portacl/portaclConfig\\.cmake" OR NOT dev_files MATCHES "pkgconfig/portacl\\.pc")
  message(FATAL_ERROR "libportacl-dev is wrong:\n${dev}\n${dev_files}")
endif()
if(NOT tools MATCHES "${runtime} \\(= ${VERSION}\\)" OR NOT tools_files MATCHES "usr/bin/portacl-query")
  message(FATAL_ERROR "portacl-tools is wrong:\n${tools}\n${tools_files}")
endif()
if(tools MATCHES "mpi")
  message(FATAL_ERROR "portacl-tools pulls MPI (portacl-bench-mpi belongs in portacl-tools-mpi):\n${tools}")
endif()
# lintian, as Debian's archive runs it: no error (warnings are reported, not
# fatal). Left to the release pass: the sanitizer pass's binaries are
# instrumented, not what a distribution ships.
if(LINTIAN AND NOT SANITIZE)
  execute_process(COMMAND "${LINTIAN}" --fail-on error ${debs} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "lintian reports errors (${rc}):\n${out}${err}")
  endif()
  string(REGEX MATCHALL "\nW: [^\n]*" warnings "\n${out}")
  list(LENGTH warnings count)
  message(STATUS "lintian: no errors, ${count} warnings")
endif()

set(root "${WORK}/root")
foreach(deb ${debs})
  execute_process(COMMAND dpkg -x "${deb}" "${root}" RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "dpkg -x ${deb} failed (${rc})")
  endif()
endforeach()
execute_process(COMMAND "${root}/usr/bin/portacl-query" --version OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(rc OR NOT out STREQUAL "portacl-query ${VERSION}\n")
  message(FATAL_ERROR "the packaged portacl-query does not run from the scratch root (${rc}): ${out}")
endif()
if(PYTHON)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${root}/usr/lib/python3/dist-packages" "${PYTHON}" -c
                          "import portacl; print(portacl.__version__)" OUTPUT_VARIABLE out RESULT_VARIABLE rc
                          ERROR_VARIABLE err)
  if(rc OR NOT out STREQUAL "${VERSION}\n")
    message(FATAL_ERROR "python3-portacl does not import from the scratch root (${rc}): ${out}${err}")
  endif()
endif()
# A consumer built against the unpacked packages (the headers of -dev, the
# library of the runtime package), then run.
set(extra "")
if(SANITIZE)  # a sanitized library needs its runtime linked into the executable too
  set(extra "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${WORK}/consumer" -G "${GENERATOR}"
                        "-DCMAKE_PREFIX_PATH=${root}/usr" ${extra} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}/consumer" RESULT_VARIABLE rc OUTPUT_QUIET)
endif()
if(rc)
  message(FATAL_ERROR "a consumer does not build against the unpacked packages (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "ASAN_OPTIONS=${ASAN_OPTIONS}" "${WORK}/consumer/consumer"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc OR NOT out MATCHES "consumer ok")
  message(FATAL_ERROR "the consumer built against the packages failed (${rc}): ${out}${err}")
endif()
message(STATUS "packages: ${debs}")
