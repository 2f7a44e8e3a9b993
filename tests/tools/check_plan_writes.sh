#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Plans are made whole by the rules layer (docs/design.md): kernel host code
# under src/kernels/ checks its input, plans, prepares and launches; it does
# not write a plan's macros, grid or local size. The files that still do,
# pending their family's chooser, are listed in plan_writes_allowed.txt
# with the lines they hold; the check fails on a file not listed or on more
# lines than listed (a ratchet: lower a count, or drop the file, when a
# family's plan moves to src/rules/; the goal is none).
#   check_plan_writes.sh ROOT
set -u
root=$1
allowed="$root/tests/tools/plan_writes_allowed.txt"
pattern='\.macros\[|\.(global|local|work_groups|items_per_work_item)\s*=[^=]|\.(global|local)\[[0-9]\]\s*=[^=]'
cd "$root"
failed=0
total=0
while IFS= read -r file; do
  lines=$(grep -c -E "$pattern" "$file")
  [ "$lines" -eq 0 ] && continue
  total=$((total + lines))
  read -r _ most < <(grep -E "^$file " "$allowed" || echo "- 0")
  if [ "$lines" -gt "$most" ]; then
    echo "$file: $lines lines write a plan's macros, grid or local size (allowed: $most);"
    echo "  let the family's chooser in src/rules/ make the plan whole, and the kernel code carry it out"
    grep -n -E "$pattern" "$file" | sed 's/^/    /'
    failed=1
  fi
done < <(git ls-files 'src/kernels/*' 2>/dev/null || find src/kernels -type f)
[ "$failed" -eq 0 ] && echo "src/kernels: $total plan writes, none beyond $allowed"
exit "$failed"
