import libcst as cst

from compilelint.semantic.kinds import dotted
from compilelint.rules._callsite import calls_in, compiled_options, is_compile_call
from compilelint.rules.base import Rule
from compilelint.traverse import iter_nodes

GRAD_OFF = frozenset({
    "torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.inference_mode",
    "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode",
})


class ModeToggleBetweenCalls(Rule):
    code = "CL207"
    name = "mode-toggle-between-calls"
    summary = "`train()`/`eval()`/grad-mode toggled between calls"
    message = ("`{what}` between calls of the compiled `{callee}`: {guard} is guarded, so the next call "
               "compiles a second graph (once — both stay cached — but it counts toward the recompile limit)")
    severity = "note"
    gb_id = None
    help = ("Expect one extra compile per mode. To keep it off the hot path, warm both modes up front, or "
           "compile a separate callable for evaluation; do not toggle per step.")
    region_only = False

    VALID = [
        """
import torch
model = Net()
model.eval()
compiled = torch.compile(model)
with torch.no_grad():
    for x in batches:
        compiled(x)  # one mode all along
""",
        """
import torch
def fit(model, loader):
    model.train()
    step = torch.compile(model)
    for x, y in loader:
        loss = step(x).sum()
        loss.backward()
    return model
def evaluate(model, data):
    model.eval()  # another function: not evidently between calls
    with torch.no_grad():
        return model(data)
""",
        """
import torch
eager = Net()
for x in batches:
    eager.train()
    eager(x)
    eager.eval()  # not compiled
    eager(x)
""",
    ]
    INVALID = [
        """
import torch
def fit(model, train_loader, eval_loader):
    model = torch.compile(model)
    for epoch in range(3):
        model.train()
        for batch in train_loader:
            model(batch).sum().backward()
        model.eval()  # expect
        for batch in eval_loader:
            with torch.no_grad():  # (the same toggle: one note per loop)
                model(batch)
""",
        """
import torch
def drive(compiled, x):
    for epoch in range(2):
        compiled.train()
        compiled(x).sum().backward()
        compiled.eval()  # expect
        with torch.no_grad():
            compiled(x)
""",
        """
import torch
def drive(compiled, x):
    compiled(x)
    compiled.eval()  # expect
    compiled(x)
""",
        """
import torch
model = Scorer()
fast = torch.compile(model)
fast(torch.randn(3, 8)).sum().backward()
with torch.no_grad():  # expect
    fast(torch.randn(3, 8))
model.train(False)  # expect
fast(torch.randn(3, 8))
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._called: dict[str, set[str]] = {}  # scope -> compiled callees called so far
        self._aliases: dict[str, dict[str, str]] = {}  # scope -> original name -> compiled alias
        self._loops_reported: set[tuple[int, str]] = set()  # one finding per loop and callee
        self._module: cst.Module | None = None

    def visit_Module(self, node: cst.Module) -> None:
        self._module = node

    def _called_after(self, toggle: cst.Call, callee: str, receiver: str) -> bool:
        """Whether `callee` is called after `toggle` (in the statements that follow it, at
        its level and then the enclosing ones) before `receiver.train()` switches back."""
        root = self.ctx.function.node if self.ctx.function else self._module
        if root is None:
            return True
        for stmt in _following(root, toggle):
            for sub in iter_nodes(stmt, prune=lambda n: isinstance(n, (cst.FunctionDef, cst.ClassDef))):
                if not isinstance(sub, cst.Call):
                    continue
                name = dotted(sub.func)
                if name == callee:
                    return True
                if name == f"{receiver}.train" and not sub.args:
                    return False
        return False

    def _once_per_loop(self, callee: str) -> bool:
        loops = self.ctx.loops
        if not loops:
            return True
        key = (id(loops[0]), callee)  # the outermost loop: one note per training loop
        if key in self._loops_reported:
            return False
        self._loops_reported.add(key)
        return True

    def _scope(self) -> str:
        return self.ctx.function.qualname if self.ctx.function else "<module>"

    def visit_Assign(self, node: cst.Assign) -> None:
        if is_compile_call(self.ctx, node.value) and node.value.args:
            original = dotted(node.value.args[0].value)
            for target in node.targets:
                alias = dotted(target.target)
                if original and alias and alias != original:
                    self._aliases.setdefault(self._scope(), {})[original] = alias

    def _compiled_name(self, receiver: cst.BaseExpression) -> str | None:
        """The compiled callable that `receiver` is, or that wraps it."""
        name = dotted(receiver)
        if name is None:
            return None
        if compiled_options(self.ctx, receiver) is not None:
            return name
        for scope in (self._scope(), "<module>"):
            alias = self._aliases.get(scope, {}).get(name)
            if alias:
                return alias
        return None

    def _called_before_or_in_loop(self, callee: str, outside: cst.CSTNode | None = None) -> bool:
        if callee in self._called.get(self._scope(), ()):
            return True
        for loop in self.ctx.loops:
            inside = {id(n) for n in iter_nodes(outside)} if outside is not None else set()
            if any(id(call) not in inside for call in calls_in(loop.body, callee)):
                return True
        return False

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        callee = dotted(func)
        if callee and compiled_options(self.ctx, func) is not None:
            self._called.setdefault(self._scope(), set()).add(callee)
        if not isinstance(func, cst.Attribute):
            return
        method = func.attr.value
        if method == "eval" and not node.args:
            what = f"{dotted(func.value) or 'model'}.eval()"
        elif method == "train" and node.args and isinstance(node.args[0].value, cst.Name) \
                and node.args[0].value.value == "False":
            what = f"{dotted(func.value) or 'model'}.train(False)"
        else:
            return
        compiled = self._compiled_name(func.value)
        if compiled and self._called_before_or_in_loop(compiled) \
                and self._called_after(node, compiled, dotted(func.value) or "") and self._once_per_loop(compiled):
            self.report(node, self.message.format(what=what, callee=compiled, guard="the training flag"))

    def visit_With(self, node: cst.With) -> None:
        what = None
        for item in node.items:
            call = item.item
            if not isinstance(call, cst.Call):
                continue
            qualified = self.ctx.qualify(call.func) or ""
            if qualified in GRAD_OFF:
                what = f"{qualified.replace('torch.autograd.grad_mode.', 'torch.')}()"
            elif qualified == "torch.set_grad_enabled" and call.args \
                    and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == "False":
                what = "torch.set_grad_enabled(False)"
        if what is None:
            return
        for sub in iter_nodes(node.body, prune=lambda n: isinstance(n, (cst.FunctionDef, cst.ClassDef))):
            if not isinstance(sub, cst.Call):
                continue
            callee = dotted(sub.func)
            if callee and compiled_options(self.ctx, sub.func) is not None \
                    and self._called_before_or_in_loop(callee, outside=node):
                if self._once_per_loop(callee):
                    self.report(node, self.message.format(what=f"with {what}", callee=callee, guard="grad mode"))
                return


def _blocks(stmt: cst.CSTNode):
    """The statement lists directly inside a compound statement."""
    for name in ("body", "orelse", "finalbody"):
        part = getattr(stmt, name, None)
        if isinstance(part, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            yield part.body
        elif isinstance(part, (cst.Else, cst.Finally, cst.If)):
            yield from _blocks(part)
    for handler in getattr(stmt, "handlers", ()):
        yield from _blocks(handler)


def _following(root: cst.CSTNode, node: cst.CSTNode) -> list[cst.CSTNode]:
    """Statements that run after the one holding `node`: its later siblings, then those of
    each enclosing block, innermost first."""
    if isinstance(root, cst.Module):
        lists = [root.body]
    else:
        lists = list(_blocks(root))
    for statements in lists:
        for index, stmt in enumerate(statements):
            if any(sub is node for sub in iter_nodes(stmt)):
                inner: list[cst.CSTNode] = []
                if not isinstance(stmt, cst.SimpleStatementLine):
                    inner = _following(stmt, node)
                return inner + list(statements[index + 1:])
    return []
