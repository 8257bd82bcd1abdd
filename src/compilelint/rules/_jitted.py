"""Functions a module compiles with Numba (CL119's helper): calling one from a region
calls a `CPUDispatcher` object, which Dynamo cannot trace (GB0156)."""

import libcst as cst

NUMBA_DECORATORS = frozenset({"numba.jit", "numba.njit", "numba.vectorize", "numba.guvectorize",
                              "numba.generated_jit", "numba.cfunc"})


def numba_functions(module: cst.Module | None, qualify) -> frozenset[str]:
    """Names of the module-level functions decorated `@numba.jit(...)`, `@njit`, ...
    (`qualify`: the semantic model's name resolution)."""
    found = set()
    for statement in module.body if module is not None else ():
        if isinstance(statement, cst.FunctionDef):
            for decorator in statement.decorators:
                target = decorator.decorator
                target = target.func if isinstance(target, cst.Call) else target
                if (qualify(target) or "") in NUMBA_DECORATORS:
                    found.add(statement.name.value)
    return frozenset(found)
