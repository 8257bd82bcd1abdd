import libcst as cst

from compilelint.semantic.kinds import Kind, dotted
from compilelint.traverse import iter_nodes
from compilelint.rules._callsite import calls_in, dotted_names_in, is_compile_call, loop_varying, names_in
from compilelint.rules.base import Rule, insert_line_before, replace_lines


class CompileInLoop(Rule):
    code = "CL302"
    name = "compile-in-loop"
    summary = "`torch.compile` inside a loop"
    message = "`torch.compile` inside a loop: {why}"
    severity = "warning"
    gb_id = None
    help = ("Compile once, before the loop, and call the compiled object inside it; for values that change "
           "per iteration pass them as (tensor) arguments instead of closing over them.")
    region_only = False
    autofix = "the `torch.compile` assignment is hoisted above the loop"

    VALID = [
        """
import torch
def run(batches, w1, w2):
    outs = []
    for x in batches:
        fn = torch.compile(gelu_mlp)  # the same function: the code cache is shared, nothing recompiles
        outs.append(fn(x, w1, w2))
    return outs
""",
        """
import torch
def regional(model):
    for layer in model.layers:
        layer.compile()  # regional compilation: each block once
    for i, block in enumerate(model.blocks):
        model.blocks[i] = torch.compile(block)
    heads = []
    for head in model.heads:
        heads.append(torch.compile(head))
    return heads
""",
        """
import torch
def run(batches, w):
    fn = torch.compile(mlp)  # hoisted
    return [fn(x, w) for x in batches]
""",
    ]
    INVALID = [
        """
import torch
def fit(model, loader, epochs=2):
    for epoch in range(epochs):
        model = torch.compile(model)  # expect
        model.train()
        for x in loader:
            model(x).sum().backward()
""",
        """
import torch
def make_loss(margin):
    def hinge(scores, labels):
        return torch.relu(margin - scores * labels).mean()
    return hinge
def sweep(margins, scores, labels):
    results = []
    for m in margins:
        loss_fn = torch.compile(make_loss(m))  # expect
        results.append(loss_fn(scores, labels))
        results.append(torch.compile(lambda s: s * m)(scores))  # expect
    return results
""",
    ]

    FIXED = {
        0: """
import torch
def fit(model, loader, epochs=2):
    model = torch.compile(model)  # expect
    for epoch in range(epochs):
        model.train()
        for x in loader:
            model(x).sum().backward()
""",
    }

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._called_directly: set[int] = set()
        self._module: cst.Module | None = None
        self._indents: list[str] = []  # the indentation each enclosing block adds
        self._loop_indent: dict[int, str] = {}  # id(loop) -> the indentation of its line
        self._hoisted: dict[int, set[int]] = {}  # id(loop) -> ids of the lines hoisted out of it

    # ---- where the blocks are (for the autofix) -------------------------------------------

    def visit_Module(self, node: cst.Module) -> None:
        self._module = node

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._indents.append(self._module.default_indent if node.indent is None else node.indent)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._indents.pop()

    def visit_For(self, node: cst.For) -> None:
        self._loop_indent[id(node)] = "".join(self._indents)

    def visit_While(self, node: cst.While) -> None:
        self._loop_indent[id(node)] = "".join(self._indents)

    def visit_Call(self, node: cst.Call) -> None:
        if is_compile_call(self.ctx, node.func):
            self._called_directly.add(id(node.func))  # torch.compile(f)(x)
        if not is_compile_call(self.ctx, node) or not node.args:
            return
        loops = self.ctx.loops
        if not loops:
            return
        loop = loops[-1]
        target = node.args[0].value
        statement = self._assignment_of(node, loop)
        bound = dotted(statement.targets[0].target) if statement is not None and len(statement.targets) == 1 else None
        varying = loop_varying(loop, exclude=statement)
        uses = names_in(node) & varying
        if isinstance(target, cst.Lambda):  # a closure over the loop's variables
            params = {p.name.value for p in target.params.params}
            uses |= (names_in(target.body) - params) & varying
        called = id(node) in self._called_directly or (bound is not None and bool(calls_in(loop.body, bound)))
        if bound is not None and bound == dotted(target):
            module = self.ctx.kind(target) == Kind.MODULE or self._looks_like_module(bound)
            self.report(node, self.message.format(
                why=f"`{bound}` is compiled again on every iteration; compiling what torch.compile returned "
                    "gives a plain function for a module (`.train()`, `.state_dict()` then raise "
                    "AttributeError) and another wrapper layer for a function"),
                severity="error" if module else "warning", edits=self._hoist(node, loop))
            return
        if not called:
            return  # stored for later use (regional compilation of each block)
        if uses:
            self.report(node, self.message.format(
                why="what it compiles (or how) changes with the loop (`" + "`, `".join(sorted(uses)) + "`): "
                    "a fresh closure, module or option per iteration recompiles every time"),
                edits=self._hoist(node, loop))
            return
        # The same callable wrapped again each iteration: the code cache is shared, nothing
        # recompiles (measured on 2.13), and a wrap costs ~0.5 ms: not worth a finding.

    def _assignment_of(self, node: cst.Call, loop: cst.CSTNode) -> cst.Assign | None:
        """The `name = torch.compile(...)` statement in `loop` whose value is `node`."""
        from compilelint.rules._callsite import assignments_in

        for stmts in assignments_in(loop).values():
            for stmt in stmts:
                if isinstance(stmt, cst.Assign) and stmt.value is node:
                    return stmt
        return None

    def _looks_like_module(self, name: str) -> bool:
        last = name.split(".")[-1].lower()
        return any(word in last for word in ("model", "net", "module", "encoder", "decoder", "layer", "block"))

    # ---- the autofix: hoist `name = torch.compile(...)` above the loop ---------------------

    def _hoist(self, call: cst.Call, loop: cst.CSTNode) -> tuple:
        """The edits that move the assignment of `call` above `loop`, when that cannot change
        what the program does: the statement is one of the loop's own (not nested in an `if`)
        and alone on its line, its arguments are names, attributes and constants the loop
        does not change (no calls: those could have effects), the bound name is neither used
        earlier in the loop nor bound again in it, and (for `while`) the loop's condition
        does not read it. Comments above and beside the statement move with it."""
        try:
            return self._hoist_edits(call, loop)
        except Exception:  # a fixer's bug must never cost the finding
            return ()

    def _hoist_edits(self, call: cst.Call, loop: cst.CSTNode) -> tuple:
        block = loop.body
        if not call.args or not _simple_args(call) or not isinstance(block, cst.IndentedBlock) \
                or self._module is None or id(loop) not in self._loop_indent:
            return ()
        line = next((stmt for stmt in block.body if isinstance(stmt, cst.SimpleStatementLine)
                     and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
                     and stmt.body[0].value is call and len(stmt.body[0].targets) == 1), None)
        if line is None:
            return ()
        assign = line.body[0]
        bound = dotted(assign.targets[0].target)
        if bound is None:
            return ()
        rebound = _bound_in(block)
        if isinstance(loop, cst.For):
            _bind(rebound, loop.target, loop)
        if any(_affected(name, rebound, skip=assign) for name in dotted_names_in(call)):
            return ()  # the arguments change in the loop (this very statement aside)
        if _affected(bound, rebound, skip=assign):
            return ()
        if isinstance(loop, cst.While) and _reads(loop.test, bound):
            return ()
        for stmt in block.body:
            if stmt is line:
                break
            if _reads(stmt, bound):
                return ()
        hoisted = self._hoisted.setdefault(id(loop), set())
        if id(line) in hoisted:
            return ()
        hoisted.add(id(line))
        module, indent = self._module, self._loop_indent[id(loop)]
        moved = "".join((indent if empty.indent else "") + module.code_for_node(empty) for empty in line.leading_lines)
        moved += indent + module.code_for_node(line.with_changes(leading_lines=()))
        left = ""
        if all(id(stmt) in hoisted for stmt in block.body):  # nothing stays: the loop keeps a `pass`
            inner = module.default_indent if block.indent is None else block.indent
            left = indent + inner + "pass" + module.default_newline
        return (replace_lines(line, left), insert_line_before(loop, moved))


def _simple_args(call: cst.Call) -> bool:
    """Arguments made of names, attributes and constants only (evaluating them has no effect)."""

    def plain(node) -> bool:
        if isinstance(node, (cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
            return True
        if isinstance(node, cst.Attribute):
            return plain(node.value)
        if isinstance(node, cst.ConcatenatedString):
            return plain(node.left) and plain(node.right)
        if isinstance(node, cst.UnaryOperation):
            return plain(node.expression)
        if isinstance(node, (cst.Tuple, cst.List)):
            return all(plain(e.value) for e in node.elements if isinstance(e, cst.Element))
        if isinstance(node, cst.Dict):
            return all(isinstance(e, cst.DictElement) and plain(e.key) and plain(e.value) for e in node.elements)
        return False

    return all(arg.star == "" and plain(arg.value) for arg in call.args)


def _bind(out: dict[str, list], target: cst.CSTNode, where: cst.CSTNode) -> None:
    """Record the dotted names `target` binds (`a, (self.b, *c)`) as bound by `where`."""
    if isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            _bind(out, element.value, where)
    elif isinstance(target, cst.StarredElement):
        _bind(out, target.value, where)
    else:
        name = dotted(target)
        if name:
            out.setdefault(name, []).append(where)


def _bound_in(node: cst.CSTNode) -> dict[str, list]:
    """Dotted names (re)bound anywhere in `node`, nested functions included -> the nodes
    binding them."""
    out: dict[str, list] = {}
    for sub in iter_nodes(node):
        if isinstance(sub, cst.Assign):
            for target in sub.targets:
                _bind(out, target.target, sub)
        elif isinstance(sub, (cst.AugAssign, cst.AnnAssign, cst.NamedExpr, cst.For, cst.CompFor, cst.Del)):
            _bind(out, sub.target, sub)
        elif isinstance(sub, cst.WithItem) and sub.asname is not None:
            _bind(out, sub.asname.name, sub)
        elif isinstance(sub, (cst.FunctionDef, cst.ClassDef)):
            _bind(out, sub.name, sub)
        elif isinstance(sub, cst.ImportAlias):
            target = sub.asname.name if sub.asname is not None else sub.name
            _bind(out, target if isinstance(target, cst.Name) else cst.Name(dotted(target).split(".")[0]), sub)
        elif isinstance(sub, cst.ExceptHandler) and sub.name is not None:
            _bind(out, sub.name.name, sub)
        elif isinstance(sub, (cst.Global, cst.Nonlocal)):
            for item in sub.names:
                _bind(out, item.name, sub)
    return out


def _affected(name: str, bound: dict[str, list], skip: cst.CSTNode) -> bool:
    """Whether `name` (or what it is an attribute of, or an attribute of it) is bound by
    anything but `skip`."""
    for other, where in bound.items():
        if all(w is skip for w in where):
            continue
        if other == name or name.startswith(other + ".") or other.startswith(name + "."):
            return True
    return False


def _reads(node: cst.CSTNode, name: str) -> bool:
    used = dotted_names_in(node)
    return name in used or any(u.startswith(name + ".") for u in used)
