"""What the sparse walk (rules._sparse_flow) reads: which torch calls build, keep, join or need
a sparse tensor, and the small readers of syntax it asks (a target's name, the names a
statement binds, whether a test looks at sparsity)."""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.bindings import target_names
from compilelint.semantic.kinds import dotted, is_self_attribute
from compilelint.traverse import TRIVIA, children

BUILDERS = frozenset({
    "torch.sparse_coo_tensor", "torch.sparse_csr_tensor", "torch.sparse_csc_tensor", "torch.sparse_bsr_tensor",
    "torch.sparse_bsc_tensor", "torch.sparse_compressed_tensor", "torch.sparse.FloatTensor",
    "torch.sparse.DoubleTensor", "torch.sparse.LongTensor", "torch.sparse.IntTensor", "torch.sparse.HalfTensor",
    "torch.sparse.BoolTensor", "torch.sparse.ByteTensor", "torch.cuda.sparse.FloatTensor",
})
TO_SPARSE = frozenset({"to_sparse", "to_sparse_coo", "to_sparse_csr", "to_sparse_csc", "to_sparse_bsr", "to_sparse_bsc"})
KEEPS_SPARSE = frozenset({"to", "cuda", "cpu", "coalesce", "float", "double", "half", "detach", "clone", "t", "type"})
SPARSE_ONLY = frozenset({"_values", "_indices", "coalesce", "crow_indices", "col_indices", "ccol_indices",
                         "row_indices", "_nnz", "is_coalesced", "sparse_dim", "dense_dim"})
# torch's sparse products and reductions: the argument that must be sparse (CL119 reports the call)
OPERAND = {"torch.sparse.mm": 0, "torch.spmm": 0, "torch.smm": 0, "torch.hspmm": 0, "torch.sparse.sum": 0,
           "torch.sparse.softmax": 0, "torch.sparse.log_softmax": 0, "torch.sparse.addmm": 1, "torch.sspaddmm": 1}
# products and joins whose result is sparse when every operand is (measured: `torch.sparse.mm`
# of two sparse matrices, `torch.cat` of sparse ones; of a sparse and a dense one it is dense)
SPARSE_OF_SPARSE = frozenset({"torch.sparse.mm", "torch.mm", "torch.cat", "torch.stack", "torch.vstack"})
# builtins that do not look at the tensor (measured: `isinstance(adj, list)` and `hasattr(adj,
# "x")` do, GB0015 at the test, so a type test on a sparse parameter is its first use)
LOOKS_ONLY = frozenset({"id"})


def target_name(target) -> str | None:
    return target.value if isinstance(target, cst.Name) else None


def tests_sparsity(test) -> bool:
    """`if is_torch_sparse_tensor(adj):`, `if x.is_sparse:`, `if adj.layout == torch.sparse_csr:`."""
    stack = [test]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call) and node.args and "sparse" in (dotted(node.func) or "").rsplit(".", 1)[-1] \
                or isinstance(node, cst.Attribute) and node.attr.value in ("is_sparse", "is_sparse_csr", "layout"):
            return True  # (not a flag named for it: `if self.sparse_feature:` is the object's choice)
        stack.extend(children(node, TRIVIA))
    return False


def bound_names(small) -> set[str]:
    """The names an assignment statement binds (not an attribute or a subscript)."""
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else \
        [small.target] if isinstance(small, (cst.AnnAssign, cst.AugAssign)) else []
    return {name for target in targets for name in target_names(target)}


def has_holder(expr) -> bool:
    return isinstance(expr, cst.Name) or is_self_attribute(expr)


def as_list(value) -> list:
    if value is None or isinstance(value, (str, bool)):
        return []
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            if isinstance(v, (cst.Arg, cst.Element, cst.StarredElement)):
                out.append(v.value)
            elif isinstance(v, cst.ComparisonTarget):
                out.append(v.comparator)
            elif isinstance(v, cst.SubscriptElement):
                out.append(v.slice)
            elif isinstance(v, cst.CSTNode):
                out.append(v)
        return out
    if isinstance(value, cst.Index):
        return [value.value]
    if isinstance(value, cst.CSTNode) and isinstance(value, cst.BaseExpression):
        return [value]
    return []


def param_names(fn: cst.FunctionDef) -> list[str]:
    p = fn.params
    return [x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)]


def param_for(fn: cst.FunctionDef, arg: cst.Arg, index: int, qualname: str) -> str | None:
    names = param_names(fn)
    if "." in qualname and names and names[0] in ("self", "cls"):
        names = names[1:]
    if arg.keyword is not None:
        return arg.keyword.value if arg.keyword.value in names else None
    if arg.star:
        return None
    return names[index] if index < len(names) else None


def converts(call: cst.Call) -> bool:
    """`x.to_sparse_csr()`: a conversion, which breaks the graph where it is made (GB0277)."""
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in TO_SPARSE


NEGATED = {"training": "eval", "eval": "training"}
UNKNOWN = ("?",)  # a use by a callee of another file: reported, and no later use is


def negate(labels: tuple) -> tuple | None:
    """The one label that holds where `labels` does not, if there is one."""
    if len(labels) != 1:
        return None
    label = labels[0]
    if label in NEGATED:
        return (NEGATED[label],)
    for a, b in (("set:", "unset:"), ("unset:", "set:")):
        if label.startswith(a):
            return (b + label[len(a):],)
    return None
