# SPDX-License-Identifier: Apache-2.0
# Sourced by the GPU scripts (gpu-run.sh, two-gpu-run.sh) on a machine lent
# through the device tool: NVIDIA's OpenCL registered beside PoCL, the
# Debian .debs of CLBlast, Catch2 and clinfo (.debs/, git-ignored) unpacked
# into /tmp/deps, and Debian's Open MPI from .debs/mpi/ where it is carried
# (OPAL_PREFIX relocates it). build_portacl builds into /tmp/build once
# (BUILD_TARGETS: only those targets; CMAKE_ARGS: more options for the first configure).
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT" /tmp/icd
cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null
echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
# The image names both drivers in OCL_ICD_FILENAMES, which mpirun passes on cut at its first colon
# (PoCL alone in every rank): MPI ranks start through rank_env, which sets it whole again.
rank_env="env OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-}"
deps=/tmp/deps
for f in .debs/*.deb; do dpkg -x "$f" "$deps"; done
export LD_LIBRARY_PATH="$deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
if ls .debs/mpi/*.deb > /dev/null 2>&1; then
  mpi=/tmp/mpi
  for f in .debs/mpi/*.deb; do dpkg -x "$f" "$mpi"; done
  export OPAL_PREFIX="$mpi/usr" PATH="$mpi/usr/bin:$PATH"
  export LD_LIBRARY_PATH="$mpi/usr/lib/x86_64-linux-gnu:$mpi/usr/lib/x86_64-linux-gnu/openmpi/lib:$LD_LIBRARY_PATH"
  # The host's own PMIx plugins are another version: quiet their complaint.
  export PMIX_MCA_pcompress_base_silence_warning=1 OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1
fi
# The image's CXX (/opt/gcc/bin/g++) has no shared libstdc++ (its libstdc++.so
# links to nothing), which CMake refuses (src/cxx_runtime.cmake): the
# system's GCC, the same version, instead.
export CXX=/usr/bin/g++ CC=/usr/bin/gcc
export PORTACL_CACHE_DIR=/tmp/portacl-cache
# The build tree's library directory: the multiarch one on Debian and Ubuntu.
libdir=/tmp/build/lib/$(gcc -print-multiarch 2>/dev/null)
has() { [[ " $STEPS " == *" $1 "* ]]; }
build_portacl() {
  if [ ! -f /tmp/build/build.ninja ]; then
    cmake -S . -B /tmp/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$deps/usr" \
      -DCMAKE_INCLUDE_PATH="$deps/usr/include" ${CMAKE_ARGS:-} > "$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
  fi
  # BUILD_TARGETS (default all) may name fewer, e.g. portacl_tests when device time is short.
  ninja -C /tmp/build ${BUILD_TARGETS:-} >> "$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
}
