import libcst as cst

from compilelint.rules._callsite import is_compile_call
from compilelint.rules.base import Rule
from compilelint.semantic.kinds import dotted

BACKWARD_HOOKS = frozenset({"register_full_backward_hook", "register_full_backward_pre_hook",
                            "register_backward_hook"})
WALKS = frozenset({"modules", "children", "named_modules", "named_children"})


class BackwardHookCompiled(Rule):
    code = "CL305"
    name = "backward-hook-on-compiled-model"
    summary = "a module backward hook on a model the same function or file compiles"
    message = ("a module backward hook (`{hook}`) on {target}, which `{compile}` compiles here too: Dynamo breaks "
               "the graph at each hooked module's call unless compiled autograd is on (GB0083)")
    severity = "warning"
    gb_id = "GB0083"
    region_only = False
    help = ("Hook tensors instead (`out.register_hook(fn)` inside the forward, traced), keep the hooks on a model "
            "you do not compile, or turn on compiled autograd (`torch._dynamo.config.compiled_autograd = True`).")

    VALID = [
        """
import torch
def train(model, probe, loader):
    probe.register_full_backward_hook(lambda m, gi, go: None)  # another model, not compiled
    model.register_forward_hook(lambda m, i, o: None)  # a forward hook: traced
    compiled = torch.compile(model)
    for x in loader:
        compiled(x).sum().backward()
""",
        """
import torch
torch._dynamo.config.compiled_autograd = True  # backward hooks run in the compiled backward
def train(model, loader):
    model.encoder.register_full_backward_hook(lambda m, gi, go: None)
    compiled = torch.compile(model)
    return [compiled(x) for x in loader]
""",
    ]
    INVALID = [
        """
import torch
def train(model, loader, log):
    for name, module in model.named_modules():
        module.register_full_backward_hook(log)  # expect
    compiled = torch.compile(model)
    for x in loader:
        compiled(x).sum().backward()
""",
        """
import torch
def train(model, loader):
    model.compile()
    model.encoder.register_backward_hook(lambda m, gi, go: None)  # expect
    return [model(x) for x in loader]
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self.visit_Module(None)

    def visit_Module(self, node: cst.Module | None) -> None:
        self._hooks: list[tuple] = []  # (call, hook, root name, scope, what it hooks)
        self._compiles: dict[tuple[object, str], tuple[str, cst.Call]] = {}  # (scope, root) -> (how, call)
        self._walks: dict[tuple[object, str], tuple[str, str]] = {}  # (scope, loop name) -> (model, the walk)
        self._autograd = "compiled_autograd" in (self.ctx.text or "")

    def _scope(self) -> object:
        return id(self.ctx.function.node) if self.ctx.scopes else None

    def visit_For(self, node: cst.For) -> None:
        # `for m in model.modules():` / `for name, m in model.named_modules():` -> m stands for model
        it, target = node.iter, node.target
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Attribute) and it.func.attr.value in WALKS:
            root = _root(it.func.value)
            if isinstance(target, cst.Tuple) and target.elements:
                target = target.elements[-1].value
            if root and isinstance(target, cst.Name):
                walk = f"each of `{dotted(it.func.value) or root}.{it.func.attr.value}()`"
                self._walks[(self._scope(), target.value)] = (root, walk)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        compiled = self.ctx.compiled_target(node)
        if compiled is not None:
            root = _root(compiled)
            if root and not self.ctx.is_import(root):
                how = f"torch.compile({root})" if is_compile_call(self.ctx, node) else f"{dotted(compiled) or root}.compile()"
                self._compiles[(self._scope(), root)] = (how, node)
        elif isinstance(func, cst.Attribute) and func.attr.value in BACKWARD_HOOKS:
            root = _root(func.value)
            if root:
                target = f"`{dotted(func.value) or root}`"
                if (self._scope(), root) in self._walks:
                    root, walk = self._walks[(self._scope(), root)]
                    target += f" ({walk})"
                self._hooks.append((node, func.attr.value, root, self._scope(), target))

    def leave_Module(self, original_node: cst.Module) -> None:
        if self._autograd:
            return
        for call, hook, root, scope, target in self._hooks:
            compiled = self._compiles.get((scope, root))
            if compiled is None:
                continue
            self.report(call, self.message.format(hook=hook, target=target, compile=compiled[0]))


def _root(node: cst.BaseExpression) -> str | None:
    """The name an expression starts from (`model` of `model.encoder.layers[0]`)."""
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None
