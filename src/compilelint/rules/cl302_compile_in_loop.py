import libcst as cst

from compilelint.semantic.kinds import Kind, dotted
from compilelint.rules._callsite import calls_in, is_compile_call, loop_varying, names_in
from compilelint.rules.base import Rule


class CompileInLoop(Rule):
    code = "CL302"
    name = "compile-in-loop"
    summary = "`torch.compile` inside a loop"
    message = "`torch.compile` inside a loop: {why}"
    severity = "warning"
    gb_id = None
    fix = ("Compile once, before the loop, and call the compiled object inside it; for values that change "
           "per iteration pass them as (tensor) arguments instead of closing over them.")
    region_only = False
    fixable = True

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

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._called_directly: set[int] = set()

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
                severity="error" if module else "warning")
            return
        if not called:
            return  # stored for later use (regional compilation of each block)
        if uses:
            self.report(node, self.message.format(
                why="what it compiles (or how) changes with the loop (`" + "`, `".join(sorted(uses)) + "`): "
                    "a fresh closure, module or option per iteration recompiles every time"))
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
