"""The knowledge table's list of NumPy functions Dynamo refuses is what the installed torch's
`torch._numpy` lacks: no name it implements is reported, none it lacks is missed (file I/O
is CL117's row), and each listed name is a NumPy function."""

import pytest

from compilelint.knowledge import ENTRIES, NUMPY_LINALG_UNSUPPORTED, NUMPY_LISTED_WITH, NUMPY_UNSUPPORTED

np = pytest.importorskip("numpy")
tnp = pytest.importorskip("torch._numpy")


def _lacking(mod, traced) -> set[str]:
    have = set(dir(traced))
    return {name for name in dir(mod) if not name.startswith("_") and name not in have
            and callable(getattr(mod, name)) and not isinstance(getattr(mod, name), type)
            and type(getattr(mod, name)).__name__ in ("function", "_ArrayFunctionDispatcher",
                                                      "builtin_function_or_method", "ufunc")}


def _other_rows(prefix: str) -> set[str]:
    row = next(e for e in ENTRIES if "numpy.interp" in e.names)
    return {n[len(prefix):] for e in ENTRIES if e is not row for n in e.names
            if n.startswith(prefix) and "." not in n[len(prefix):]}


@pytest.mark.parametrize("listed, mod, traced, prefix", [
    (NUMPY_UNSUPPORTED, "numpy", "torch._numpy", "numpy."),
    (NUMPY_LINALG_UNSUPPORTED, "numpy.linalg", "torch._numpy.linalg", "numpy.linalg."),
])
def test_the_list_is_what_torch_numpy_lacks(listed, mod, traced, prefix):
    import importlib

    module, traced_module = importlib.import_module(mod), importlib.import_module(traced)
    implemented = {name for name in listed if hasattr(traced_module, name)}
    assert not implemented, f"torch._numpy implements these now: drop them from the list: {sorted(implemented)}"
    if not np.__version__.startswith(NUMPY_LISTED_WITH + "."):
        pytest.skip(f"the lists were made against NumPy {NUMPY_LISTED_WITH}: newer names are not listed yet")
    lacking = _lacking(module, traced_module) - _other_rows(prefix)
    assert not lacking - set(listed), f"add to the list (torch._numpy lacks them): {sorted(lacking - set(listed))}"
