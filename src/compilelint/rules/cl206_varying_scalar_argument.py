import libcst as cst

from compilelint.semantic.kinds import dotted
from compilelint.rules._callsite import assignments_in, compiled_options, source, target_version
from compilelint.rules.base import Rule

SCALARS = ("int", "float", "str", "bool")


def _literal_type(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Integer):
        return "int"
    if isinstance(node, cst.Float):
        return "float"
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return "str"
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return "bool"
    if isinstance(node, cst.UnaryOperation) and isinstance(node.expression, (cst.Integer, cst.Float)):
        return _literal_type(node.expression)
    return None


def _join(types: list[str | None]) -> str | None:
    kinds = set(types)
    if None in kinds or not kinds:
        return None
    if kinds <= {"int", "bool"}:
        return "int" if "int" in kinds else "bool"
    if kinds <= {"int", "float", "bool"}:
        return "float"
    return kinds.pop() if len(kinds) == 1 else None


class VaryingScalarArgument(Rule):
    code = "CL206"
    name = "varying-scalar-argument"
    summary = "Python float/str arguments of a compiled callable change between calls"
    message = ("`{arg}` is a Python {type} that changes between calls of the compiled `{callee}`: "
               "Dynamo specialises on its value, so {cost}")
    severity = "warning"
    gb_id = None
    help = ("Pass values that change as tensors (`torch.tensor(lr)`), keep strings and flags fixed per "
           "compiled callable (one per mode), or compile with `dynamic=True`.")
    region_only = False

    VALID = [
        """
import torch
@torch.compile
def sgd(param, grad, lr):
    return param - lr * grad
def train(p, grads):
    lr = torch.tensor(0.1)
    for step in range(3):
        p = sgd(p, grads[step], lr)  # a 0-d tensor: no recompile
        lr = lr * 0.5
    for g in grads:
        p = sgd(p, g, 0.1)  # the same value every time
    return p
""",
        """
import torch
step = torch.compile(lambda x, lr: x * lr)
plain = lambda x, lr: x * lr
def sweep(x):
    for lr in [0.1, 0.01]:
        plain(x, lr)  # not compiled
    for use_bias in (True, False):
        step(x, use_bias)  # a bool: at most two graphs
""",
        """
import torch
fast = torch.compile(model_fn, dynamic=True)
def sweep(x):
    for scale in (0.5, 1.0, 2.0):
        fast(x, scale)  # dynamic=True: floats and ints are symbolic
""",
    ]
    INVALID = [
        """
import torch
def sample_logits(logits, temperature):
    return (logits / temperature).softmax(-1)
compiled_sample = torch.compile(sample_logits)
def drive(logits):
    for temp in (0.7, 1.0, 1.3):
        compiled_sample(logits, temp)  # expect
""",
        """
import torch
def drive(compiled, x):
    for act in ["relu", "gelu", "relu"]:
        compiled(x, activation=act)  # expect
""",
        """
import torch
@torch.compile
def sgd_momentum(param, grad, buf, lr: float, momentum: float = 0.9):
    buf = momentum * buf + grad
    return param - lr * buf, buf
def drive(p, buf, grads):
    lr = 0.1
    for step in range(3):
        p, buf = sgd_momentum(p, grads[step], buf, lr)  # expect
        lr = lr * 0.5
    for epoch, g in enumerate(grads):
        sgd_momentum(p, g, buf, 0.1 * epoch)  # expect
    return p
""",
        """
import torch
model = torch.compile(Net(), dynamic=False)
for n_steps in range(1, 5):
    model(torch.randn(2, 8), n_steps)  # expect
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._types: dict[str, dict[str, str]] = {}  # scope -> name -> "float" / "seq:str" ...

    # ---- what Python scalar an expression is ------------------------------------------

    def _scope(self) -> str:
        return self.ctx.function.qualname if self.ctx.function else "<module>"

    def _lookup(self, name: str) -> str | None:
        for scope in [s.qualname for s in reversed(self.ctx.scopes)] + ["<module>"]:
            table = self._types.get(scope, {})
            if name in table:
                return table[name]
            if scope != "<module>" and any(s.qualname == scope and name in s.env for s in self.ctx.scopes):
                return None  # bound locally to something we did not type
        return None

    def _type(self, node: cst.BaseExpression, names: dict[str, str] | None = None) -> str | None:
        """"int"/"float"/"str"/"bool" for a scalar, "seq:T" for a literal sequence of them."""
        lit = _literal_type(node)
        if lit:
            return lit
        if isinstance(node, cst.Name):
            if names and node.value in names:
                return names[node.value]
            return self._lookup(node.value)
        if isinstance(node, (cst.List, cst.Tuple, cst.Set)):
            inner = _join([self._type(e.value, names) if not isinstance(e, cst.StarredElement) else None
                           for e in node.elements])
            return f"seq:{inner}" if inner in SCALARS else None
        if isinstance(node, cst.BinaryOperation):
            left, right = self._type(node.left, names), self._type(node.right, names)
            if left in SCALARS and right in SCALARS:
                if "str" in (left, right):
                    return "str" if left == right else None
                if isinstance(node.operator, cst.Divide):
                    return "float"
                return _join([left, right])
            return None
        if isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not):
            inner = self._type(node.expression, names)
            return inner if inner in ("int", "float") else None
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) \
                and node.func.value in ("range", "float", "int", "str"):
            qualified = self.ctx.qualify(node.func) or ""
            if qualified == "builtins.range":
                return "seq:int"
            if qualified in ("builtins.float", "builtins.int", "builtins.str"):
                return qualified[9:]
        return None

    def visit_Assign(self, node: cst.Assign) -> None:
        kind = self._type(node.value)
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                table = self._types.setdefault(self._scope(), {})
                if kind is None:
                    table.pop(target.target.value, None)
                else:
                    table[target.target.value] = kind

    # ---- what changes from one iteration to the next -----------------------------------

    def _loop_scalars(self, loop: cst.CSTNode) -> dict[str, str]:
        """Names that hold a different Python scalar on each iteration of `loop`."""
        out: dict[str, str] = {}
        if isinstance(loop, cst.For):
            self._bind_targets(loop.target, loop.iter, out)
        for name, stmts in assignments_in(loop).items():
            if name == "\0node" or name in out:
                continue
            for stmt in stmts:
                value = getattr(stmt, "value", None)
                if isinstance(stmt, cst.AugAssign):
                    value = cst.BinaryOperation(left=cst.Name(name), operator=cst.Add(), right=stmt.value) \
                        if not isinstance(stmt.operator, cst.DivideAssign) else \
                        cst.BinaryOperation(left=cst.Name(name), operator=cst.Divide(), right=stmt.value)
                if isinstance(value, cst.BaseExpression):
                    kind = self._type(value, out)
                    if kind in SCALARS and kind != "bool":
                        out[name] = kind
                        break
        return out

    def _bind_targets(self, target: cst.BaseExpression, iterable: cst.BaseExpression, out: dict[str, str]) -> None:
        seq = self._type(iterable)
        if seq and seq.startswith("seq:") and isinstance(target, cst.Name):
            out[target.value] = seq[4:]
            return
        if isinstance(iterable, cst.Call) and isinstance(target, (cst.Tuple, cst.List)):
            qualified = self.ctx.qualify(iterable.func) or ""
            elements = [e.value for e in target.elements]
            if qualified == "builtins.enumerate" and len(elements) == 2 and iterable.args:
                if isinstance(elements[0], cst.Name):
                    out[elements[0].value] = "int"
                self._bind_targets(elements[1], iterable.args[0].value, out)
            elif qualified == "builtins.zip" and len(elements) == len(iterable.args):
                for element, arg in zip(elements, iterable.args):
                    self._bind_targets(element, arg.value, out)

    # ---- the call ----------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        loops = self.ctx.loops
        if not loops:
            return
        options = compiled_options(self.ctx, node.func)
        if options is None:
            return
        varying: dict[str, str] = {}
        for loop in loops:
            varying.update(self._loop_scalars(loop))
        if not varying:
            return
        for arg in node.args:
            if arg.star:
                continue
            kind = self._varying_type(arg.value, varying)
            if kind is None or kind == "bool":
                continue
            severity, cost = self._cost(kind, options)
            if severity is None:
                continue
            callee = dotted(node.func) or "callable"
            label = (f"{arg.keyword.value}=" if arg.keyword else "") + source(arg.value)
            self.report(node, self.message.format(arg=label, type=kind, callee=callee, cost=cost),
                        severity=severity)
            return

    def _varying_type(self, value: cst.BaseExpression, varying: dict[str, str]) -> str | None:
        if isinstance(value, cst.FormattedString):
            return "str" if any(isinstance(p, cst.FormattedStringExpression) and self._mentions(p, varying)
                                for p in value.parts) else None
        if not self._mentions(value, varying):
            return None
        kind = self._type(value, varying)
        return kind if kind in SCALARS else None

    def _mentions(self, node: cst.CSTNode, names: dict[str, str]) -> bool:
        from compilelint.rules._callsite import names_in

        return bool(names_in(node) & names.keys())

    def _cost(self, kind: str, options: dict[str, str]) -> tuple[str | None, str]:
        dynamic = options.get("dynamic")
        every = "every distinct value compiles again (after 8, the recompile limit, it runs eagerly)"
        if kind == "str":
            return "warning", every
        if dynamic == "False":
            return "warning", every + " — `dynamic=False` keeps numbers static"
        if dynamic == "True":
            return None, ""
        if kind == "float" and target_version(self.ctx) < (2, 6):
            return "warning", every + " (floats are specialised before torch 2.6)"
        return "note", ("the second value recompiles once and then it is treated as dynamic — unless it "
                        "steers Python control flow or a shape, when every value recompiles")
