import libcst as cst

from compilelint.finding import GENERIC_ALIAS, GENERIC_BUILTINS
from compilelint.rules.base import Rule

# `list[...]`, `dict[...]`: what subscripting a builtin class makes is a `types.GenericAlias`
BUILTIN_GENERICS = frozenset(f"builtins.{name}" for name in GENERIC_BUILTINS)
# where the generic types a subscript in the body names come from
GENERIC_MODULES = ("typing.", "typing_extensions.", "collections.abc.")


def builtin_generic(node: cst.BaseExpression, qualify) -> bool:
    """`dict[str, Tensor]`: a subscript of a builtin class (a `types.GenericAlias`)."""
    return isinstance(node, cst.Subscript) and (qualify(node.value) or "") in BUILTIN_GENERICS


def module_aliases(module: cst.Module, qualify) -> dict[str, str]:
    """Names the module binds, at top level and once, to a builtin generic (`Details = dict[str, Tensor]`,
    `Details: TypeAlias = dict[str, Tensor]`), with the text they are bound to."""
    bound: dict[str, int] = {}
    aliases = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            targets, value = [], None
            if isinstance(small, cst.Assign):
                targets, value = [t.target for t in small.targets], small.value
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                targets, value = [small.target], small.value
            for target in targets:
                if isinstance(target, cst.Name):
                    bound[target.value] = bound.get(target.value, 0) + 1
                    if builtin_generic(value, qualify):
                        aliases[target.value] = module.code_for_node(value)
    return {name: text for name, text in aliases.items() if bound[name] == 1}


class GenericAliasSubscript(Rule):
    code = "CL160"
    name = "generic-alias-subscript"
    summary = "a type expression built at run time from a `list[...]`-style alias, in a region"
    message = ("`{text}` subscripts a generic type with `{alias}`, an alias of `{shown}`: Dynamo cannot "
               "build that type at run time and breaks the graph")
    severity = "error"
    gb_id = "GB4880"
    breaks_graph = True
    project_phase = "compilelint.project_rules.cl160_aliases"
    help = ("Quote the type (`cast(\"list[Details]\", x)`), spell the alias with `typing` (`Details = "
            "Dict[str, Tensor]`), or drop the `cast` in compiled code: it only informs the type checker.")

    VALID = [
        """
from typing import Dict, List, cast
import torch
Details = dict[str, torch.Tensor]
Named = Dict[str, torch.Tensor]
def keep(x: list[Details]) -> list[Details]:  # annotations: evaluated when the def runs, not compiled
    return x
@torch.compile
def f(x):
    items: list[Details] = [{"a": x}]  # a local's annotation is never evaluated
    first = cast("list[Details]", items)[0]  # quoted: a string
    named = cast(List[Named], [first])[0]  # a typing alias: Dynamo folds it
    inline = cast(list[dict[str, torch.Tensor]], [named])[0]  # spelled out: folded too
    return cast(Details, inline)["a"] + 1  # the alias alone is a constant
""",
    ]
    INVALID = [
        """
from typing import List, Union, cast
import torch
Details = dict[str, torch.Tensor]
@torch.compile
def f(x):
    items = cast(list[Details], [{"a": x}])  # expect
    more = cast(Union[Details, None], items[0])  # expect
    return cast(List[Details], [more])[0]["a"] + 1  # expect
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._aliases: dict[str, str] = {}
        self._annotations = 0

    def visit_Module(self, node: cst.Module) -> None:
        self._aliases = module_aliases(node, self.ctx.qualify)

    def visit_Annotation(self, node: cst.Annotation) -> None:
        self._annotations += 1  # a signature's run when the def does; a local's, never

    def leave_Annotation(self, node: cst.Annotation) -> None:
        self._annotations -= 1

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if self.ctx.function is None or self._annotations:
            return
        qualified = self.ctx.qualify(node.value) or ""
        if qualified not in BUILTIN_GENERICS and not qualified.startswith(GENERIC_MODULES):
            return
        for element in node.slice:
            if not isinstance(element.slice, cst.Index):
                continue
            for name in _names(element.slice.value):
                if self.ctx.locally_bound(name.value):
                    continue
                imported = self.ctx.qualify(name) or ""
                if name.value in self._aliases:
                    shown, needs = self._aliases[name.value], ()
                elif "." in imported and not imported.startswith(("builtins.", "torch.", *GENERIC_MODULES)):
                    # an alias of another file (ptwt's `WaveletDetailDict` from `constants`): the project decides
                    shown, needs = "{shown}", (f"{GENERIC_ALIAS}{imported}",)
                else:
                    continue
                text = " ".join(cst.Module([]).code_for_node(node).split()).replace("[ ", "[").replace(", ]", "]")
                text = text if len(text) <= 60 else text[:57] + "..."
                self.report(node, self.message.format(text=text, alias=name.value, shown=shown), needs=needs)
                return


def _names(value: cst.BaseExpression):
    """The names a type argument is made of (`Details`, the `Details` of `Optional[Details]`), not
    the inner subscripts' own (their own visit reports them)."""
    if isinstance(value, cst.Name):
        yield value
    elif isinstance(value, cst.Tuple):
        for element in value.elements:
            yield from _names(element.value)
