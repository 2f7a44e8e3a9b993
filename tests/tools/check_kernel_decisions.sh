#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device-dependent choices belong to the rules layer (docs/design.md): a
# file under src/kernels/ neither tests a DeviceClass (DeviceClass::...,
# gpu_class(...)) nor names a rule id of the rule book in a string. The
# files that still do, pending their move to src/rules/, are listed in
# kernel_decisions_allowed.txt with the lines they hold; the check fails
# on a file not listed or on more lines than listed (a ratchet: lower a
# count, or drop the file, when a family moves its choices out).
#   check_kernel_decisions.sh ROOT PORTACL_QUERY
set -u
root=$1
query=$2
allowed="$root/tests/tools/kernel_decisions_allowed.txt"
ids=$(mktemp)
trap 'rm -f "$ids"' EXIT
"$query" --rules | sed -n 's/^| `\([^`]*\)`.*/"\1"/p' > "$ids"
[ -s "$ids" ] || { echo "no rule ids from $query --rules"; exit 1; }
failed=0
checked=0
cd "$root"
while IFS= read -r file; do
  checked=$((checked + 1))
  class_lines=$(grep -c -E 'DeviceClass::|gpu_class\(' "$file")
  id_lines=$(grep -c -F -f "$ids" "$file")
  [ "$class_lines" -eq 0 ] && [ "$id_lines" -eq 0 ] && continue
  read -r _ max_ids max_class < <(grep -E "^$file " "$allowed" || echo "- 0 0")
  if [ "$id_lines" -gt "$max_ids" ] || [ "$class_lines" -gt "$max_class" ]; then
    echo "$file: $id_lines lines name rule ids and $class_lines test a device class (allowed: $max_ids and $max_class);"
    echo "  move the choice into src/rules/ (a chooser like choose_spmv_method) and let the kernel code carry it out"
    grep -n -E 'DeviceClass::|gpu_class\(' "$file" | sed 's/^/    /'
    grep -n -F -f "$ids" "$file" | sed 's/^/    /'
    failed=1
  fi
done < <(git ls-files 'src/kernels/*' 2>/dev/null || find src/kernels -type f)
[ "$checked" -gt 0 ] || { echo "no files under src/kernels"; exit 1; }
[ "$failed" -eq 0 ] && echo "$checked files under src/kernels checked"
exit "$failed"
