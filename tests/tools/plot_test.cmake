# SPDX-License-Identifier: Apache-2.0
# tools/plot-bench.py turns a real portacl-bench --json run into a PNG.
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${BENCH}" --kernels axpy,dot,gemv --sizes 4099 --reps 2 --warmup 0 --no-latency
                        --no-transfers --gemm-sizes 67 --json
                OUTPUT_FILE "${WORK}/bench.json" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "portacl-bench --json failed (${rc}): ${err}")
endif()
file(REMOVE "${WORK}/roofline.png")
execute_process(COMMAND "${PYTHON}" "${SCRIPT}" "${WORK}/bench.json" "${WORK}/roofline.png"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc OR NOT EXISTS "${WORK}/roofline.png")
  message(FATAL_ERROR "plot-bench.py failed (${rc}): ${out}${err}")
endif()
file(READ "${WORK}/roofline.png" head LIMIT 8 HEX)
if(NOT head STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "plot-bench.py did not write a PNG (${head})")
endif()

# Without matplotlib the script says which package to install, not a bare ImportError.
file(MAKE_DIRECTORY "${WORK}/no-matplotlib/matplotlib")
file(WRITE "${WORK}/no-matplotlib/matplotlib/__init__.py" "raise ImportError('No module named matplotlib (simulated)')\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${WORK}/no-matplotlib" "${PYTHON}" "${SCRIPT}"
                        "${WORK}/bench.json" "${WORK}/unused.png" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "needs matplotlib.*python3-matplotlib" OR err MATCHES "Traceback")
  message(FATAL_ERROR "plot-bench.py without matplotlib (${rc}) did not name the package to install: ${out}${err}")
endif()
