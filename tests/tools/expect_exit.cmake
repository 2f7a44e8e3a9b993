# SPDX-License-Identifier: Apache-2.0
# expect_exit(CODE COMMAND ARGS...): runs the command, fails the script
# unless it exits with CODE, and leaves its output in last_out / last_err
# for the caller's checks.
function(expect_exit code)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL code)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "${shown}: exit ${rc}, expected ${code}\n${out}${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
endfunction()
