import libcst as cst

from compilelint import knowledge
from compilelint.config import torch_version
from compilelint.index import EXTERNAL_MODULE_BASES
from compilelint.semantic.kinds import Kind, dotted
from compilelint.rules.base import Rule


class DeepcopyCall(Rule):
    code = "CL114"
    name = "deepcopy-call"
    summary = "`copy.deepcopy` of tensors, modules and state; `copy.copy` of them or of a list, dict or set"
    message = "`copy.{fn}()` of {what} in a compiled region: Dynamo cannot copy tensors while tracing and breaks the graph"
    severity = "error"
    gb_id = "GB4198"
    help = ("Copy modules and state outside the region (once, at setup); inside it use tensor ops "
           "(`x.clone()`, `x.detach().clone()`) instead of copy.deepcopy.")
    breaks_graph = True

    VALID = [
        """
import copy
import torch
class M(torch.nn.Module):
    def __init__(self, block, n):
        super().__init__()
        self.layers = torch.nn.ModuleList(copy.deepcopy(block) for _ in range(n))  # __init__: eager
    def forward(self, x, options: dict):
        opts = copy.deepcopy(options)  # plain Python data: traced on torch 2.13
        opts["scale"] = 2
        return x.clone() * opts["scale"]
""",
        """
import copy
import torch
class EMA:
    def __init__(self, model):
        self.shadow = copy.deepcopy(model)  # not compiled
class M(torch.nn.Module):
    def forward(self, x):
        return x
""",
        """
import copy
import torch
def deep_clone(x):
    if x is None or x is NotImplemented:
        return copy.deepcopy(x)  # a singleton copies as itself: traced
    return x.clone()
@torch.compile
def f(x, state=None):
    return deep_clone(x) if deep_clone(state) is None else x
""",
        """
import copy
import torch
class Batch:
    def __init__(self, values):
        self.values = values
    def __deepcopy__(self, memo):
        return Batch(self.values.clone())
def mutate(batch: Batch, marginals=None):
    result = copy.deepcopy(batch)  # an object its class copies: traced
    marginals = copy.deepcopy(marginals)  # None unless a caller passes one: traced
    return result
@torch.compile
def step(x):
    return mutate(Batch(x)).values
""",
    ]
    INVALID = [
        """
import copy
import torch
class Cell(torch.nn.Module):
    def forward(self, x, h):
        prev = copy.deepcopy(h)  # expect
        return x + h - prev
""",
        """
import copy
import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(4, 4)
    def forward(self, x):
        saved = copy.deepcopy(x)  # expect
        head = copy.deepcopy(self.head)  # expect
        me = copy.deepcopy(self)  # expect
        pair = copy.deepcopy([x, saved])  # expect
        shallow = copy.copy(torch.relu(x))  # expect
        return head(saved), me, pair, shallow
""",
    ]

    def _module_self(self) -> bool:
        scope = self.ctx.function
        if scope is None or scope.class_name is None:
            return False
        if scope.is_forward:
            return True
        info = self.ctx.class_table.get(scope.class_name)
        return bool(info) and any(b.startswith(EXTERNAL_MODULE_BASES) for b in info.bases)

    def _what(self, arg: cst.BaseExpression, fn: str = "deepcopy") -> tuple[str, str] | None:
        """(description, severity) of what is copied, None if it is not known to hold tensors."""
        if isinstance(arg, cst.Name) and arg.value == "self":
            return ("the module itself", "error") if self._module_self() else None
        kind = self.ctx.kind(arg)
        if kind == Kind.TENSOR:
            return "a tensor", "error"
        if kind == Kind.LIKELY:
            return "a tensor", "warning"
        if kind == Kind.MODULE and not self._plain_object(arg):
            return "a module (its parameters)", "error"
        if isinstance(arg, (cst.List, cst.Tuple, cst.Set)):
            kinds = [self.ctx.kind(e.value) for e in arg.elements]
            if Kind.TENSOR in kinds:
                return "a container of tensors", "error"
            if Kind.LIKELY in kinds:
                return "a container of tensors", "warning"
        scope = self.ctx.function
        if kind == Kind.UNKNOWN and isinstance(arg, cst.Name) and scope is not None and arg.value in scope.params \
                and arg.value not in self._singletons and (fn == "copy" or _bare_param(scope.node, arg.value)):
            return "an argument (a tensor or state holding tensors, most likely)", "warning"
        if isinstance(arg, cst.Dict):
            kinds = [self.ctx.kind(e.value) for e in arg.elements if isinstance(e, cst.DictElement)]
            if Kind.TENSOR in kinds or Kind.LIKELY in kinds:
                return "a container of tensors", "error" if Kind.TENSOR in kinds else "warning"
        return None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._singletons: list[str] = []  # names the enclosing `if` bodies proved None (or another singleton)
        self._proving: dict[int, str] = {}  # id(if body) -> the name its test proves a singleton

    def _plain_object(self, arg: cst.BaseExpression) -> bool:
        """`self.options`, built in `__init__` from a class of this file that derives from no other
        class: a plain object (its kind's guess, a module, is wrong), which Dynamo copies."""
        scope = self.ctx.function
        if not (isinstance(arg, cst.Attribute) and isinstance(arg.value, cst.Name) and arg.value.value == "self"
                and scope is not None and scope.class_name):
            return False
        info = self.ctx.class_table.get(scope.class_name)
        made = info.init_calls.get(arg.attr.value, "") if info is not None else ""
        built = self.ctx.class_table.get(made.removeprefix(f"{self.ctx.module}."))
        return built is not None and all(base in ("object", "builtins.object") for base in built.bases)

    def _container(self, arg: cst.BaseExpression) -> bool:
        """A list, dict or set: a display or comprehension, `list(...)` / `dict(...)` / `set(...)`, or a
        parameter annotated as one (evotorch's `Distribution.__init__(..., parameters: dict)`)."""
        if isinstance(arg, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
            return True
        if isinstance(arg, cst.Call):
            return self.ctx.qualify(arg.func) in ("builtins.list", "builtins.dict", "builtins.set")
        scope = self.ctx.function
        if not (isinstance(arg, cst.Name) and scope is not None and isinstance(scope.node, cst.FunctionDef)):
            return False
        param = _param(scope.node, arg.value)
        annotation = param.annotation.annotation if param is not None and param.annotation is not None else None
        if isinstance(annotation, cst.Subscript):
            annotation = annotation.value
        return annotation is not None and (dotted(annotation) or "").rsplit(".", 1)[-1] in CONTAINERS

    def visit_If(self, node: cst.If) -> None:
        if (name := _singleton_test(node.test)) is not None:
            self._proving[id(node.body)] = name

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if id(node) in self._proving:
            self._singletons.append(self._proving[id(node)])

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        if self._proving.pop(id(original_node), None) is not None:
            self._singletons.pop()

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if qualified not in ("copy.deepcopy", "copy.copy") or not node.args:
            return
        fn = qualified.split(".")[1]
        if fn == "copy" and self._container(node.args[0].value):
            self.report(node, "`copy.copy()` of a list, dict or set in a compiled region: it calls the builtin "
                              "`dict.copy` / `list.copy`, which Dynamo skips (GB0007), and the graph breaks",
                        help="Copy with what Dynamo traces: `d.copy()`, `dict(d)`, `list(xs)`, `set(s)`.")
            return
        what = self._what(node.args[0].value, fn)
        # releases that reject copy.deepcopy() outright (GB0179): the knowledge table's entry
        rejected = knowledge.table(self.code, torch_version(self.ctx.settings)).get(qualified) is not None
        if what is None and rejected:
            self.report(node, f"`copy.deepcopy()` in a compiled region: this torch release does not trace "
                              "copy.deepcopy at all and breaks the graph", severity="error")
            return
        if what is not None:
            self.report(node, self.message.format(fn=fn, what=what[0]), severity=what[1])


CONTAINERS = frozenset({"list", "dict", "set", "List", "Dict", "Set", "MutableMapping"})
SINGLETONS = frozenset({"None", "NotImplemented", "Ellipsis"})


def _bare_param(node, name: str) -> bool:
    """A parameter with neither a default nor an annotation other than a tensor's (or `Any`):
    the guess that `copy.deepcopy` of it copies tensors. (`marginals=None` copies None when left
    out; `batch: SolutionBatch` is an object whose class decides how it copies, evotorch's through
    its own `__deepcopy__`. `copy.copy` of an annotated object breaks all the same: chemprop's
    `copy.copy(bmg)` of a `BatchMolGraph`, demucs' of an `Optional[dict]`.)"""
    param = _param(node, name)
    if param is None:
        return False
    annotation = param.annotation.annotation if param.annotation is not None else None
    return param.default is None and (
        annotation is None or (dotted(annotation) or "").rsplit(".", 1)[-1] in ("Tensor", "Any", "object"))


def _param(node, name: str) -> cst.Param | None:
    """The parameter `name` of function `node` (None: not a `def`, or no such parameter)."""
    if not isinstance(node, cst.FunctionDef):
        return None
    params = node.params
    return next((p for p in (*params.posonly_params, *params.params, *params.kwonly_params) if p.name.value == name),
                None)


def _singleton_test(test: cst.BaseExpression) -> str | None:
    """The name `x is None` (or an `or` of such tests on one name: evotorch's `deep_clone`,
    `x is None or x is NotImplemented or x is Ellipsis`) proves a singleton, which copies as itself."""
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
        left, right = _singleton_test(test.left), _singleton_test(test.right)
        return left if left is not None and left == right else None
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name) \
            and isinstance(test.comparisons[0].operator, cst.Is) \
            and isinstance(test.comparisons[0].comparator, cst.Name) and test.comparisons[0].comparator.value in SINGLETONS:
        return test.left.value
    return None
