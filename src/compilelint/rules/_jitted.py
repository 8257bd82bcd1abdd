"""Compiled functions CL119 finds calls of, read from the module's own top-level imports (not
the walker's, so that they are the same whichever statement the walk, or an incremental re-walk,
starts from):

- module-level functions Numba compiles: calling one calls a `CPUDispatcher` object, which
  Dynamo cannot trace (GB0156);
- `@torch.jit.script` static methods of an autograd Function, called through the class
  (pytorch_tabular's `Entmoid15._forward(input)`): read from a Function class, the method is a
  `torch.jit.ScriptFunction`, which Dynamo skips (GB0007, measured on 2.13.0 and 2.14.1). The
  same function at module level, or on a plain class, is traced."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from compilelint.semantic.kinds import AUTOGRAD_FUNCTIONS
from compilelint.semantic.imports import module_qualifier, top_level_imports
from compilelint.semantic.kinds import dotted

NUMBA_DECORATORS = frozenset({"jit", "njit", "vectorize", "guvectorize", "generated_jit", "cfunc"})


@dataclass(frozen=True)
class Jitted:
    numba: frozenset[str] = frozenset()  # module-level Numba functions
    scripted: frozenset[tuple[str, str]] = frozenset()  # (Function class, scripted static method)


def jitted_functions(module: cst.Module) -> Jitted:
    imports = top_level_imports(module)
    return Jitted(_numba_functions(module, imports), _script_methods(module, imports))


def jitted_call(jitted: Jitted, node: cst.Call, ctx) -> tuple[str, str, str] | None:
    """(what, why, help) for a call of one of `jitted`'s functions by its module-level name."""
    func = node.func
    if isinstance(func, cst.Name) and func.value in jitted.numba and not ctx.locally_bound(func.value):
        return (f"`{func.value}()`, a Numba-compiled function,",
                "Dynamo cannot trace Numba's dispatcher (GB0156) and breaks the graph",
                "Call it outside the compiled code, or write it with torch ops (Dynamo compiles those).")
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
            and (func.value.value, func.attr.value) in jitted.scripted and not ctx.locally_bound(func.value.value):
        return (f"`{func.value.value}.{func.attr.value}()`, a TorchScript function read from an autograd Function,",
                "Dynamo cannot trace the `torch.jit.ScriptFunction` it gets from the class (GB0007) and breaks "
                "the graph",
                "Define the scripted function at module level (Dynamo traces a scripted function it reads there) "
                "or drop `@torch.jit.script`.")
    return None


def _numba_functions(module: cst.Module, imports: dict[str, str]) -> frozenset[str]:
    """Names of the module-level functions decorated `@numba.jit(...)`, `@njit`, ..."""
    # local name -> what it is in numba ("" for the module)
    names = {local: "" if full == "numba" else full[len("numba."):]
             for local, full in imports.items() if full == "numba" or full.startswith("numba.")}
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


def _script_methods(module: cst.Module, imports: dict[str, str]) -> frozenset[tuple[str, str]]:
    """(class, method) for each `@staticmethod` `@torch.jit.script` method of a module-level
    class deriving (in the file) from an autograd Function."""
    classes = {s.name.value: s for s in module.body if isinstance(s, cst.ClassDef)}
    if not classes or not any(full.startswith("torch") for full in imports.values()):
        return frozenset()
    qualify = module_qualifier(module, imports)
    functions: set[str] = set()

    def is_function(name: str, depth: int = 0) -> bool:
        node = classes.get(name)
        if name in functions or node is None or depth > 8:
            return name in functions
        for arg in node.bases:
            base = dotted(arg.value) or ""
            if qualify(arg.value) in AUTOGRAD_FUNCTIONS or (base in classes and is_function(base, depth + 1)):
                functions.add(name)
                return True
        return False

    found = set()
    for name, node in classes.items():
        if not is_function(name):
            continue
        for statement in node.body.body:
            if isinstance(statement, cst.FunctionDef):
                decorators = {qualify(d.decorator) for d in statement.decorators}
                if {"builtins.staticmethod", "torch.jit.script"} <= decorators:
                    found.add((name, statement.name.value))
    return frozenset(found)
