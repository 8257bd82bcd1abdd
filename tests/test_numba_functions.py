"""CL119's Numba helper: which module-level functions a file compiles with Numba, read from
the file's own imports (each import form), and the finding at a compiled call of one."""

import textwrap

import libcst as cst

from compilelint.rules._jitted import numba_functions
from helpers import lint_snippet


def _found(source: str) -> frozenset[str]:
    return numba_functions(cst.parse_module(textwrap.dedent(source)))


def test_each_import_form_names_the_decorator():
    assert _found("""
        import numba
        import numba as nb
        from numba import njit, jit as fast
        @numba.jit(nopython=True)
        def a(x): return x
        @nb.njit
        def b(x): return x
        @njit(cache=True)
        def c(x): return x
        @fast
        def d(x): return x
        @nb.prange
        def e(x): return x
        def f(x): return x
    """) == {"a", "b", "c", "d"}


def test_no_numba_import_no_numba_functions():
    # a local `jit` decorator (torch.jit, a project's own) is not Numba's
    assert _found("""
        from torch import jit
        @jit.script
        def a(x): return x
        def jit_like(fn): return fn
        @jit_like
        def b(x): return x
    """) == frozenset()


def test_a_compiled_call_of_a_numba_function_is_reported(tmp_path):
    findings = lint_snippet(tmp_path, """
        import numba
        import torch
        @numba.njit
        def dtw(cost):
            return cost * 2.0
        @torch.compile
        def align(x):
            return torch.from_numpy(dtw(x.numpy()))
        def eager(x):
            return dtw(x.numpy())
    """)
    assert [(f.line, f.code) for f in findings if f.code == "CL119"] == [(8, "CL119")]
