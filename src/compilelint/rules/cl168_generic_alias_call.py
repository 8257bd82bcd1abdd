import libcst as cst

from compilelint.rules.base import Rule
from compilelint.rules.cl160_generic_alias_subscript import BUILTIN_GENERICS

# the classes whose subscript (`list[Tensor]`, `OrderedDict[str, None]`) is a `types.GenericAlias`
# that builds a container when called (`type[int]()` does not)
GENERIC_CLASSES = BUILTIN_GENERICS - {"builtins.type"} | frozenset({
    "collections.OrderedDict", "collections.defaultdict", "collections.deque", "collections.Counter",
    "collections.ChainMap",
})


class GenericAliasCall(Rule):
    code = "CL168"
    name = "generic-alias-call"
    summary = "building a container by calling a subscripted builtin class (`list[Tensor]()`) in a region"
    message = ("`{text}(...)` calls a generic alias (a subscripted `{cls}`): Dynamo does not know how to "
               "call a `types.GenericAlias` and breaks the graph")
    severity = "error"
    gb_id = "GB0147"
    help = ("Call the class itself (`list()`, `OrderedDict(...)`) and keep the type for the annotation: "
            "`out: list[Tensor] = []`.")
    breaks_graph = True

    VALID = [
        """
import torch
from collections import OrderedDict
from typing import cast
@torch.compile
def f(x: torch.Tensor) -> list[torch.Tensor]:
    out: list[torch.Tensor] = []  # an annotation: no call
    seen = OrderedDict()
    out.append(x * len(cast(list[int], [1, 2])))  # `cast` folds the type
    return out + list(seen)
def eager(xs):
    return list[torch.Tensor](xs)  # no compiled region
""",
    ]
    INVALID = [
        """
import torch
from collections import OrderedDict
@torch.compile
def hooks(x):
    grads = list[torch.Tensor]()  # expect
    order = OrderedDict[str, None]([("a", None)])  # expect
    grads.append(x * 2)
    return grads[0] + len(order)
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if self.ctx.function is None or not isinstance(func, cst.Subscript):
            return
        cls = self.ctx.qualify(func.value) or ""
        if cls in GENERIC_CLASSES:
            text = " ".join(cst.Module([]).code_for_node(func).split())
            self.report(node, self.message.format(text=text, cls=cls.removeprefix("builtins.")))
