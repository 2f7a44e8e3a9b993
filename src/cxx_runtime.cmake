# SPDX-License-Identifier: Apache-2.0
# A GCC whose libstdc++.so is missing (or a link to nowhere) links
# libstdc++.a into every shared library without a word. libportacl.so would
# then carry and export a C++ runtime of its own, and a process that loaded
# the system's first (Python does, through NumPy) mixes the two copies and
# crashes at its first stream output. Seen with a relocated GCC in /opt.
option(PORTACL_ALLOW_STATIC_LIBSTDCXX "Build even where libstdc++ would be linked into libportacl.so statically" OFF)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT PORTACL_ALLOW_STATIC_LIBSTDCXX)
  execute_process(COMMAND "${CMAKE_CXX_COMPILER}" -print-file-name=libstdc++.so OUTPUT_VARIABLE portacl_libstdcxx
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${portacl_libstdcxx}" OR NOT EXISTS "${portacl_libstdcxx}")
    message(FATAL_ERROR "${CMAKE_CXX_COMPILER} has no shared libstdc++ (-print-file-name=libstdc++.so gives "
                        "'${portacl_libstdcxx}', which does not lead to a file): it would link libstdc++.a into "
                        "libportacl.so, and a program that loads the system's libstdc++ too (Python) would crash. "
                        "Use a GCC whose libstdc++.so is installed (e.g. CXX=/usr/bin/g++), or "
                        "-DPORTACL_ALLOW_STATIC_LIBSTDCXX=ON for programs that load no other C++ runtime.")
  endif()
endif()
separate_arguments(portacl_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS} ${CMAKE_SHARED_LINKER_FLAGS}")
foreach(flag ${portacl_flags})
  if(flag STREQUAL "-static-libstdc++" AND NOT PORTACL_ALLOW_STATIC_LIBSTDCXX)
    message(FATAL_ERROR "-static-libstdc++ in the flags would put a C++ runtime of its own in libportacl.so, and "
                        "a program that loads the system's libstdc++ too (Python) would crash; "
                        "-DPORTACL_ALLOW_STATIC_LIBSTDCXX=ON if that is meant.")
  endif()
endforeach()
