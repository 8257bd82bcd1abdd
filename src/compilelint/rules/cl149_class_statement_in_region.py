import libcst as cst

from compilelint.rules.base import Rule


class ClassStatementInRegion(Rule):
    code = "CL149"
    name = "class-statement-in-region"
    summary = "a `class` statement (or a `namedtuple` of `**kwargs`) inside a function of the compiled region"
    message = ("defines class `{name}` while the function runs: Dynamo cannot trace a class statement "
               "(`__build_class__`, GB8977) and breaks the graph")
    namedtuple_message = ("`{call}` makes a class of the caller's keywords: Dynamo builds a namedtuple type only "
                          "from constant arguments, and the values are not (GB0201); it breaks the graph")
    severity = "error"
    gb_id = "GB8977"
    help = ("Define the class at module level (a closure value it needs can be an attribute or an argument), "
           "or build it once outside the compiled code and keep it.")
    breaks_graph = True

    VALID = [
        """
import torch
import torch.nn as nn
from collections import namedtuple
class Output(tuple):
    pass
class Net(nn.Module):
    class Config:  # a class body: runs at import, not in forward
        size = 4
    def __init__(self):
        super().__init__()
        class Local:  # __init__: not compiled
            pass
        self.local = Local
        self.lin = nn.Linear(4, 4)
    def forward(self, x):
        Pair = namedtuple("Pair", ["a", "b"])  # constant field names: Dynamo traces it
        return Pair(self.lin(x), x)
    def pack(self, names, **results):
        return namedtuple("Out", names)(**results)  # (a parameter of names: not flagged)
""",
    ]
    INVALID = [
        """
import torch.nn as nn
from collections import namedtuple
class OutputMixIn:
    pass
class Base(nn.Module):
    pass
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
    def to_output(self, **results):
        if not hasattr(self, "_output_class"):
            Fields = namedtuple("Fields", results)  # expect
            class Output(OutputMixIn, Fields):  # expect
                class Meta:
                    pass
            self._output_class = Output
        return self._output_class(**results)
    def block(self, merge_fn):
        class Skip(Base):  # a module class: built at construction, not compiled
            def forward(self, x):
                return merge_fn(x, x)
        return Skip
    def forward(self, x):
        return self.to_output(prediction=self.lin(x))
""",
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._stack: list[str] = []  # "def" / "class", innermost last
        self._kwargs: list[str | None] = []  # each enclosing function's `**kwargs` name

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._stack.append("def")
        star = node.params.star_kwarg
        self._kwargs.append(star.name.value if star is not None else None)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._stack.pop()
        self._kwargs.pop()

    def visit_Call(self, node: cst.Call) -> None:
        """`namedtuple("output", results)` with `results` the function's `**results`."""
        if not self._stack or self._stack[-1] != "def" or self.ctx.qualify(node.func) != "collections.namedtuple":
            return
        fields = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "field_names"),
                      node.args[1].value if len(node.args) > 1 and node.args[1].keyword is None else None)
        if isinstance(fields, cst.Name) and fields.value == self._kwargs[-1]:
            self.report(node, self.namedtuple_message.format(call=f"namedtuple(..., {fields.value})"),
                        help="Make the namedtuple type once, at module level, from the field names.")

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        # (a class inside that class is built by the outer statement, which breaks first)
        if self._stack and self._stack[-1] == "def" and not self._module_class(node):
            self.report(node, self.message.format(name=node.name.value))
        self._stack.append("class")

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._stack.pop()

    def _module_class(self, node: cst.ClassDef) -> bool:
        """A module class (a base in torch.nn, or a class of this file that has one): the function
        builds modules, which happens at construction, not in a compiled forward (a_unet's
        `Module(modules, forward_fn)` and `Skip(merge_fn)` factories)."""
        refs = [self.ctx.qualify(arg.value) or "" for arg in node.bases if arg.keyword is None]
        seen: set[str] = set()
        while refs:
            ref = refs.pop()
            if ref.startswith("torch.nn."):
                return True
            local = self.ctx.local_class(ref)
            if local and local not in seen:
                seen.add(local)
                refs.extend(self.ctx.class_table[local].bases)
        return False
