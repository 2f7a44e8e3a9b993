#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The public face, measured: the installed headers that portacl.hpp
# reaches (deprecated forwards not counted) and the declarations in them at
# namespace or class scope that Universal Ctags finds (functions and their
# prototypes, classes, structs, enums, typedefs and variables; data members
# and enumerators not counted), of which types (classes, structs, enums,
# typedefs).
#   count_public_api.sh ROOT GENERATED_INCLUDE   (e.g. . build/generated/include)
# Needs g++ and ctags (Debian: universal-ctags). Works on older trees too:
# `git archive REV include | tar -x -C DIR` and give DIR as ROOT.
set -eu
root=$1
generated=$(cd "$2" && pwd)
cd "$root"
headers=$(g++ -std=c++17 -M -MT x -I include -I "$generated" include/portacl/portacl.hpp |
  tr ' \\' '\n\n' | grep '^include/portacl/' | sort -u)
counted=$(for h in $headers; do
  if grep -q 'deprecated' "$h" && [ "$(grep -c . "$h")" -le 8 ]; then continue; fi
  echo "$h"
done)
echo "installed headers portacl.hpp reaches: $(wc -w <<<"$counted") (and the generated version.hpp)"
# shellcheck disable=SC2086 # one argument per header
ctags -x --c++-kinds=+p-m --language-force=c++ $counted | awk '{print $2}' | awk '
  $1 == "class" || $1 == "struct" || $1 == "enum" || $1 == "typedef" { types++ }
  $1 == "function" || $1 == "prototype" || $1 == "class" || $1 == "struct" || $1 == "enum" ||
    $1 == "typedef" || $1 == "variable" { declarations++ }
  END { print "public declarations: " declarations "; types: " types }'
