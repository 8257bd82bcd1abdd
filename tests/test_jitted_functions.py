"""CL119's helper for compiled functions (`rules._jitted`): which module-level functions a file
compiles with Numba, and which `@torch.jit.script` static methods its autograd Functions hold,
read from the file's own imports (each import form); the finding at a compiled call of one."""

import textwrap

import libcst as cst

from compilelint.rules._jitted import jitted_functions
from helpers import lint_snippet


def _found(source: str) -> frozenset[str]:
    return jitted_functions(cst.parse_module(textwrap.dedent(source))).numba


def _scripted(source: str) -> frozenset[tuple[str, str]]:
    return jitted_functions(cst.parse_module(textwrap.dedent(source))).scripted


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


def test_scripted_static_methods_of_autograd_functions():
    # each import form of Function and of script; a Function's subclass in the file; not a
    # plain class's, not a method without @staticmethod, not one scripted by another `script`
    assert _scripted("""
        import torch
        from torch.autograd import Function as F
        from torch.jit import script
        from mylib import script as my_script
        class A(torch.autograd.Function):
            @staticmethod
            @torch.jit.script
            def a(x): return x
            @torch.jit.script
            def not_static(x): return x
        class B(F):
            @staticmethod
            @script
            def b(x): return x
            @staticmethod
            @my_script
            def other(x): return x
        class C(B):
            @staticmethod
            @script
            def c(x): return x
        class Plain:
            @staticmethod
            @script
            def p(x): return x
    """) == {("A", "a"), ("B", "b"), ("C", "c")}


def test_a_compiled_call_through_the_function_class_is_reported(tmp_path):
    # through the Function class: reported; a module-level scripted function, and the eager
    # caller, are not (the corpus' cf_/clean_script_method_autograd_function_01 are Dynamo's word)
    findings = lint_snippet(tmp_path, """
        import torch
        from torch.jit import script
        @script
        def double(x):
            return x * 2
        class Act(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return Act._forward(x) + double(x)
            @staticmethod
            @script
            def _forward(x):
                return torch.relu(x)
            @staticmethod
            def backward(ctx, g):
                return g
        @torch.compile
        def step(x):
            return Act.apply(x)
        def eager(x):
            return Act._forward(x)
    """)
    assert [(f.line, f.code) for f in findings if f.code == "CL119"] == [(9, "CL119")]
