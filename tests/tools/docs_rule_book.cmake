# SPDX-License-Identifier: Apache-2.0
# The rule table in docs/mapping-rules.md must be what `portacl-query --rules` prints.
execute_process(COMMAND "${QUERY}" --rules OUTPUT_VARIABLE table RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "portacl-query --rules failed")
endif()
file(READ "${DOC}" doc)
string(FIND "${doc}" "${table}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "docs/mapping-rules.md is out of date: regenerate its table with `portacl-query --rules`")
endif()
