#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The layer rule, enforced: a file of src/<layer>/, or an installed header
# of a layer, may include headers of its own layer and the layers below it,
# never above. Layers, lowest first (docs/design.md), with their installed
# headers:
#   util (error.hpp, cl.hpp, version.hpp, json.hpp, element_type.hpp) < device (device.hpp)
#   < rules (plan.hpp) < programs (programs.hpp) < runtime (context.hpp,
#   buffer.hpp) < kernels (a header per family, group.hpp) < mpi (mpi.hpp,
#   libportacl_mpi) < tuning (tuning.hpp)
# The old paths (include/portacl/<layer>/...) are deprecated forwards.
# Internal headers (src/<layer>/..., included as "<layer>/...") count by
# their layer too, and an installed header (include/portacl/) may include
# only installed ones: a user's compiler has no src/. The umbrella headers
# (portacl.hpp, src/tooling.hpp) sit above them all and no library file
# includes them. Exit 1 listing every violation.
set -u
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
layers=(util device rules programs runtime kernels mpi tuning)
rank() {
  local i
  for i in "${!layers[@]}"; do [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }; done
  case "$1" in
    error.hpp | cl.hpp | version.hpp | json.hpp | element_type.hpp) echo 0 ;;
    device.hpp) echo 1 ;;
    plan.hpp) echo 2 ;;
    programs.hpp) echo 3 ;;
    context.hpp | buffer.hpp) echo 4 ;;
    group.hpp | vectors.hpp | blas.hpp | sparse.hpp | stencil.hpp | particles.hpp | ml.hpp | fft.hpp) echo 5 ;;
    mpi.hpp) echo 6 ;;
    tuning.hpp) echo 7 ;;
    portacl.hpp | tooling.hpp) echo 99 ;;
    *) echo -1 ;;
  esac
}
violations=0
checked=0
while IFS= read -r file; do
  rel=${file#"$root"/}
  case "$rel" in
    include/portacl/*/*) own=${rel#include/portacl/}; own=${own%%/*} ;;
    include/portacl/*.hpp) own=${rel#include/portacl/} ;;
    src/*/*) own=${rel#src/}; own=${own%%/*} ;;
    *) continue ;;
  esac
  own_rank=$(rank "$own")
  [ "$own_rank" -ge 0 ] || continue
  checked=$((checked + 1))
  while IFS= read -r line; do
    target=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/' <<<"$line")
    case "$target" in
      portacl/*/*) t=${target#portacl/}; layer=${t%%/*} ;;
      portacl/*) layer=${target#portacl/} ;;
      ../*) t=${target#../}; layer=${t%%/*} ;;
      */*)
        layer=${target%%/*}
        if [ "$(rank "$layer")" -ge 0 ] && [ "${rel#include/}" != "$rel" ]; then
          echo "installed header includes an internal one: $rel includes $target"
          violations=$((violations + 1))
        fi
        ;;
      *) continue ;;  # the file's own folder
    esac
    r=$(rank "$layer")
    [ "$r" -ge 0 ] || continue
    if [ "$r" -gt "$own_rank" ]; then
      echo "layer violation: $rel ($own) includes $target ($layer)"
      violations=$((violations + 1))
    fi
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file")
done < <(find "$root/include/portacl" "$root/src" -name '*.hpp' -o -name '*.cpp' | sort)
echo "checked $checked files of ${#layers[@]} layers: $violations violation(s)"
[ "$violations" -eq 0 ]
