import libcst as cst

from compilelint.rules.base import Rule


class SuperMethodAttribute(Rule):
    code = "CL164"
    name = "super-method-attribute"
    summary = ("a call through an attribute of a base method read with `super()` "
               "(`super().attribute.__wrapped__(self, x)`): Dynamo cannot call it")
    message = ("`super().{method}.{attr}(...)`: Dynamo keeps `super().{method}` as an attribute of a `super` "
               "object and cannot call `{attr}` on it (\"Unsupported method call\"), so the graph breaks")
    severity = "error"
    gb_id = "GB0156"
    help = ("Name the base class: `{base}.{method}.{attr}(self, ...)` is traced, or call the method itself, "
            "`super().{method}(...)`.")
    breaks_graph = True

    VALID = [
        """
import functools
import torch
def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
class Base:
    @logged
    def attribute(self, x):
        return x * 2
class ByName(Base):
    def attribute(self, x):
        return Base.attribute.__wrapped__(self, x) + 1  # the base named: traced
class Plain(Base):
    def attribute(self, x):
        return super().attribute(x) + 1  # the method itself, called
@torch.compile
def f(x):
    return ByName().attribute(x) + Plain().attribute(x)
""",
    ]
    INVALID = [
        """
import functools
import torch
def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
class Base:
    @logged
    def attribute(self, x):
        return x * 2
    def plain(self, x):
        return x * 3
class Unlogged(Base):
    def attribute(self, x):
        return super().attribute.__wrapped__(self, x) + 1  # expect
class Unbound(Base):
    def plain(self, x):
        return super().plain.__func__(self, x) + 1  # expect
@torch.compile
def f(x):
    return Unlogged().attribute(x) + Unbound().plain(x)
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        read = func.value if isinstance(func, cst.Attribute) and _dunder(func.attr.value) else None
        if self.ctx.function is None or not isinstance(read, cst.Attribute) or not (
                isinstance(read.value, cst.Call) and isinstance(read.value.func, cst.Name)
                and read.value.func.value == "super"):
            return
        base = self._base() or "Base"
        self.report(node, self.message.format(method=read.attr.value, attr=func.attr.value),
                    help=self.help.format(base=base, method=read.attr.value, attr=func.attr.value))

    def _base(self) -> str | None:
        """The first base of the class the function is a method of, as its source names it."""
        scope = self.ctx.function
        info = self.ctx.class_table.get(scope.class_name) if scope.class_name else None
        return info.bases[0].rsplit(".", 1)[-1] if info and info.bases else None


def _dunder(name: str) -> bool:
    """A function's own attribute (`__wrapped__`, `__func__`, `__call__`), not a method of what a
    property returns (`super().mean.view(-1)`: CL143's)."""
    return name.startswith("__") and name.endswith("__") and len(name) > 4
