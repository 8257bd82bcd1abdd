import libcst as cst

from compilelint.rules._callsite import source
from compilelint.rules.base import Rule
from compilelint.semantic.kinds import dotted

# what `object.__hash__` is reached through: called by name, or what `super()` resolves to when every
# base inherits it (torch's modules and distributions define no `__hash__` of their own)
SLOT_CLASSES = frozenset({"builtins.object", "torch.nn.Module", "torch.nn.modules.module.Module"})
PLAIN_BASES = frozenset({"builtins.object", "abc.ABC", "typing.Generic", "typing.Protocol"})
TORCH_BASES = ("torch.nn.", "torch.distributions.")
NOT_PLAIN = ("torch.nn.attention.",)  # (flex attention's BlockMask hashes in Python)


class HashThroughSlot(Rule):
    code = "CL161"
    name = "hash-through-object-slot"
    summary = "a `__hash__` that calls `object.__hash__` (through `super()` or by name): Dynamo cannot call the slot"
    message = ("`{text}` in `{cls}.__hash__` calls `object.__hash__`, a C slot Dynamo cannot call: hashing "
               "this object in a compiled region breaks the graph, and every walk of a module tree holding it "
               "(`parameters()`, `modules()`, `children()`, `train()`) hashes it (GB0006)")
    severity = "error"
    gb_id = "GB0006"
    breaks_graph = True
    help = ("Return the identity hash Python gives by default: `return id(self)` (or `hash(id(self))`); "
            "Dynamo traces `id()` of an object. A class attribute `__hash__ = nn.Module.__hash__` breaks too.")

    VALID = [
        """
import torch
from torch import nn
class Base(nn.Module):
    def __hash__(self):
        return hash(id(self))
class Flow(Base):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(3))
    def __hash__(self):
        return super().__hash__()  # Base's own `__hash__`, a Python function
class Keyed(nn.Module):
    def __init__(self):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(3))
    def __hash__(self):
        return id(self)  # what Dynamo traces
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.flow, self.keyed = Flow(), Keyed()
    def forward(self, x):
        total = sum(p.sum() for p in self.parameters())
        return self.flow.scale * x + self.keyed.shift + total
""",
        """
import torch
from torch import nn
class Transform(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(3))
    def __hash__(self):
        return super(nn.Module, self).__hash__()  # never hashed: no walk, no key
    def forward(self, x):
        return x * self.scale
""",
    ]
    INVALID = [
        """
import abc
import torch
from torch import nn
class TransformModule(torch.distributions.Transform, torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(3))
    def __hash__(self):
        return super(torch.nn.Module, self).__hash__()  # expect
class Conditional(abc.ABC):
    pass
class ConditionalModule(Conditional, torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(3))
    def __hash__(self):
        return super().__hash__()  # expect
class ByName(nn.Module):
    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(3))
    def __hash__(self):
        return object.__hash__(self)  # expect
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.t, self.c, self.b = TransformModule(), ConditionalModule(), ByName()
    def forward(self, x):
        for _, p in self.named_parameters():
            x = x + p.sum()
        return x
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if not isinstance(node.func, cst.Attribute) or node.func.attr.value != "__hash__":
            return
        scope = self.ctx.function
        defined = scope.node if scope is not None else None
        if not (isinstance(defined, cst.FunctionDef) and defined.name.value == "__hash__" and scope.class_name
                and "." not in scope.class_name):
            return
        owner = node.func.value
        if isinstance(owner, cst.Call) and dotted(owner.func) == "super":
            if not self._super_slot(scope.class_name, [a.value for a in owner.args]):
                return
        elif (self.ctx.qualify(owner) or "") not in SLOT_CLASSES:
            return
        self.report(node, self.message.format(text=source(node, limit=80), cls=scope.class_name))

    def _super_slot(self, cls: str, args: list) -> bool:
        """`super().__hash__()` (or `super(C, self)`) resolves to `object.__hash__`; `super(nn.Module,
        self)` skips the module base, after which only `object` is left."""
        if args and (self.ctx.qualify(args[0]) or "") in SLOT_CLASSES:
            return True
        if args and dotted(args[0]) != cls:
            return False
        return self._inherits_slot(cls, 0)

    def _inherits_slot(self, cls: str, depth: int) -> bool:
        """Every base of the file's class `cls` leaves `__hash__` to `object`: torch's modules and
        distributions, `ABC`, or a class of this file that defines none and whose bases do the same
        (read from the walk's class table, bases qualified)."""
        info = self.ctx.class_table.get(cls)
        if info is None or depth > 8 or depth and "__hash__" in info.methods:
            return False
        for base in info.bases:
            if base in PLAIN_BASES or base.startswith(TORCH_BASES) and not base.startswith(NOT_PLAIN):
                continue
            local = self.ctx.local_class(base)
            if local is None or not self._inherits_slot(local, depth + 1):
                return False
        return True
