#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: set up, build, list the devices with what the runtime would
# choose for them, and run SAXPY/DAXPY on the default device (PORTACL_DEVICE
# or the first argument picks another).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/setup.sh" build >/dev/null
"$root/build/tools/portacl-query"
"$root/build/tools/portacl-demo" "$@"
