#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Plans are made whole by the rules layer (docs/design.md): kernel host code
# under src/kernels/ checks its input, plans, prepares and launches; it
# never writes a plan's macros, grid, local size, local-memory use or
# vector width. A family's chooser in src/rules/ does. Fails listing every
# line that writes one (there are none; 223 on 2026-11-28 before the
# choosers made the plans whole).
#   check_plan_writes.sh ROOT
set -u
root=$1
# A plan's fields written: macros by index, insert, emplace or erase; the
# grid (global, local, work_groups, items_per_work_item, a dimension of
# global or local); use_local_memory and vector_width.
pattern='\.macros(\[|\.(insert|emplace|erase|clear)\()|\.(global|local|work_groups|items_per_work_item|use_local_memory|vector_width)\s*=[^=]|\.(global|local)\[[0-9]\]\s*=[^=]'
cd "$root"
total=0
while IFS= read -r file; do
  lines=$(grep -c -E "$pattern" "$file")
  [ "$lines" -eq 0 ] && continue
  total=$((total + lines))
  echo "$file: $lines lines write a plan's macros, grid, local size or build;"
  echo "  let the family's chooser in src/rules/ make the plan whole, and the kernel code carry it out"
  grep -n -E "$pattern" "$file" | sed 's/^/    /'
done < <(git ls-files 'src/kernels/*' 2>/dev/null || find src/kernels -type f)
if [ "$total" -ne 0 ]; then
  echo "src/kernels: $total plan writes; none is allowed"
  exit 1
fi
echo "src/kernels: no plan writes"
