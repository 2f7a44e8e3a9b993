# SPDX-License-Identifier: Apache-2.0
"""portacl from Python: contexts, device buffers from NumPy arrays, and the
library's kernels, with portacl's plans and errors."""
from ._portacl import (BuildError, Buffer, Context, Error, __version__, axpy, cg, dot, query, spmv, sum)

__all__ = ["BuildError", "Buffer", "Context", "Error", "__version__", "axpy", "cg", "dot", "query", "spmv", "sum"]
