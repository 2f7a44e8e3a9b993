#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The public API's undocumented members, as doxygen counts them
# (WARN_IF_UNDOCUMENTED on, EXTRACT_ALL off) over the installed headers,
# from a copy of the build's Doxyfile. A ratchet: fails when the count
# rises above the number in tests/tools/undocumented_allowed.txt, which goes
# down as members get their comments, to 0. Exit 77 (skipped) without doxygen.
set -u
build=$1
allowed_file=$2
command -v doxygen >/dev/null || { echo 'doxygen not installed: skipped'; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e 's/^WARN_IF_UNDOCUMENTED .*/WARN_IF_UNDOCUMENTED = YES/' -e 's/^EXTRACT_ALL .*/EXTRACT_ALL = NO/' \
  -e "s#^OUTPUT_DIRECTORY .*#OUTPUT_DIRECTORY = $work#" -e "s#^WARN_LOGFILE .*#WARN_LOGFILE = $work/warnings.txt#" \
  -e 's/^GENERATE_HTML .*/GENERATE_HTML = NO/' "$build/Doxyfile" > "$work/Doxyfile"
(cd "$work" && doxygen Doxyfile > /dev/null 2>&1) || { echo "doxygen failed"; exit 1; }
count=$(grep "is not documented" "$work/warnings.txt" | sort -u | wc -l)
allowed=$(tr -d '[:space:]' < "$allowed_file")
echo "$count undocumented public members (at most $allowed allowed)"
if [ "$count" -gt "$allowed" ]; then
  grep "is not documented" "$work/warnings.txt" | sort -u | head -60
  exit 1
fi
