#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libportacl exports no bench or test scaffolding: the operations, case
# specs, bench cases and host-side timing live in the internal static
# library portacl_operations (CMakeLists.txt), hidden inside libportacl.
# Fails naming any such symbol the shared library exports, and checks that
# the three public doors into it (tune, prebuild, the tuned-plan check) are
# exported.
#   check_exports.sh LIBRARY
set -euo pipefail
library=$1
exports=$(nm -DC --defined-only "$library")
leaked=$(grep -E 'portacl::(operations|operation|bench_cases|parse_case|case_specs|time_kernel)\b|portacl::reference::' \
  <<< "$exports" || true)
if [ -n "$leaked" ]; then
  echo "libportacl exports bench or test code (it belongs in portacl_operations):"
  echo "$leaked"
  exit 1
fi
for door in 'portacl::tune(' 'portacl::prebuild(' 'portacl::tunable_operations' 'portacl::library_tuned_plan_check'; do
  grep -qF "$door" <<< "$exports" || { echo "libportacl does not export $door"; exit 1; }
done
echo "libportacl: $(wc -l <<< "$exports") exported symbols, no bench or test code among them"
