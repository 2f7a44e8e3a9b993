# SPDX-License-Identifier: Apache-2.0
# portacl-tune as a user runs it: usage errors, a tiny tuning run that
# stores a result, fresh processes (portacl-query, portacl-bench) that use
# it and compute correct results, and export/import.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(DB "${WORK}/tuning.json")
function(run code)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PORTACL_TUNING_DB=${DB}" ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "${ARGN}: exit ${rc}, expected ${code}\n${out}${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

run(2 "${TUNE}")
if(NOT last_err MATCHES "--kernel NAME or --all")
  message(FATAL_ERROR "no hint what to tune: ${last_err}")
endif()
run(2 "${TUNE}" --kernel no_such_kernel)
if(NOT last_err MATCHES "no operation 'no_such_kernel'; there are: copy")
  message(FATAL_ERROR "unknown kernel not explained: ${last_err}")
endif()
run(2 "${TUNE}" --all --strategy sideways)
run(0 "${TUNE}" --list)
if(NOT last_out MATCHES "SCAN_BYTES")
  message(FATAL_ERROR "--list lacks the scan's knobs: ${last_out}")
endif()

run(0 "${TUNE}" --kernel sum,axpy --size 2^20 --budget 3 --reps 3 --warmup 1 --accept-noisy --json)
if(NOT last_out MATCHES "\"stored\": true")
  message(FATAL_ERROR "nothing stored: ${last_out}")
endif()
if(NOT EXISTS "${DB}")
  message(FATAL_ERROR "portacl-tune wrote no database at ${DB}")
endif()

# A fresh process plans with it and says where the plan came from.
run(0 "${QUERY}")
if(NOT last_out MATCHES "sum float, n=2\\^24: [^\n]*\\[tuning database ${DB} \\(tier 1, this device and driver; 2\\^20, nearest to 2\\^24")
  message(FATAL_ERROR "portacl-query does not show the tuned sum: ${last_out}")
endif()
# ... and computes correct results with it (portacl-bench exits 1 otherwise).
run(0 "${BENCH}" --kernels sum,axpy --sizes 65537 --reps 1 --warmup 0 --no-baseline --no-transfers)

# Export this device's records, import them into another database.
run(0 "${TUNE}" --export "${WORK}/shipped.json")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PORTACL_TUNING_DB=${WORK}/other.json" "${TUNE}"
                --import "${WORK}/shipped.json" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "imported 2 record")
  message(FATAL_ERROR "import failed (${rc}): ${out}${err}")
endif()
file(WRITE "${WORK}/garbage.json" "{ nope")
run(1 "${TUNE}" --import "${WORK}/garbage.json")
if(NOT last_err MATCHES "cannot import")
  message(FATAL_ERROR "bad import not explained: ${last_err}")
endif()
# A missing file says so (not "holds no tuning records").
run(1 "${TUNE}" --import "${WORK}/no-such-file.json")
if(NOT last_err MATCHES "cannot import: '${WORK}/no-such-file.json': No such file or directory")
  message(FATAL_ERROR "missing import file not explained: ${last_err}")
endif()
# A record naming a knob no kernel declares is skipped at import, by name.
file(READ "${WORK}/shipped.json" shipped)
# (An empty configuration, the rules' own plan winning, prints as {}.)
string(REPLACE "\"configuration\": {}" "\"configuration\": {\"WG_SIZE\": 4}" forged "${shipped}")
string(REPLACE "\"configuration\": {\n" "\"configuration\": {\"WG_SIZE\": 4,\n" forged "${forged}")
file(WRITE "${WORK}/forged.json" "${forged}")
run(1 "${TUNE}" --import "${WORK}/forged.json")
if(NOT last_err MATCHES "skipped: no kernel declares the knob\\(s\\) WG_SIZE")
  message(FATAL_ERROR "a forged knob was not refused at import: ${last_err}")
endif()
# A database that is a directory is refused before any measuring.
file(MAKE_DIRECTORY "${WORK}/dir.json")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PORTACL_TUNING_DB=${WORK}/dir.json" "${TUNE}" --kernel copy
                --size 2^10 --budget 2 RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "is not a regular file")
  message(FATAL_ERROR "a directory database was not refused: ${rc} ${err}")
endif()
# Shipped files are read after the user's own: the export alone serves.
file(MAKE_DIRECTORY "${WORK}/shipdir")
file(COPY "${WORK}/shipped.json" DESTINATION "${WORK}/shipdir")
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "PORTACL_TUNING_DB=${WORK}/none.json"
                "PORTACL_TUNING_PATH=${WORK}/shipdir" "${QUERY}" RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT out MATCHES "\\[tuning database ${WORK}/shipdir/shipped.json")
  message(FATAL_ERROR "a shipped database is not read: ${out}")
endif()

# Two tuning processes writing one database at once: both results survive.
set(SHARED "${WORK}/shared.json")
set(ARGS --size 2^14 --budget 4 --reps 2 --warmup 0 --accept-noisy)
string(REPLACE ";" " " ARGS "${ARGS}")
execute_process(
  COMMAND sh -c "export PORTACL_TUNING_DB='${SHARED}'; '${TUNE}' --kernel copy ${ARGS} & a=$!; \
                 '${TUNE}' --kernel fill ${ARGS}; b=$?; wait $a; echo \"codes $? $b\""
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT out MATCHES "codes 0 0")
  message(FATAL_ERROR "concurrent tuning runs failed: ${out}${err}")
endif()
file(READ "${SHARED}" shared)
if(NOT shared MATCHES "\"kernel\": \"copy\"" OR NOT shared MATCHES "\"kernel\": \"fill\"")
  message(FATAL_ERROR "a concurrent writer's result was lost: ${shared}")
endif()
