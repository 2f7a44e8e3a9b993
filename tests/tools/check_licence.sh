#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source, kernel, build and script file says its licence in its first
# lines (SPDX), and LICENSE holds the Apache-2.0 text it refers to.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
grep -q "Apache License" LICENSE 2>/dev/null && grep -q "Version 2.0, January 2004" LICENSE ||
  { echo "LICENSE is missing or is not the Apache-2.0 text"; exit 1; }
missing=0
while IFS= read -r f; do
  if ! head -n 3 "$f" | grep -q "SPDX-License-Identifier: Apache-2.0"; then
    echo "no SPDX licence line in the first 3 lines: $f"
    missing=$((missing + 1))
  fi
done < <(find include src kernels tests tools examples .ci CMakeLists.txt -type f \
           \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cl' -o -name '*.cmake' -o -name '*.sh' -o -name '*.py' \
              -o -name '*.in' -o -name 'CMakeLists.txt' -o -path '.ci/run' \) 2>/dev/null | sort)
[ "$missing" = 0 ] || exit 1
echo "every file carries its SPDX line"
