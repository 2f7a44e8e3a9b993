# SPDX-License-Identifier: Apache-2.0
"""Sparse matrices kept on the device.

csr_matrix(A) uploads a scipy.sparse matrix once; the result, a
portacl.CsrMatrix, keeps its device copy, the structure's analysis, the
formats the products convert it to and their plans, so that every later
portacl.spmv(M, x), M @ x, portacl.cg(M, b) or portacl.bicgstab(M, b) skips
them. With x a portacl.Buffer, M @ x stays on the device as a Buffer."""
from . import _context
from ._portacl import CsrMatrix

__all__ = ["CsrMatrix", "csr_matrix"]


def csr_matrix(a, context=None):
    """A device copy of `a`, a scipy.sparse matrix (converted to CSR when it
    is in another format; float32 stays float32, anything else becomes
    float64), on `context` (else the default context)."""
    if hasattr(a, "tocsr") and getattr(a, "format", "csr") != "csr":
        a = a.tocsr()
    return CsrMatrix(_context(context), a)
