#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: set up (showing progress), build only what it runs, list the
# devices with what the runtime would choose for them, then a tour of the
# library on the default device (PORTACL_DEVICE or the first argument picks
# another): one checked, timed call per family against measured ceilings.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
PORTACL_BUILD_TARGETS="portacl-query portacl-demo" "$root/tools/setup.sh" build
echo
"$root/build/tools/portacl-query"
echo
"$root/build/tools/portacl-demo" "$@"
