#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The public face, counted: the installed headers are the core and one per
# family, at include/portacl/*.hpp, at most LIMIT of them (the generated
# version.hpp counted too). Anything under a folder of include/portacl/ is
# a deprecated forward of one release: exactly the five lines that name its
# new header and include it, and nothing installed includes a forward.
# Exit 1 listing every breach.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
limit=${2:-30}
cd "$root/include/portacl" || exit 1
breaches=0
headers=0
forwards=0
for h in *.hpp; do
  headers=$((headers + 1))
  while IFS= read -r target; do
    case "$target" in
      */*)
        echo "installed header includes a deprecated forward: $h includes portacl/$target"
        breaches=$((breaches + 1))
        ;;
    esac
  done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]portacl\/([^">]+)[">].*/\1/p' "$h")
done
headers=$((headers + 1))  # version.hpp, generated into the build tree and installed
while IFS= read -r f; do
  f=${f#./}
  forwards=$((forwards + 1))
  new=$(sed -nE 's/^#include "portacl\/([a-z_]+\.hpp)"$/\1/p' "$f")
  if [ -z "$new" ] || [ ! -f "$new" ] || [ "$(wc -l <"$f")" -ne 5 ] ||
    ! sed -n 2p "$f" | grep -q "^// Deprecated: moved to portacl/$new in 0.2.0; this forward is removed in 0.3.0.$" ||
    ! sed -n 4p "$f" | grep -q "^#pragma message(\"portacl/$f is deprecated: include portacl/$new\")$"; then
    echo "not a deprecated forward of five lines to a header of include/portacl/: $f"
    breaches=$((breaches + 1))
  fi
done < <(find . -mindepth 2 -name '*.hpp' | sort)
if [ "$headers" -gt "$limit" ]; then
  echo "$headers installed headers, more than $limit: fold the new one into its family's or the core's header"
  breaches=$((breaches + 1))
fi
echo "$headers installed headers (at most $limit), $forwards deprecated forwards: $breaches breach(es)"
[ "$breaches" -eq 0 ]
