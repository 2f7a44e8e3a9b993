#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what portacl needs from Debian's packages (only what is missing),
# then configures and builds into the given directory. Idempotent: a second
# run with nothing changed installs nothing and rebuilds nothing.
#   tools/setup.sh BUILD_DIR [extra cmake arguments...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-build}
shift || true

packages=(g++ cmake ninja-build pkg-config ocl-icd-opencl-dev opencl-clhpp-headers libclblast-dev catch2
          pocl-opencl-icd clinfo clang-format python3-matplotlib doxygen libviennacl-dev libboost-dev
          libopenmpi-dev openmpi-bin python3-dev pybind11-dev python3-numpy python3-scipy python3-pytest python3-mypy lintian
          python3-pyopencl libopenblas0-pthread libtbb-dev libfftw3-dev libclfft-dev libvkfft-dev)
# Callers add their own (the fuzzers: clang and its libFuzzer runtime).
read -r -a extra <<< "${PORTACL_EXTRA_PACKAGES:-}"
packages+=("${extra[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "portacl setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

case "$build_dir" in /*) ;; *) build_dir="$root/$build_dir" ;; esac
if [ ! -f "$build_dir/build.ninja" ] || [ $# -gt 0 ]; then
  echo "portacl setup: configuring $build_dir"
  cmake -S "$root" -B "$build_dir" -G Ninja "$@" >/dev/null
fi
# PORTACL_BUILD_TARGETS (space-separated) builds only those (the main job's).
read -r -a targets <<< "${PORTACL_BUILD_TARGETS:-}"
target_args=()
[ ${#targets[@]} -eq 0 ] || target_args=(--target "${targets[@]}")
if [ -t 1 ]; then
  cmake --build "$build_dir" "${target_args[@]}"  # ninja keeps one status line up to date
else
  # Not a terminal: a progress line every 10%, and anything that is not a
  # progress line (compiler errors) as it comes.
  cmake --build "$build_dir" "${target_args[@]}" | awk '
    /^\[[0-9]+\/[0-9]+\]/ { split(substr($1, 2), f, "/"); p = int(100 * f[1] / f[2]);
                             if (p >= next_p) { printf "portacl setup: building %d%% (%s)\n", p, substr($1, 2, length($1) - 2); fflush(); next_p = p + 10 } next }
    /^ninja: no work to do/ { print "portacl setup: up to date"; next }
    { print; fflush() }'
fi
