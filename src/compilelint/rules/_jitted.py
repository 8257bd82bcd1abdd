"""Functions a module compiles with Numba (CL119's helper): calling one from a region
calls a `CPUDispatcher` object, which Dynamo cannot trace (GB0156)."""

import libcst as cst

from compilelint.semantic.imports import top_level_imports
from compilelint.semantic.kinds import dotted

NUMBA_DECORATORS = frozenset({"jit", "njit", "vectorize", "guvectorize", "generated_jit", "cfunc"})


def numba_functions(module: cst.Module) -> frozenset[str]:
    """Names of the module-level functions decorated `@numba.jit(...)`, `@njit`, ... Read
    from the module's own top-level imports, not the walker's, so that the set is the same
    whichever statement the walk (or an incremental re-walk) starts from."""
    # local name -> what it is in numba ("" for the module)
    names = {local: "" if full == "numba" else full[len("numba."):]
             for local, full in top_level_imports(module).items() if full == "numba" or full.startswith("numba.")}
    found = set()
    for statement in module.body if names else ():
        if isinstance(statement, cst.FunctionDef) and any(_numba(d.decorator, names) for d in statement.decorators):
            found.add(statement.name.value)
    return frozenset(found)


def _numba(decorator: cst.BaseExpression, names: dict[str, str]) -> bool:
    target = dotted(decorator.func if isinstance(decorator, cst.Call) else decorator) or ""
    head, _, rest = target.partition(".")
    if head not in names:
        return False
    return (rest if names[head] == "" else names[head]) in NUMBA_DECORATORS and (names[head] == "" or not rest)
