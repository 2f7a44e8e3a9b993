# SPDX-License-Identifier: Apache-2.0
"""The compiled module's stub (portacl/_portacl.pyi) against the module.

mypy's stubtest (ctest python.stubs) sees which names exist, but not a
pybind11 function's parameters: pybind11 writes them only into the
docstring's first line (or one line an overload). Here every function and
method of the stub is compared with those lines: the same overloads, the
same parameters in the same order."""
import ast
import inspect
import os
import re

import pytest

import portacl
from portacl import _portacl

STUB = os.path.join(os.path.dirname(portacl.__file__), "_portacl.pyi")


def stub_signatures():
    """{qualified name: [parameter names of each overload]} from the stub."""
    tree = ast.parse(open(STUB).read())
    found = {}

    def visit(body, prefix):
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, prefix + node.name + ".")
            elif isinstance(node, ast.FunctionDef):
                if any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list):
                    continue  # a property: pybind11 prints its getter with one unnamed argument
                names = [a.arg for a in node.args.args]
                names += ["*" + node.args.vararg.arg] if node.args.vararg else []
                names += ["**" + node.args.kwarg.arg] if node.args.kwarg else []
                found.setdefault(prefix + node.name, []).append(names)

    visit(tree.body, "")
    return found


def runtime_signatures(obj, name):
    """The parameter names of each overload, from pybind11's docstring (a
    function written in Python: its own signature). A class that binds no
    constructor has pybind11's, which takes anything."""
    if inspect.isfunction(obj):
        return [list(inspect.signature(obj).parameters)]
    if name == "__init__" and (obj.__doc__ or "").startswith("Initialize self."):
        return [["self", "*args", "**kwargs"]]
    doc = obj.__doc__ or ""
    lines = re.findall(r"^(?:\d+\. )?" + re.escape(name) + r"\((.*)\) ->", doc, re.MULTILINE)
    lines = [l for l in lines if l != "*args, **kwargs"]
    return [[p.split(":")[0].strip() for p in split_parameters(l)] for l in lines]


def split_parameters(text):
    """Splits at the commas outside brackets (a default may hold a list)."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    if text.strip():
        out.append(text[start:])
    return out


SIGNATURES = stub_signatures()


@pytest.mark.parametrize("qualified", sorted(SIGNATURES))
def test_stub_parameters_match_the_module(qualified):
    *owner, name = qualified.split(".")
    obj = _portacl
    for part in owner:
        obj = getattr(obj, part)
    runtime = runtime_signatures(getattr(obj, name), name)
    assert runtime, f"{qualified}: no signature in its docstring"
    stub = SIGNATURES[qualified]
    assert stub == runtime, f"{qualified}: the stub says {stub}, the module {runtime}"


def test_the_check_sees_a_wrong_stub():
    """The comparison fails on a stub that drops a parameter."""
    wrong = [["arg0"]]
    assert wrong != runtime_signatures(_portacl.sort, "sort")
