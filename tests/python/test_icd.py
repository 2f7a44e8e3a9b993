# SPDX-License-Identifier: Apache-2.0
"""portacl[pocl]: where PyPI's pocl-binary-distribution is installed, the
bundled ICD loader is pointed at it beside the system's drivers, unless the
user chose OCL_ICD_VENDORS (portacl/_icd.py). A stand-in package and
driver file are made here; the real one is checked by hand (the wheel's
raw output under docs/bench)."""
import sys

import pytest

from portacl import _icd


@pytest.fixture
def pip_pocl(tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "pocl_binary_distribution").mkdir(parents=True)
    (site / "pocl_binary_distribution" / "__init__.py").write_text("")
    libs = site / "pyopencl" / ".libs"
    libs.mkdir(parents=True)
    driver = libs / "libpocl-0123abcd.so"
    driver.write_bytes(b"\x7fELF")
    system = tmp_path / "vendors"
    system.mkdir()
    (system / "nvidia.icd").write_text("libnvidia-opencl.so.1\n")
    (system / "notes.txt").write_text("not an icd")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "pocl_binary_distribution", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("OCL_ICD_VENDORS", raising=False)
    return driver, system


def test_the_pip_driver_is_named_beside_the_systems(pip_pocl, tmp_path):
    import os
    driver, system = pip_pocl
    assert _icd.pip_pocl_library() == driver
    made = _icd.use_pip_pocl(system)
    assert made == tmp_path / "cache" / "portacl" / "icd"
    assert os.environ["OCL_ICD_VENDORS"] == str(made)
    files = {p.name: p.read_text() for p in made.iterdir()}
    assert files == {"portacl-pip-pocl.icd": str(driver.resolve()) + "\n", "system-nvidia.icd": "libnvidia-opencl.so.1\n"}
    # A second import rewrites the directory: a driver gone from the system goes from it too.
    os.environ.pop("OCL_ICD_VENDORS")
    (system / "nvidia.icd").unlink()
    _icd.use_pip_pocl(system)
    assert sorted(p.name for p in made.iterdir()) == ["portacl-pip-pocl.icd"]


def test_the_users_choice_is_kept(pip_pocl, monkeypatch):
    import os
    monkeypatch.setenv("OCL_ICD_VENDORS", "/opt/my/vendors")
    assert _icd.use_pip_pocl(pip_pocl[1]) is None
    assert os.environ["OCL_ICD_VENDORS"] == "/opt/my/vendors"


def test_nothing_happens_without_the_pip_driver(tmp_path, monkeypatch):
    import os
    monkeypatch.delenv("OCL_ICD_VENDORS", raising=False)
    monkeypatch.setattr(_icd.importlib.util, "find_spec", lambda name: None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert _icd.use_pip_pocl(tmp_path) is None
    assert "OCL_ICD_VENDORS" not in os.environ
    assert not (tmp_path / "cache").exists()
