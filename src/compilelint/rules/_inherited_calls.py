"""CL119's calls of a method a library base defines and the knowledge table names, on an object
whose class the file cannot settle: `self.zero_grad()` in a project optimiser deriving from
`torch.optim.Optimizer` (SAM's `first_step`), `self.opt.zero_grad()` where `self.opt` holds a
project class. Whether a class of the lineage overrides the method, and which library bases it
has, only the project's class table says across files: the call becomes a candidate
(`finding.INHERITED`) that `project_rules.cl119_held` keeps when no project class defines the
method and a base's row names it.

And `self.optimizer.zero_grad()` on a receiver named as an optimiser whose binding says
nothing (a constructor's untyped parameter, what a factory returns): `zero_grad` is what only
optimisers and modules answer, and a module's traces (measured on 2.13: `Module.zero_grad`
makes no break, `Optimizer.zero_grad` is skipped, GB0008), so the name settles it; its
`step()` too, read as torch.optim's (GB0025), a warning: a project optimiser's may be traced (and
not with an argument other than a closure: a wrapper's `step(loss)`). So is `step()` on a receiver
annotated with the abstract `Optimizer`, which says no more than the name does, unless the file
itself hands the holder a project optimiser (`OwnOptimisers`)."""

from __future__ import annotations

import re

import libcst as cst
import libcst.matchers as m

from compilelint.finding import INHERITED, NAMED_RECEIVER
from compilelint.knowledge_classes import OPTIMIZER_BASES
from compilelint.rules._known_calls import why_text
from compilelint.semantic.kinds import Kind, dotted
from compilelint.summary import MADE

OPTIMIZER_WORDS = frozenset({"optimizer", "optimiser", "optim", "opt"})
# the row a receiver named as an optimiser is read by: every optimiser runs the base's skipped
# `zero_grad` (one that overrides it forwards to an inner one's); `step` is torch.optim's own
# (a project optimiser's `step` may be traced whole, so only a binding that says nothing is read so)
BY_NAME = {"zero_grad": "torch.optim.Optimizer.zero_grad", "step": "torch.optim.SGD.step"}
STEP_WHY = ("a `torch.optim` optimiser's `step` calls `torch._dynamo.graph_break()` (GB0025; a project "
            "optimiser's own `step` may be traced)")


def note_help(entry) -> str:
    """The row's advice as a finding's help (the rule's own is about random numbers and RNNs)."""
    return entry.note[:1].upper() + entry.note[1:] + "."


def method_names(known) -> frozenset[str]:
    """The names of the methods the table has rows for (`zero_grad`, `update`, ...)."""
    return frozenset(name.rsplit(".", 1)[1] for name, entry in known.exact.items() if entry.form == "method")


def optimizer_named(expr: cst.BaseExpression) -> bool:
    """`optimizer`, `self.actor_optimizer`, `opt_g`, `self.optimizers[0]`: one word of the name
    (split at `_` and digits) is an optimiser's."""
    while isinstance(expr, cst.Subscript):
        expr = expr.value
    name = expr.attr.value if isinstance(expr, cst.Attribute) else expr.value if isinstance(expr, cst.Name) else ""
    return any(word in OPTIMIZER_WORDS for word in re.split(r"[_\d]+", name.lower()))


def _held(receiver: cst.BaseExpression) -> bool:
    """`self.optim`, `self._modules.optim`: what the object holds, whose class a file of another
    class may declare (a dataclass field of a base): the project decides (`NAMED_RECEIVER`)."""
    while isinstance(receiver, cst.Attribute):
        receiver = receiver.value
    return isinstance(receiver, cst.Name) and receiver.value == "self"


def closure_only(node: cst.Call) -> bool:
    """`step()`, `step(closure)`, `step(lambda: ...)`: what a torch.optim optimiser's
    `step(closure=None)` takes. A wrapper's `self.optim.step(loss)` (tianshou) is not one."""
    if not node.args:
        return True
    arg = node.args[0]
    return len(node.args) == 1 and (arg.keyword is None or arg.keyword.value == "closure") and (
        isinstance(arg.value, cst.Lambda) or "closure" in (dotted(arg.value) or "").lower())


def _made_optimiser(cls: str, func: cst.Attribute, method: str) -> bool:
    """`self.optimizer = get_optimizer_by_name(net, "sgd")`: a project factory made the receiver, and
    the factory may pick among torch's optimisers (pyod's returns one from a dict of them), which
    no class the project defines says. Read by its name, as a receiver of no known class is; the
    project phase still follows the call where the receiver's class is one of its own."""
    return cls.startswith(MADE) and method in BY_NAME and optimizer_named(func.value)


def inherited_call(rule, node: cst.Call, cls: str | None, names: frozenset[str]) -> bool:
    """Report (or defer) `receiver.method(...)` when the table's row is for a base the receiver's
    class may inherit from. `cls` is what `callee_class` made of the receiver."""
    func = node.func
    method = func.attr.value
    if method not in names:
        return False
    scope = rule.ctx.function
    if dotted(func.value) == "self" and scope is not None and scope.class_name:
        ref = scope.class_name
    elif cls in OPTIMIZER_BASES and method == "step":
        if scope is not None and scope.class_name in rule._own_optimisers.holders(rule.ctx):
            return False  # (the file hands the holder a project optimiser: its `step` may be traced)
        ref = None  # `opt: Optimizer` says no more than a name does: read below as torch.optim's
    elif cls is not None and rule._known.get(cls) is None and not _made_optimiser(cls, func, method):
        ref = cls
    else:
        ref = None
    if ref is not None:
        what = f"`{dotted(func.value) or '...'}.{method}()`, inherited from `{{base}}`,"
        rule.report(node, rule.message.format(what=what, why="{why}"), needs=(f"{INHERITED}{ref}|{method}",))
        return True
    annotated = cls in OPTIMIZER_BASES
    if (annotated or (cls is None or cls.startswith(MADE)) and optimizer_named(func.value)) and method in BY_NAME \
            and (method != "step" or closure_only(node)) \
            and rule.ctx.kind(func.value) not in (Kind.VALUE, Kind.MODULE, Kind.TENSOR):
        entry = rule._known.get(BY_NAME[method])
        if entry is None:
            return False
        why = why_text(entry) if method == "zero_grad" else STEP_WHY
        by = "its annotation (`Optimizer`)" if annotated else "its name"
        edge = rule.ctx.edge_index(node) if not annotated and _held(func.value) else None
        rule.report(node, rule.message.format(what=f"`{dotted(func.value) or '...'}.{method}()`, an optimiser's by "
                                              f"{by},", why=why), severity="warning", help=note_help(entry),
                    needs=(f"{NAMED_RECEIVER}{rule.ctx.function.qualname}|{edge}",) if edge is not None else ())
        return True
    return False


def inherited_base(index, known, class_key: str, method: str) -> str | None:
    """The library base of the class's lineage whose `method` the table names, when no project
    class of the lineage defines the method itself, nor a subclass (whose instances run theirs)."""
    if any(index.method(key, method) is not None for key in (class_key, *index.subclasses(class_key))):
        return None
    for owner in index.lineage(class_key):
        for base in index.classes[owner].bases:
            entry = known.get(f"{base}.{method}")
            if entry is not None and entry.form == "method":
                return base
    return None


class OwnOptimisers:
    """The classes a file builds handing them a project optimiser, one of its classes deriving
    from `Optimizer` (`Scaled(PlainSGD(params))`): what such a holder steps is that optimiser,
    whatever its attribute's annotation says. Read from the file once, when a call first asks."""

    def __init__(self, tree: cst.Module | None = None) -> None:
        self._tree = tree
        self._holders: frozenset[str] | None = None

    def holders(self, ctx) -> frozenset[str]:
        if self._holders is None:
            classes = [s for s in self._tree.body if isinstance(s, cst.ClassDef)] if self._tree is not None else []
            own: set[str] = set()
            while grown := {c.name.value for c in classes if c.name.value not in own and any(
                    ctx.qualify(b.value) in OPTIMIZER_BASES or dotted(b.value) in own for b in c.bases)}:
                own |= grown
            calls = m.findall(self._tree, m.Call(func=m.Name())) if own else ()
            self._holders = frozenset(call.func.value for call in calls if any(
                isinstance(a.value, cst.Call) and dotted(a.value.func) in own for a in call.args))
        return self._holders
