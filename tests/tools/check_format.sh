#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The house style (.clang-format), enforced: every C++ file of include/,
# src/, tools/ and tests/ must be as clang-format leaves it. Formatting
# differs between clang-format versions, so the check runs with the one the
# tree is formatted with (Debian 12's, 14) and is skipped (exit 77) otherwise.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
want_major=14
command -v clang-format >/dev/null || { echo "clang-format not installed: skipped"; exit 77; }
major=$(clang-format --version | sed -E 's/.*version ([0-9]+).*/\1/')
[ "$major" = "$want_major" ] || { echo "clang-format $major, the tree is formatted with $want_major: skipped"; exit 77; }
cd "$root"
files=$(find include src tools tests examples \( -name '*.cpp' -o -name '*.hpp' \) | sort)
if ! clang-format --dry-run --Werror $files; then
  echo "not formatted: run  clang-format -i \$(find include src tools tests examples -name '*.cpp' -o -name '*.hpp')"
  exit 1
fi
echo "$(echo "$files" | wc -l) files formatted"
