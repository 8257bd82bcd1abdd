import libcst as cst

from compilelint.rules._callsite import dotted_names_in, is_compile_call
from compilelint.rules.base import Rule, replace
from compilelint.semantic.kinds import dotted
from compilelint.traverse import children


class CompileBeforeLoadStateDict(Rule):
    code = "CL301"
    name = "compile-before-load-state-dict"
    summary = "compile, then `load_state_dict`/`state_dict()` on the compiled object"
    message = ("`{method}()` on the object `torch.compile` returned: its keys carry an `_orig_mod.` prefix, "
               "so loading a plain checkpoint raises (or, with strict=False, silently loads nothing)")
    severity = "error"
    gb_id = None
    help = ("Load (and save) through the original module: load the checkpoint before compiling, "
           "or compile in place with `model.compile()`, which keeps the keys.")
    region_only = False
    autofix = "`m = torch.compile(m)` becomes `m.compile()` (state-dict keys keep their names)"

    VALID = [
        """
import torch
model = Net()
model.load_state_dict(torch.load("ckpt.pt"))
model = torch.compile(model)
""",
        """
import torch
model = Net()
model.compile()
model.load_state_dict(torch.load("ckpt.pt"))
torch.save(model.state_dict(), "out.pt")
""",
        """
import torch
def train(model):
    fast = torch.compile(model)
    model.load_state_dict(torch.load("ckpt.pt"))  # the original module: keys unchanged
    torch.save(fast._orig_mod.state_dict(), "out.pt")
""",
    ]
    INVALID = [
        """
import torch
model = Net()
model = torch.compile(model)
model.load_state_dict(torch.load("ckpt.pt"))  # expect
""",
        """
import torch
class Trainer:
    def __init__(self, model):
        self.model = torch.compile(model)
    def save(self, path):
        torch.save(self.model.state_dict(), path)  # expect
""",
    ]

    FIXED = {
        0: """
import torch
model = Net()
model.compile()
model.load_state_dict(torch.load("ckpt.pt"))  # expect
""",
    }

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._module: cst.Module | None = None
        self._classes: list[cst.ClassDef] = []
        self._scopes: list[cst.CSTNode] = []  # enclosing functions and lambdas

    def visit_Module(self, node: cst.Module) -> None:
        self._module = node

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._scopes.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._scopes.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._scopes.append(node)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self._scopes.pop()

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("load_state_dict", "state_dict"):
            if self.ctx.compiled_state(func.value) == "optimized":
                self.report(node, self.message.format(method=func.attr.value), edits=self._in_place(node))

    # ---- the autofix: `m = torch.compile(m)` -> `m.compile()` ------------------------------

    def _in_place(self, call: cst.Call) -> tuple:
        """The edit that compiles the module in place (keeping its state-dict keys), when
        that is what the program means: the very name (or `self.x`) is compiled and bound
        again in exactly one place, alone on its line, not bound again between the compile
        and the call (for `self.x`: not at all, but earlier in the method that compiles
        it), and nothing in the scope reaches for `._orig_mod` (only the wrapper has it)."""
        try:
            return self._in_place_edits(call)
        except Exception:  # a fixer's bug must never cost the finding
            return ()

    def _in_place_edits(self, call: cst.Call) -> tuple:
        receiver = dotted(call.func.value)
        if receiver is None or self._module is None:
            return ()
        on_self = receiver.startswith("self.")
        if on_self:
            where = self._classes[-1] if self._classes else None
        else:
            where = self._scopes[-1] if self._scopes else self._module
        if where is None:
            return ()
        assigns, call_order = _assignments_to(receiver, where, call, into_functions=on_self)
        compiles = [entry for entry in assigns if is_compile_call(self.ctx, entry[0].value)]
        if len(compiles) != 1 or call_order is None:
            return ()  # compiled in several places: which value reaches the call is not clear
        assign, at, home, line = compiles[0]
        for other, order, scope, _ in assigns:
            if other is assign:
                continue
            if on_self:
                if scope is not home or order > at:  # only earlier in the method that compiles it
                    return ()
            elif at < order < call_order:
                return ()  # bound again between the compile and the call
        value = assign.value
        if not value.args or value.args[0].keyword is not None or value.args[0].star != "":
            return ()
        if dotted(value.args[0].value) != receiver:
            return ()  # `fast = torch.compile(model)`: a different object; a suggestion only
        if any(arg.keyword is None or arg.star for arg in value.args[1:]):
            return ()
        if f"{receiver}._orig_mod" in dotted_names_in(where):
            return ()
        if line is None or len(line.body) != 1:
            return ()
        new_call = cst.Call(func=cst.Attribute(value=value.args[0].value, attr=cst.Name("compile")),
                            args=list(value.args[1:]))
        return (replace(assign, self._module.code_for_node(new_call)),)


def _assignments_to(receiver: str, where: cst.CSTNode, call: cst.Call, *, into_functions: bool):
    """([(Assign, order, enclosing function or None, its SimpleStatementLine or None)] for
    the one-target assignments to `receiver` in `where`, order of `call`): orders are
    positions in source order. Functions nested in `where` are left out unless
    `into_functions`."""
    found, call_order, order = [], None, 0
    line_of: dict[int, cst.SimpleStatementLine] = {}
    stack: list[tuple[cst.CSTNode, cst.CSTNode | None]] = [(where, where if isinstance(where, cst.FunctionDef) else None)]
    while stack:
        node, scope = stack.pop()
        order += 1
        if node is call:
            call_order = order
        if isinstance(node, cst.Assign) and len(node.targets) == 1 and dotted(node.targets[0].target) == receiver:
            found.append((node, order, scope, line_of.get(id(node))))
        elif isinstance(node, cst.SimpleStatementLine):
            for small in node.body:
                line_of[id(small)] = node
        elif isinstance(node, cst.FunctionDef) and node is not where and not into_functions:
            continue
        inner = node if isinstance(node, (cst.FunctionDef, cst.Lambda)) else scope
        stack.extend((child, inner) for child in reversed(children(node)))
    return found, call_order
