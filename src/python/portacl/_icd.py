# SPDX-License-Identifier: Apache-2.0
"""The OpenCL drivers the bundled ICD loader sees, for ``pip install
portacl[pocl]``.

The wheel carries its own ICD loader (libOpenCL), which finds drivers
through ``.icd`` files in ``/etc/OpenCL/vendors``, or in the directory
``OCL_ICD_VENDORS`` names. PyPI's ``pocl-binary-distribution`` (the
``pocl`` extra) installs a CPU driver, PoCL, beside pyopencl's loader
(``pyopencl/.libs``) where no ``.icd`` file names it. Where it is installed
and the user has not set ``OCL_ICD_VENDORS``, :func:`use_pip_pocl` writes a
vendors directory holding an ``.icd`` file for it and copies of the
system's own, under the user's cache directory, and points
``OCL_ICD_VENDORS`` there before the first OpenCL call, so both the
system's drivers and the pip one are found."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Optional

SYSTEM_VENDORS = Path("/etc/OpenCL/vendors")


def pip_pocl_library() -> Optional[Path]:
    """The driver pocl-binary-distribution installed, or None."""
    spec = importlib.util.find_spec("pocl_binary_distribution")
    if spec is None or not spec.origin:
        return None
    libs = sorted((Path(spec.origin).parent.parent / "pyopencl" / ".libs").glob("libpocl*.so*"))
    return libs[0] if libs else None


def vendors_directory() -> Path:
    """Where the combined .icd files are written: $XDG_CACHE_HOME (or
    ~/.cache)/portacl/icd."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "portacl" / "icd"


def use_pip_pocl(system_vendors: Path = SYSTEM_VENDORS) -> Optional[Path]:
    """Points OCL_ICD_VENDORS at a directory naming the pip PoCL beside the
    system's drivers; returns the directory, or None where there is no pip
    PoCL or OCL_ICD_VENDORS is the user's choice already."""
    if "OCL_ICD_VENDORS" in os.environ:
        return None
    library = pip_pocl_library()
    if library is None:
        return None
    directory = vendors_directory()
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("*.icd"):
        old.unlink()
    (directory / "portacl-pip-pocl.icd").write_text(str(library.resolve()) + "\n")
    if system_vendors.is_dir():
        for icd in sorted(system_vendors.glob("*.icd")):
            (directory / ("system-" + icd.name)).write_text(icd.read_text())
    os.environ["OCL_ICD_VENDORS"] = str(directory)
    return directory
