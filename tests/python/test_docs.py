# SPDX-License-Identifier: Apache-2.0
"""Every public function of portacl, portacl.sparse and portacl.fft carries a numpydoc
docstring (Parameters where it takes any, Returns, Raises, Examples), and
every example runs and prints what its docstring says (doctest, on the
default device: PORTACL_DEVICE)."""
import doctest
import importlib.util
import inspect

import pytest

import portacl
import portacl.fft
import portacl.sparse


def _public_functions():
    for module in (portacl, portacl.sparse, portacl.fft):
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not inspect.isclass(obj):
                yield f"{module.__name__}.{name}", obj


FUNCTIONS = dict(_public_functions())


def _takes_parameters(f):
    try:
        return bool(inspect.signature(f).parameters)
    except ValueError:  # a compiled function: its docstring says
        return "Parameters\n" in (f.__doc__ or "")


def _docstring(f):
    """f's docstring, less the signature lines pybind11 puts first on a
    compiled function."""
    doc = inspect.cleandoc(f.__doc__ or "")
    if inspect.isbuiltin(f):
        while doc.startswith(f.__name__ + "("):
            doc = doc.split("\n", 1)[1].lstrip("\n") if "\n" in doc else ""
    return doc


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_public_function_has_numpydoc_sections(name):
    f = FUNCTIONS[name]
    doc = _docstring(f)
    sections = ["Returns", "Raises", "Examples"] + (["Parameters"] if _takes_parameters(f) else [])
    for section in sections:
        assert f"\n{section}\n{'-' * len(section)}\n" in doc, f"{name}: no '{section}' section"
    summary = doc.splitlines()[0] if doc else ""
    assert summary.endswith(".") and len(summary) <= 79, f"{name}: the summary line {summary!r}"


def _doctests():
    """Each public function's examples, as a doctest (compiled ones too,
    which a module-wide search passes over)."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    tests = {}
    for name, f in FUNCTIONS.items():
        found = [t for t in finder.find(f, name, module=False, globs={}) if t.examples]
        assert len(found) <= 1
        tests[name] = found[0] if found else None
    return tests


DOCTESTS = _doctests()


@pytest.mark.parametrize("name", sorted(DOCTESTS))
def test_docstring_examples_run(name):
    test = DOCTESTS[name]
    assert test is not None, f"{name}: no runnable example"
    if any("pyopencl" in e.source for e in test.examples) and importlib.util.find_spec("pyopencl") is None:
        pytest.skip("pyopencl is not installed")
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
