# SPDX-License-Identifier: Apache-2.0
# Installs the build tree to a scratch prefix and moves the prefix elsewhere
# (a relocated install must keep working), then: the installed tools run
# without LD_LIBRARY_PATH, a tuning file dropped into the moved prefix's
# share/portacl/tuning is what plans come from, no build-tree path is left
# in the library, and consumers build and run against the moved prefix with
# find_package(portacl) and with plain g++ and pkg-config; the Python module
# imports from it.
file(REMOVE_RECURSE "${WORK}")
set(prefix "${WORK}/prefix")
set(moved "${WORK}/moved elsewhere")  # a space, too
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
file(RENAME "${prefix}" "${moved}")
file(GLOB_RECURSE pc_files "${moved}/*/portacl.pc")
file(GLOB_RECURSE libraries "${moved}/*/libportacl.so")
if(NOT pc_files OR NOT libraries)
  message(FATAL_ERROR "install is missing portacl.pc or libportacl.so")
endif()
get_filename_component(pkgconfig_dir "${pc_files}" DIRECTORY)
# README names the folder: the multiarch library directory's pkgconfig on
# Debian and Ubuntu, lib/pkgconfig elsewhere.
if(NOT pkgconfig_dir MATCHES "/lib/[a-z0-9_]+-linux-gnu[a-z]*/pkgconfig$" AND NOT pkgconfig_dir MATCHES "/lib/pkgconfig$")
  message(FATAL_ERROR "portacl.pc is in ${pkgconfig_dir}, not where README.md says")
endif()
get_filename_component(libdir "${libraries}" DIRECTORY)
foreach(f include/portacl/portacl.hpp include/portacl/version.hpp share/portacl/kernels/stream.cl
          share/portacl/tuning/nvidia_h100_80gb_hbm3.json share/doc/portacl/LICENSE bin/portacl-query)
  if(NOT EXISTS "${moved}/${f}")
    message(FATAL_ERROR "install is missing ${f}")
  endif()
endforeach()

# No data directory of the source tree, the build tree or the configured
# prefix in the library's strings: it finds its data at run time. (Only
# data paths are looked for: a sanitized build's instrumentation names its
# source files, kernels/sparse_krylov_step.cl among them, which the host
# code includes too; a string that is such a file's name is not a data path.)
find_program(READELF readelf)
if(READELF)
  execute_process(COMMAND "${READELF}" -p .rodata "${libraries}" OUTPUT_VARIABLE strings RESULT_VARIABLE rc)
  # One list item a string: brackets and semicolons would change how CMake splits a list.
  string(REPLACE ";" "," strings "${strings}")
  string(REPLACE "[" "(" strings "${strings}")
  string(REPLACE "]" ")" strings "${strings}")
  string(REPLACE "\n" ";" lines "${strings}")
  foreach(path "${SOURCE_DIR}/kernels" "${BUILD_DIR}/share" "${CONFIGURED_PREFIX}/share/portacl")
    foreach(line IN LISTS lines)
      string(FIND "${line}" "${path}" at)
      if(at EQUAL -1)
        continue()
      endif()
      string(LENGTH "${path}" length)
      math(EXPR after "${at} + ${length}")
      string(SUBSTRING "${line}" ${after} -1 rest)
      if(NOT rest MATCHES "^/[A-Za-z0-9_.-]+\\.(cl|hpp|cpp|h)$")
        message(FATAL_ERROR "the installed library still holds the data path ${path} (in '${line}')")
      endif()
    endforeach()
  endforeach()
endif()

# The installed tools run from the moved prefix (install RPATH $ORIGIN/../lib);
# LD_LIBRARY_PATH stays as the caller set it (it may hold CLBlast) and never
# names the moved prefix.
# Sanitized builds run them with the suite's options (ASAN_OPTIONS, leaks
# checked: see tests/CMakeLists.txt).
set(clean_env "${CMAKE_COMMAND}" -E env "ASAN_OPTIONS=${ASAN_OPTIONS}")
# A CMake project configured and built on its own against the moved prefix
# (extra arguments go to its configure); `what` names it in the failure.
function(build_against_moved source binary what)
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${source}" -B "${binary}" -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${moved}"
                          ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc)
    execute_process(COMMAND "${CMAKE_COMMAND}" --build "${binary}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_VARIABLE err)
  endif()
  if(rc)
    message(FATAL_ERROR "${what} does not build on its own against the moved prefix (${rc}): ${out}${err}")
  endif()
endfunction()
execute_process(COMMAND ${clean_env} "${moved}/bin/portacl-query" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "the moved portacl-query failed (${rc}): ${err}")
endif()
# A tuning file for this device, placed where shipped results live, is read
# from the moved prefix: the plan's provenance names it.
execute_process(COMMAND ${clean_env} "${moved}/bin/portacl-tune" --kernel sum --size 2^20 --budget 4 --accept-noisy
                        --db "${WORK}/tuned.json" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "the moved portacl-tune failed (${rc}): ${out}${err}")
endif()
file(RENAME "${WORK}/tuned.json" "${moved}/share/portacl/tuning/this-device.json")
execute_process(COMMAND ${clean_env} "PORTACL_TUNING_DB=${WORK}/no-user-database.json" "${moved}/bin/portacl-query"
                        --explain RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}" "tuning database ${moved}/share/portacl/tuning/this-device.json" at)
if(rc OR at EQUAL -1)
  message(FATAL_ERROR "plans do not come from the moved prefix's tuning file (${rc}):\n${out}${err}")
endif()

# The Python module, where it was built: `import portacl` from the moved
# prefix finds its library by itself (no LD_LIBRARY_PATH naming the prefix),
# and reports the library's version.
if(PYTHON)
  # Runs `code` with `import portacl` found under `path`; fails with `what`
  # unless it exits 0 and prints what matches `expected`.
  function(check_import path code expected what)
    execute_process(COMMAND ${clean_env} "PYTHONPATH=${path}" "${PYTHON}" -c "import portacl; ${code}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(rc OR NOT out MATCHES "${expected}")
      message(FATAL_ERROR "${what} (${rc}): ${out}${err}")
    endif()
    set(out "${out}" PARENT_SCOPE)
  endfunction()
  string(REPLACE "." "\\." version_pattern "${VERSION}")
  check_import("${moved}/${PYTHON_DIR}" "d = portacl.query(); print(portacl.__version__, len(d), d[0]['name'])"
               "^${version_pattern} [1-9]" "import portacl from the moved prefix failed")
  message(STATUS "python3 from the moved prefix: ${out}")
  # The module built on its own against the moved prefix (src/python's
  # CMakeLists.txt, find_package): for a distribution that packages the
  # library and the module apart.
  build_against_moved("${SOURCE_DIR}/src/python" "${WORK}/python-alone" "the Python module"
                      "-DPython3_EXECUTABLE=${PYTHON}" -DCMAKE_BUILD_TYPE=)
  check_import("${WORK}/python-alone" "print(portacl.__version__, portacl.sum([1.0, 2.0, 3.5]))"
               "^${version_pattern} 6\\.5\n$" "the module built on its own does not run")
endif()

set(extra "")
set(sanitize_flags "")
if(SANITIZE)
  # A sanitized library needs its runtime linked into the executable too.
  set(extra "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
  set(sanitize_flags -fsanitize=address,undefined)
endif()
# Hide the installed kernel files: the library must still run from its embedded copy.
file(RENAME "${moved}/share/portacl/kernels" "${moved}/share/portacl/kernels.hidden")

# CMake consumer.
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${WORK}/consumer" -G "${GENERATOR}"
                        "-DCMAKE_PREFIX_PATH=${moved}" ${extra}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed (${rc})")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}/consumer" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed (${rc})")
endif()
# The 0.1 header paths, deprecated forwards for one release, still build and run.
execute_process(COMMAND ${clean_env} "${WORK}/consumer/consumer_old_paths" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(rc OR NOT out MATCHES "old header paths ok: 200")
  message(FATAL_ERROR "the consumer of the deprecated header paths failed (${rc}): ${out}${err}")
endif()

# pkg-config consumer: README's command as written, run by bash in a folder
# holding app.cpp, with PKG_CONFIG_PATH on the moved prefix (its path has a
# space); the program then runs with no LD_LIBRARY_PATH naming the prefix.
find_program(PKG_CONFIG pkg-config)
find_program(BASH bash)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config is needed for the pkg-config consumer (Debian: pkgconf)")
endif()
file(STRINGS "${SOURCE_DIR}/README.md" readme_command REGEX "^eval \"g\\+\\+ app\\.cpp")
list(LENGTH readme_command found)
if(NOT found EQUAL 1)
  message(FATAL_ERROR "README.md has no single line starting 'eval \"g++ app.cpp' (found ${found})")
endif()
if(SANITIZE)  # a sanitized library needs its runtime in the program: the flags go right after g++
  string(REPLACE "eval \"g++ " "eval \"g++ -fsanitize=address,undefined " readme_command "${readme_command}")
endif()
file(MAKE_DIRECTORY "${WORK}/pkg")
file(COPY_FILE "${CONSUMER_DIR}/main.cpp" "${WORK}/pkg/app.cpp")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${pkgconfig_dir}" "${BASH}" -c "${readme_command}"
                WORKING_DIRECTORY "${WORK}/pkg" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "README's pkg-config command failed (${rc}): ${readme_command}\n${out}${err}")
endif()
file(RENAME "${WORK}/pkg/app" "${WORK}/pkg-consumer")
# The .pc leaves the language standard to the consumer: a C++20 program stays C++20.
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${pkgconfig_dir}" "${PKG_CONFIG}" --cflags portacl
                OUTPUT_VARIABLE cflags)
if(cflags MATCHES "-std=")
  message(FATAL_ERROR "portacl.pc imposes a language standard on its consumers: ${cflags}")
endif()

foreach(consumer "${WORK}/consumer/consumer" "${WORK}/pkg-consumer")
  execute_process(COMMAND ${clean_env} "${consumer}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${consumer} said: ${out}${err}")
  if(rc)
    message(FATAL_ERROR "${consumer} failed (${rc})")
  endif()
  if(NOT out MATCHES "consumer ok")
    message(FATAL_ERROR "${consumer} did not report success")
  endif()
endforeach()

# The installed examples, built on their own against the moved prefix as
# their CMakeLists.txt says, and one of them run (the release pass only:
# nine programs to build, the same sources the suite builds and runs).
if(NOT SANITIZE)
  build_against_moved("${moved}/share/doc/portacl/examples" "${WORK}/examples" "the installed examples")
  execute_process(COMMAND ${clean_env} "${WORK}/examples/example_dot_product" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "an installed example built on its own failed (${rc}): ${out}${err}")
  endif()
  message(STATUS "installed examples: built, and example_dot_product said: ${out}")
endif()
