"""The elements of a tensor a `for` loop walks, for CL107: `for idx in perm:` and `for i, n
in enumerate(lengths):` bind, per step, a tensor of one dimension less than what they walk (a
0-d one of a 1-d tensor), which as an index Dynamo reads as an int. The linter knows no ranks,
so only a name or attribute certainly holding a tensor counts, or a call that always makes a
1-d one (`torch.arange(n)`), not one bound to a matrix of indices (`.nonzero()`: its rows index,
a gather), nor a loop whose body indexes into the element (`expert_idx[0]`: it has a
dimension), and the loop's name must be bound nowhere else. The rows of a matrix whose rank
its maker fixes (`torch.cartesian_prod(a, b)`, `x.nonzero()`) are 1-d: their elements,
`index[0]`, are 0-d.
A list a comprehension builds of a tensor's elements (`[h * w for h, w in image_sizes]`) holds
tensors, which given as sizes are read one by one whatever their rank (`element_list`).
"""

from __future__ import annotations

import libcst as cst

from compilelint.semantic.facts import facts_of
from compilelint.semantic.iteration import walked
from compilelint.semantic.kinds import DATA_TENSORS, Kind, legacy_tensor
from compilelint.traverse import iter_nodes

ROW_MAKERS = frozenset({"nonzero", "argwhere"})  # a matrix of indices: a loop walks its rows
# what always makes a 1-d tensor of indices (`for i in torch.arange(n)`: 0-d elements), and a
# static-shaped matrix of them, (k, 2) or wider, whose rows' elements are 0-d (`for index in
# torch.cartesian_prod(a, b)`: `index[0]`, openunmix's and demucs' Wiener covariance)
VECTOR_MAKERS = frozenset({"torch.arange", "torch.randperm"})
MATRIX_MAKERS = frozenset({"torch.cartesian_prod"})  # (`torch.combinations` itself breaks: CL120)
ROW_ITERATORS = frozenset({"itertools.permutations", "itertools.combinations", "itertools.product",
                           "itertools.combinations_with_replacement", "builtins.zip"})


class LoopRows:
    """Enter and leave each `for` (and comprehension) of the walk; `element_index(node)`: why
    an index is an element a loop around it binds; `range_bound(name)`: the source of `n` for a
    name a loop around the node binds over `range(n)`."""

    def __init__(self) -> None:
        self._rows: dict[str, tuple[str, cst.For]] = {}
        self._matrix_rows: dict[str, tuple[str, cst.For]] = {}  # a row of a static matrix of indices
        self._ranges: list[tuple[str, str, cst.CSTNode]] = []  # (name, `n` of its `range(n)`, the loop)

    def enter(self, node: cst.For, ctx) -> None:
        iterable, target = walked(node, ctx.qualify)
        facts = facts_of(ctx.function)
        once = isinstance(target, cst.Name) and facts is not None and len(facts.binders(target.value)) == 1
        if once and _static_matrix(iterable, ctx):
            self._matrix_rows[target.value] = (cst.Module([]).code_for_node(iterable), node)
        elif once and (_walks_tensor(iterable, ctx) or _made_by(iterable, ctx, VECTOR_MAKERS)) \
                and not _matrix(iterable, ctx) and not _subscripted(node.body, target.value):
            self._rows[target.value] = (cst.Module([]).code_for_node(iterable), node)
        self._enter_range(node.target, node.iter, node, ctx)

    def enter_comprehension(self, node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp, ctx) -> None:
        comp = node.for_in  # (entered with the comprehension: its element is walked before its `for`)
        element = (node.key, node.value) if isinstance(node, cst.DictComp) else (node.elt,)
        while comp is not None:
            self._enter_range(comp.target, comp.iter, node, ctx)
            # `[perms[m] for m in best]` walks `best` as a `for` would (asteroid's PIT reordering;
            # `for i, l in enumerate(lengths)`, torch-struct's CKY)
            iterable, target = walked(comp, ctx.qualify)
            if comp is node.for_in and isinstance(target, cst.Name) and _walks_tensor(iterable, ctx) \
                    and not _matrix(iterable, ctx) and not any(_subscripted(part, target.value) for part in element):
                self._rows[target.value] = (cst.Module([]).code_for_node(iterable), node)
            comp = comp.inner_for_in

    def _enter_range(self, target: cst.BaseExpression, iterable: cst.BaseExpression, loop: cst.CSTNode, ctx) -> None:
        if isinstance(target, cst.Name) and isinstance(iterable, cst.Call) and len(iterable.args) == 1 \
                and iterable.args[0].keyword is None and ctx.qualify(iterable.func) == "builtins.range":
            self._ranges.append((target.value, cst.Module([]).code_for_node(iterable.args[0].value), loop))

    def leave(self, node: cst.CSTNode) -> None:
        for rows in (self._rows, self._matrix_rows):
            for name in [name for name, (_, loop) in rows.items() if loop is node]:
                del rows[name]
        self._ranges = [entry for entry in self._ranges if entry[2] is not node]

    def range_bound(self, name: str) -> str | None:
        return next((bound for bound_name, bound, _ in reversed(self._ranges) if bound_name == name), None)

    def element_index(self, node: cst.BaseExpression) -> str | None:
        """What makes `node`, an index, a 0-d tensor a loop binds: an element of the tensor the
        loop walks (`idx`), or an element of a row of a static matrix of indices (`index[0]`)."""
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Add, cst.Subtract)) \
                and isinstance(node.right, cst.Integer):  # `l - 1`
            node = node.left
        if isinstance(node, cst.Name) and (found := self._rows.get(node.value)):
            return f"an index (`{node.value}`, an element of the tensor `{found[0]}` the loop walks)"
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and len(node.slice) == 1 \
                and isinstance(node.slice[0].slice, cst.Index) and isinstance(node.slice[0].slice.value, cst.Integer) \
                and (found := self._matrix_rows.get(node.value.value)):
            return (f"an index (`{cst.Module([]).code_for_node(node)}`, an element of a row of `{found[0]}` "
                    "the loop walks)")
        return None

    def topk_pick(self, value: cst.Subscript, ctx) -> bool:
        """`index[i]` for `i` in `range(top_k)` with `index = torch.topk(v, top_k, dim=-1)[1]`
        (Autoformer's time-delay aggregation): a loop over the k picks walks the picks of a
        1-d `v`, each a 0-d tensor."""
        picks = [e.slice.value for e in value.slice if isinstance(e.slice, cst.Index)]
        if len(value.slice) != 1 or len(picks) != 1 or not isinstance(picks[0], cst.Name) \
                or not isinstance(value.value, cst.Name) or ctx.function is None:
            return False
        bound, made = self.range_bound(picks[0].value), ctx.local_flag(value.value.value)
        if bound is None or not (isinstance(made, cst.Subscript) and len(made.slice) == 1
                                 and isinstance(made.slice[0].slice, cst.Index)
                                 and isinstance(made.slice[0].slice.value, cst.Integer)
                                 and made.slice[0].slice.value.value == "1" and isinstance(made.value, cst.Call)):
            return False
        call = made.value
        method = isinstance(call.func, cst.Attribute) and call.func.attr.value == "topk" \
            and not (isinstance(call.func.value, cst.Name) and ctx.is_import(call.func.value.value))
        if not method and ctx.qualify(call.func) != "torch.topk":
            return False
        positional = [a.value for a in call.args if a.keyword is None]
        k = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "k"), None)
        k = k if k is not None else (positional[0] if method and positional else positional[1] if len(positional) > 1
                                     else None)
        return k is not None and cst.Module([]).code_for_node(k) == bound


def _matrix(iterable: cst.BaseExpression, ctx) -> bool:
    """A name bound to a matrix of indices (`(mask.sum(-1) > 0).nonzero()`, (k, 1): transformers'
    MoE `for expert_idx in expert_hit`), or to a tensor made of Python rows (`torch.tensor(list(
    permutations(range(n))))`, asteroid's PIT: `est[:, perm]` gathers with each row)."""
    bound = ctx.local_flag(iterable.value) if isinstance(iterable, cst.Name) else None
    func = bound.func if isinstance(bound, cst.Call) else None
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
    made = bound if isinstance(bound, cst.Call) and bound.args else None
    return name in ROW_MAKERS or made is not None and _rows_of(made.args[0].value, ctx) \
        and ((maker := ctx.qualify(made.func) or "") in DATA_TENSORS or legacy_tensor(maker))


def _rows_of(value: cst.BaseExpression, ctx) -> bool:
    """`[[0, 1], [1, 0]]`, `list(permutations(...))`, `list(product(...))`: Python rows."""
    if isinstance(value, (cst.List, cst.Tuple)):
        return bool(value.elements) and all(isinstance(e.value, (cst.List, cst.Tuple)) for e in value.elements)
    if isinstance(value, cst.Call) and ctx.qualify(value.func) in ("builtins.list", "builtins.tuple") and value.args:
        value = value.args[0].value
    return isinstance(value, cst.Call) and ctx.qualify(value.func) in ROW_ITERATORS


def _bound_call(value: cst.BaseExpression, ctx) -> cst.Call | None:
    """The call `value` is, or that the name `value` is bound to (once)."""
    if isinstance(value, cst.Name) and ctx.function is not None:
        value = ctx.local_flag(value.value)
    return value if isinstance(value, cst.Call) else None


def _made_by(value: cst.BaseExpression, ctx, makers: frozenset[str]) -> cst.Call | None:
    """The call of one of `makers` that `value` is, or that the name `value` is bound to."""
    call = _bound_call(value, ctx)
    return call if call is not None and ctx.qualify(call.func) in makers else None


def _static_matrix(value: cst.BaseExpression, ctx) -> bool:
    """`torch.cartesian_prod(a, b)`, of two tensors or more: a (k, n) matrix of indices whose
    shape the inputs' shapes fix (its rows are 1-d: used whole, they index as tensors); and
    `x.nonzero()` / `torch.argwhere(x)`, an (n, x.dim()) matrix whatever `x` is (pykt's SKVMN
    walks `(values >= 0).nonzero()` and indexes with `row[0], row[1]`)."""
    call = _bound_call(value, ctx)
    if call is None:
        return False
    if ctx.qualify(call.func) in MATRIX_MAKERS:
        return len(call.args) >= 2 and not any(a.star for a in call.args)
    if any(a.keyword is not None and a.keyword.value == "as_tuple" for a in call.args):
        return False
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in ROW_MAKERS \
            and not (isinstance(call.func.value, cst.Name) and ctx.is_import(call.func.value.value)):
        return True  # (a method: `np.nonzero(x)` is no tensor's)
    return ctx.qualify(call.func) in ("torch.nonzero", "torch.argwhere")


def _subscripted(body: cst.CSTNode, name: str) -> bool:
    """The loop body indexes into `name` (`expert_idx[0]`): an element that has a dimension."""
    return any(isinstance(n, cst.Subscript) and isinstance(n.value, cst.Name) and n.value.value == name
               for n in iter_nodes(body))


def element_list(value: cst.BaseExpression, ctx) -> bool:
    """`tokens = [h * w for h, w in image_sizes]`, bound once, `image_sizes` a tensor: a list of
    what it walks, or of sums, products and picks of them, each a tensor (transformers' VLM patch
    mergers: `torch.split(features, tokens)`); given as sizes, Python reads each one."""
    made = ctx.local_flag(value.value) if isinstance(value, cst.Name) and ctx.function is not None else None
    if not isinstance(made, (cst.ListComp, cst.GeneratorExp)) or made.for_in.inner_for_in is not None:
        return False
    names = {n.value for n in iter_nodes(made.for_in.target) if isinstance(n, cst.Name)}
    return (_walks_tensor(made.for_in.iter, ctx) or _walks_pairs(made.for_in, ctx)) and _built_from(made.elt, names)


def _walks_tensor(iterable: cst.BaseExpression, ctx) -> bool:
    """A name or attribute certainly holding a tensor (the only iterables whose elements count),
    also as its author casts it (`cast(torch.LongTensor, permutation)`: flowtorch's inverse)."""
    if isinstance(iterable, cst.Call) and ctx.qualify(iterable.func) == "typing.cast" and len(iterable.args) == 2 \
            and isinstance(iterable.args[1].value, (cst.Name, cst.Attribute)):
        return ctx.kind(iterable) == Kind.TENSOR  # (what the cast names: a tensor)
    return isinstance(iterable, (cst.Name, cst.Attribute)) and ctx.kind(iterable) == Kind.TENSOR


def _walks_pairs(comp: cst.CompFor, ctx) -> bool:
    """`for h, w in image_sizes` where the function rebinds `image_sizes`, a tensor it was handed,
    once to tuples of its rows' elements (`[(s[0] // p, s[1] // p) for s in image_sizes]`,
    Mistral3's patch merger): what the unpacking binds are tensors."""
    if not (isinstance(comp.target, cst.Tuple) and isinstance(comp.iter, cst.Name) and ctx.function is not None
            and isinstance(ctx.function.node, cst.FunctionDef)):
        return False
    name = comp.iter.value
    bound = [node.value for node in iter_nodes(ctx.function.node.body) if isinstance(node, cst.Assign)
             and any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets)]
    made = bound[0] if len(bound) == 1 else None
    if not (isinstance(made, cst.ListComp) and made.for_in.inner_for_in is None and isinstance(made.elt, cst.Tuple)
            and isinstance(made.for_in.iter, cst.Name) and made.for_in.iter.value == name
            and name in ctx.function.params and ctx.function.declared.get(name) == Kind.TENSOR):
        return False
    inner = {n.value for n in iter_nodes(made.for_in.target) if isinstance(n, cst.Name)}
    return all(_built_from(e.value, inner) for e in made.elt.elements)


def _built_from(expr: cst.BaseExpression, names: set[str]) -> bool:
    if isinstance(expr, cst.Name):
        return expr.value in names
    if isinstance(expr, cst.BinaryOperation):
        return _built_from(expr.left, names) or _built_from(expr.right, names)
    if isinstance(expr, cst.Subscript):  # `s[0]` of a row
        return all(isinstance(e.slice, cst.Index) and isinstance(e.slice.value, cst.Integer) for e in expr.slice) \
            and _built_from(expr.value, names)
    return False

