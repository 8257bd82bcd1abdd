import libcst as cst

from compilelint.semantic.kinds import property_accessor
from compilelint.rules.base import Rule


class SuperPropertyUse(Rule):
    code = "CL143"
    name = "super-property-use"
    summary = "uses of `super().<property>`: Dynamo keeps the property object and does not run the getter"
    message = ("`super().{name}` reads a property of the base class: Dynamo does not run the getter through "
               "`super()` and keeps the property object, so using it breaks the graph (a method call: GB0156; "
               "an argument: GB0055; arithmetic, indexing or returning it: an exception that sends the frame "
               "to eager, GB0088)")
    severity = "error"
    gb_id = "GB0156"
    help = ("Move the getter's body into a plain method of `{base}` that its property returns, and call "
            "that method here (`super()._{name}()`); torch 2.13 also breaks on `{base}.{name}.fget(self)`.")
    breaks_graph = True

    VALID = [
        """
import torch
class Base:
    def __init__(self, x):
        self.x = x
    def _mean(self):
        return self.x * 2
    @property
    def mean(self):
        return self._mean()
    def get(self):
        return self.x
class Scaled(Base):
    @property
    def mean(self):
        return super()._mean().view(-1) * 3  # the getter's body, as a method
    @property
    def spread(self):
        return super().get().view(-1)  # a method of the base: an ordinary call
    def doubled(self):
        return self.mean * 2  # this class's own property
@torch.compile
def f(x):
    return Scaled(x).mean + Scaled(x).spread + Scaled(x).doubled()
""",
        """
import torch
class Base:
    def __init__(self, x):
        self.x = x
    def mean(self):  # not a property
        return self.x
class Sub(Base):
    def mean(self):
        return super().mean().view(-1)
    def total(self):
        m = super().mean
        m = self.x  # rebound before its use
        return m.sum()
@torch.compile
def f(x):
    return Sub(x).mean() + Sub(x).total()
""",
    ]
    INVALID = [
        """
import torch
class Base:
    def __init__(self, x):
        self.x = x
    @property
    def mean(self):
        return self.x * 2
class Flat(Base):
    @property
    def mean(self):
        return super().mean.view(-1)  # expect
class Interleaved(Base):
    @property
    def mean(self):
        mean = super().mean
        if mean.dim() > 1:  # expect
            return mean.transpose(-1, -2)
        return mean
class Stacked(Base):
    def stacked(self):
        return torch.stack([super().mean, self.x])  # expect
class Shifted(Base):
    @property
    def mean(self):
        return super().mean * 3  # expect
@torch.compile
def f(x):
    return Flat(x).mean + Interleaved(x).mean + Stacked(x).stacked() + Shifted(x).mean
""",
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._properties: dict[str, set[str]] = {}  # class name in this file -> its property names
        # per function: local name -> (the property it holds, the block it was bound in); blocks
        # are kept as nodes, not ids (the incremental model compares and maps nodes)
        self._frames: list[dict[str, tuple[str, cst.CSTNode | None]]] = []
        self._blocks: list[cst.CSTNode | None] = [None]  # the blocks around the node, innermost last
        self._used: list[list[tuple[str, cst.CSTNode | None]]] = []  # per function: where a use was reported
        self._targets: set[int] = set()  # Name nodes being assigned to (not uses)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        names = {item.name.value for item in node.body.body
                 if isinstance(item, cst.FunctionDef) and _is_property(item)}
        self._properties[node.name.value] = names

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._frames.append({})
        self._used.append([])

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._frames.pop()
        self._used.pop()

    def visit_Return(self, node: cst.Return) -> None:
        # handed back unchanged: a getter Dynamo compiles as a frame of its own returns it
        # without a break (inlined, it breaks): not flagged
        if node.value is not None and (_super_property(node.value) or isinstance(node.value, cst.Name)):
            self._targets.add(id(node.value))

    def leave_Return(self, original_node: cst.Return) -> None:
        if original_node.value is not None:
            self._targets.discard(id(original_node.value))

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._blocks.append(node)

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock) -> None:
        self._blocks.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        names = [t.target for t in node.targets if isinstance(t.target, cst.Name)]
        for target in names:
            self._targets.add(id(target))
        if names and len(names) == len(node.targets):
            self._targets.add(id(node.value))  # `m = super().mean`: reported at m's first use

    def leave_Assign(self, original_node: cst.Assign) -> None:
        self._targets.discard(id(original_node.value))
        for target in original_node.targets:
            if isinstance(target.target, cst.Name):
                self._targets.discard(id(target.target))
        if not self._frames:
            return
        aliases = self._frames[-1]
        for target in original_node.targets:
            if isinstance(target.target, cst.Name):
                name = _super_property(original_node.value)
                if name is not None and self._is_base_property(name):
                    aliases[target.target.value] = (name, self._blocks[-1])  # reported where it is used
                else:
                    aliases.pop(target.target.value, None)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        name = _super_property(node)
        if name is None or not self._frames or not self._is_base_property(name):
            return
        if id(node) in self._targets:
            return
        self._report(node, name)

    def visit_Name(self, node: cst.Name) -> None:
        if not self._frames or id(node) in self._targets or node.value not in self._frames[-1]:
            return
        name, bound_in = self._frames[-1][node.value]
        if not any(block is bound_in for block in self._blocks):
            return  # bound in a branch that ended: on the other paths the name holds something else
        # Dynamo stops at the first use on each path: once in the block of the binding, once
        # in each nested block (an `if` branch) before that
        if bound_in is self._blocks[-1]:
            del self._frames[-1][node.value]
        elif any(name_ == node.value and block is self._blocks[-1] for name_, block in self._used[-1]):
            return
        self._used[-1].append((node.value, self._blocks[-1]))
        self._report(node, name)

    def _report(self, node: cst.CSTNode, name: str) -> None:
        base = self._base_name() or "Base"
        self.report(node, self.message.format(name=name), help=self.help.format(base=base, name=name))

    def _is_base_property(self, name: str) -> bool:
        """`name` is a property of a base class: the method reading it overrides a property of
        that name (a property overriding a property), or a base class in this file has one."""
        scope = self.ctx.function
        if scope is None or scope.class_name is None:
            return False
        node = scope.node
        if isinstance(node, cst.FunctionDef) and node.name.value == name and _is_property(node):
            return True
        info = self.ctx.class_table.get(scope.class_name)
        for base in (info.bases if info else ()):
            if name in self._properties.get(base.rsplit(".", 1)[-1], ()):
                return True
        return False

    def _base_name(self) -> str | None:
        scope = self.ctx.function
        info = self.ctx.class_table.get(scope.class_name) if scope and scope.class_name else None
        return info.bases[0].rsplit(".", 1)[-1] if info and info.bases else None


def _super_property(value: cst.BaseExpression) -> str | None:
    """`name` for `super().name` / `super(Cls, self).name`."""
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Call):
        func = value.value.func
        if isinstance(func, cst.Name) and func.value == "super":
            return value.attr.value
    return None


def _is_property(node: cst.FunctionDef) -> bool:
    """A property's getter, or an accessor of a property of its name (`@Base.name.setter`: a
    subclass overriding a base's setter, laplace-torch's `KronLaplace.prior_precision`)."""
    for dec in node.decorators:
        d = dec.decorator
        if isinstance(d, cst.Name) and d.value == "property":
            return True
        if (found := property_accessor(d, node.name.value)) is not None and found[1]:
            return True
    return False
