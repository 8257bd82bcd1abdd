import libcst as cst

from compilelint.semantic.kinds import dotted
from compilelint.rules._callsite import names_in
from compilelint.rules.base import Rule

# (read before the file's imports are: by the callee's last name)
CONTAINER_CALLS = frozenset({"list", "dict", "set", "defaultdict", "OrderedDict", "deque", "Counter"})
CONTAINER_LITERALS = (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)
MUTATORS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "add", "update", "setdefault",
    "popitem", "appendleft", "extendleft", "popleft", "discard", "sort", "reverse",
})
# hooks Python runs when a class is defined: a registry they fill stops changing after import
CLASS_TIME_HOOKS = frozenset({"__init_subclass__", "__set_name__"})


class GlobalStateMutation(Rule):
    code = "CL205"
    name = "global-state-mutation"
    summary = "global mutable state read and mutated by a region"
    message = ("module-level `{name}` is changed inside the compiled region: Dynamo guards on globals it "
               "reads (their value, a container's length and keys), so calls recompile — every call when "
               "it grows or counts")
    severity = "warning"
    READ = ("`{name}` is read by compiled code (`{reader}`) and changed here: Dynamo guards on its "
            "contents, so the next call recompiles")
    gb_id = None
    help = ("Keep changing state out of the compiled function: return it and update it in the caller, keep "
           "counters in a tensor buffer (`buf.add_(1)`), or key caches so they stop changing after warm-up.")

    VALID = [
        """
import torch
LAYER_TYPES = {}
class Layer:
    kind = None
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        LAYER_TYPES[cls.kind] = cls  # when a subclass is defined, never between calls
class Cache(torch.nn.Module):
    def forward(self, x, kind="dense"):
        return x * (kind in LAYER_TYPES)
""",
        """
import torch
CONFIG = {"eps": 1e-5}
_LAYERS = []
def register(layer):  # not compiled
    _LAYERS.append(layer)
class Norm(torch.nn.Module):
    def forward(self, x):
        cache = {}
        cache["x"] = x  # a local dict
        out = []
        out.append(x)
        return x / (x.norm() + CONFIG["eps"])  # reading a global is fine
""",
        """
import torch
STEP = 0
def train_loop(model, batches):
    global STEP
    for x in batches:
        model(x)
        STEP += 1  # not compiled
""",
        """
import torch
_kernel = None
_loaded = None
def _get_kernel(name):
    global _kernel, _loaded
    if _kernel is None:
        _kernel = load_kernel()  # lazy initialisation: set once
    if _loaded != name:
        _loaded = name
    return _kernel
class M(torch.nn.Module):
    def forward(self, x):
        return _get_kernel("a")(x)
""",
    ]
    INVALID = [
        """
import torch
from torch import nn
CONFIG = {"label_smoothing": 0.0}
class SmoothedCE(nn.Module):
    def forward(self, logits, target):
        return nn.functional.cross_entropy(logits, target, label_smoothing=CONFIG["label_smoothing"])
def train(model, batches):
    for epoch, (x, y) in enumerate(batches):
        CONFIG["label_smoothing"] = 0.1 * epoch  # expect
        model(x, y)
""",
        """
import torch
GLOBAL_STEP = 0
@torch.compile
def noisy_update(param, grad, lr=0.1):
    global GLOBAL_STEP
    GLOBAL_STEP += 1  # expect
    noise = torch.randn_like(grad) / (GLOBAL_STEP ** 0.5)
    return param - lr * (grad + noise)
""",
        """
import torch
from collections import defaultdict
_SEEN = []
_MEMO = {}
_STATS = defaultdict(int)
class Block(torch.nn.Module):
    def forward(self, x):
        _SEEN.append(x.shape[0])  # expect
        _MEMO[x.shape[-1]] = x.sum()  # expect
        _STATS["calls"] += 1  # expect
        return x
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._containers: set[str] = set()
        self._mutations: list[tuple[cst.CSTNode, str, str | None]] = []
        self._readers: dict[str, set[str]] = {}
        self._globals: dict[str, set[str]] = {}
        self._tests: list[cst.BaseExpression] = []  # tests of the enclosing `if`s

    def visit_If(self, node: cst.If) -> None:
        self._tests.append(node.test)

    def leave_If(self, original_node: cst.If) -> None:
        self._tests.pop()

    def _lazy_init(self, name: str, value: cst.BaseExpression) -> bool:
        """`if X is None: X = load()`: set once (or when it changes), not accumulated."""
        return any(name in names_in(test) for test in self._tests) and name not in names_in(value)

    def visit_Module(self, node: cst.Module) -> None:
        for stmt in node.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                continue
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    targets, value = [t.target for t in small.targets], small.value
                elif isinstance(small, cst.AnnAssign) and small.value is not None:
                    targets, value = [small.target], small.value
                else:
                    continue
                if self._is_container(value):
                    self._containers.update(t.value for t in targets if isinstance(t, cst.Name))

    def _mutated(self, node: cst.CSTNode, name: str) -> None:
        self.report(node, self.message.format(name=name))
        # if compiled code elsewhere reads `name`, the change between its calls is what
        # recompiles (reported at leave_Module)
        self._mutations.append((node, name, self._scope()))

    def visit_Name(self, node: cst.Name) -> None:
        scope = self._scope()
        if scope is not None and self._global_container(node):
            self._readers.setdefault(node.value, set()).add(scope)

    def leave_Module(self, original_node: cst.Module) -> None:
        for node, name, mutator in self._mutations:
            if mutator and mutator.rsplit(".", 1)[-1] in CLASS_TIME_HOOKS:
                continue  # runs when a class is defined, not between compiled calls
            for reader in sorted(self._readers.get(name, ())):
                if reader != mutator:
                    self.report_in(reader, node, self.READ.format(name=name, reader=reader))

    def report_in(self, scope: str, node, message: str) -> None:
        """Report at `node`, kept when `scope` (the reader) runs compiled."""
        self.ctx.report(self, node, message, help=self.help, severity=self.severity, scope=scope)

    def _is_container(self, value: cst.BaseExpression) -> bool:
        if isinstance(value, CONTAINER_LITERALS):
            return True
        if isinstance(value, cst.Call):
            return (dotted(value.func) or "").rsplit(".", 1)[-1] in CONTAINER_CALLS
        return False

    def _scope(self) -> str | None:
        return self.ctx.function.qualname if self.ctx.function else None

    def _global_container(self, node: cst.BaseExpression) -> str | None:
        if not isinstance(node, cst.Name) or node.value not in self._containers:
            return None
        if any(node.value in scope.env for scope in self.ctx.scopes):
            return None  # a local of the same name
        return node.value

    def visit_Global(self, node: cst.Global) -> None:
        scope = self._scope()
        if scope is not None:
            self._globals.setdefault(scope, set()).update(item.name.value for item in node.names)

    def _declared(self, target: cst.BaseExpression) -> str | None:
        scope = self._scope()
        if scope is not None and isinstance(target, cst.Name) and target.value in self._globals.get(scope, ()):
            return target.value
        return None

    def _subscripted(self, target: cst.BaseExpression) -> str | None:
        if isinstance(target, cst.Subscript):
            return self._global_container(target.value)
        return None

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            declared = self._declared(target.target)
            if declared and self._lazy_init(declared, node.value):
                continue
            name = declared or self._subscripted(target.target)
            if name:
                self._mutated(node, name)
                return

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        name = self._declared(node.target) or self._subscripted(node.target)
        if name:
            self._mutated(node, name)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        name = self._declared(node.target)
        if name and node.value is not None and not self._lazy_init(name, node.value):
            self._mutated(node, name)

    def visit_Del(self, node: cst.Del) -> None:
        targets = node.target.elements if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            target = getattr(target, "value", target)
            name = self._subscripted(target) or self._declared(target)
            if name:
                self._mutated(node, name)
                return

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in MUTATORS:
            name = self._global_container(func.value)
            if name:
                self._mutated(node, name)
