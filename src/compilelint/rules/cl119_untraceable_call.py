import libcst as cst

from compilelint import knowledge
from compilelint.config import torch_version
from compilelint.finding import BUILT_CLASS, MODULE_CLASS
from compilelint.rules._generators import GeneratorScopes, draw_given_generator, generator_method
from compilelint.rules._inherited_calls import OwnOptimisers, inherited_call, method_names
from compilelint.rules._jitted import Jitted, jitted_call, jitted_functions
from compilelint.rules._kl_pairs import kl_severity
from compilelint.rules._sklearn import WRAPPED_WHY, file_classes, wrapped_call
from compilelint.rules._known_calls import (applied_call, draws_scalar, held_state, object_array, passes_mask,
                                             why_text)
from compilelint.rules._module_classes import (calls_script_module, callee_class, either_class, library_base,
                                                scripted_targets, type_pinned)
from compilelint.rules._random_draws import RandomDraws
from compilelint.rules._rnn_reads import WRAP_REFUSED, RnnReads
from compilelint.rules._rnn_walks import RnnHolders, walk
from compilelint.rules._sparse import file_model, product_when
from compilelint.rules.base import Rule
from compilelint.semantic.factories import FOREIGN  # classes no project defines
from compilelint.semantic.kinds import Kind

TENSOR = "torch.Tensor."  # the table's names of tensor methods
MODULE = "torch.nn.Module."  # and of nn.Module methods
# what makes a NumPy random object (its methods then break: CL119's `_numpy_rng_method`)
NUMPY_RNG_MAKERS = frozenset({"numpy.random.default_rng", *(f"numpy.random.{c}" for c in knowledge.NUMPY_RNG_CLASSES)})
UNTRACEABLE_HELP = ("Move the call to the eager caller or to `__init__` (a progress bar around the loop that calls "
                    "the compiled step, packing before the compiled call, NumPy quadrature nodes computed once and "
                    "kept as a buffer), or use the tensor directly for the legacy `Variable`.")
SCRIPT_MODULE = "torch.jit.ScriptModule"  # Dynamo refuses to call into one (module_classes.makes_script_module)


class UntraceableCall(Rule):
    code = "CL119"
    name = "untraceable-call"
    summary = ("calls Dynamo skips or refuses: `torch.manual_seed`, `random.*`, scalar `np.random` draws, "
               "`nn.LSTM`/`GRU`/`RNN`, sparse tensors (`sparse_csr_tensor`, `.to_sparse()`)")
    message = "{what} in a compiled region: {why}"
    severity = "error"
    gb_id = "GB0007"
    help = ("Seed and draw random numbers outside the region (or with torch's own RNG: `torch.rand`, "
            "`torch.randint`); create generators outside and pass them in; run RNN modules outside the "
            "compiled region or write the recurrence with cells.")
    breaks_graph = True
    project_phase = "compilelint.project_rules.cl119_held"

    VALID = [
        """
import numpy as np
import torch
RNG = np.random.default_rng(0)
GEN = torch.Generator()
NOISE = torch.randn(3, generator=GEN)  # module level: not compiled
class Jitter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.offsets = torch.from_numpy(RNG.normal(size=3))  # __init__: eager
    def forward(self, x):
        RNG = [0.5]  # a local of the same name: a list
        return x + self.offsets * RNG.count(0.5)
""",
        """
import torch
class Cached(torch.nn.Module):
    def __init__(self, body):
        super().__init__()
        self.body = body
        self.handle = body.register_forward_hook(self._keep)  # __init__: eager
    def _keep(self, module, args, out):
        self.last = out
    def forward(self, x):
        return self.body(x)  # runs the hook: traced
""",
        """
import torch
class Pruner:
    def to_sparse(self, x):  # a project method of the same name
        return x * (x > 0)
@torch.compile
def f(x):
    pruner = Pruner()
    return pruner.to_sparse(x)
""",
        """
import random
import numpy as np
import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)  # __init__: eager
        self.cell = torch.nn.LSTMCell(4, 4)  # cells are traced
    def forward(self, x):
        noise = np.random.rand(3)  # an array: traced through torch._numpy
        k = random.randint(0, 3)  # traced
        h, c = self.cell(x)
        return h + torch.rand_like(h) + k, noise
def main():
    torch.manual_seed(0)  # not compiled
    random.seed(0)
""",
        """
import random
import torch
rng = random.Random(0)
@torch.compile
def jitter(x, seed=None):
    y = x * rng.random()  # a draw only meeting tensors: traced
    rng2 = seed
    if seed is not None and rng2.random() > 0.5:  # not a `random.Random` here
        y = y + 1
    return y
@torch.compile
def shadowed(x, rng):
    if rng.random() > 0.5:  # the parameter, not the module's `random.Random`
        return x + 1
    return x
""",
        """
import torch
from torch.quasirandom import SobolEngine
class Points:
    def draw(self, n):  # a project class's own `draw`
        return torch.rand(n, 2)
class QMC(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("u", SobolEngine(2).draw(4))  # __init__: eager
        self.points = Points()
    def forward(self, x):
        return x + self.u + self.points.draw(4)
""",
        """
import torch
def noise(shape, generator=None):
    return torch.randn(shape, generator=generator)  # no caller passes a generator
class Denoiser(torch.nn.Module):
    def forward(self, x):
        return x - noise(x.shape) + torch.rand(x.shape, generator=None)
""",
    ]

    INVALID = [
        """
import torch
from sklearn.base import TransformerMixin
class Scaler(TransformerMixin):
    def transform(self, y):
        return y / 2
@torch.compile
def head(y):
    scaler = Scaler()
    return scaler.transform(y)  # expect
""",
        """
import torch
from torch.quasirandom import SobolEngine
class QMC(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.engine = SobolEngine(2, scramble=True)
    def forward(self, x):
        return x + self.engine.draw(4)  # expect
""",
        """
import torch
class Probe(torch.nn.Module):
    def forward(self, x):
        handle = self.body.register_forward_pre_hook(lambda m, args: None)  # expect
        y = self.body(x)
        handle.remove()
        return y
""",
        """
import torch
@torch.compile
def f(adj):
    return (adj @ adj).to_sparse_coo()  # expect
""",
        """
import random
import numpy as np
import torch
from torch import nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 8)
    def forward(self, x):
        torch.manual_seed(0)  # expect
        scale = np.random.rand()  # expect
        if random.uniform(0.0, 1.0) < 0.1:  # expect
            x = x.flip(-1)
        rng = random.Random(0)
        depth = rng.randrange(1, 4)
        if depth > 2:  # expect
            x = x * 2
        out, _ = self.lstm(x)  # expect
        return out * scale
""",
        """
import random
import torch
PENALTY_RNG = random.Random(1234)
@torch.compile
def penalty(x, proba=0.5):
    if PENALTY_RNG.random() > proba:  # expect
        return x.new_zeros(())
    return x.square().sum()
""",
        """
import numba
import numpy as np
import torch
RNG = np.random.default_rng(0)
@numba.jit(nopython=True)
def dtw(a):
    return a * 2
@torch.compile
def f(x):
    g = torch.Generator()  # expect
    n = torch.randn(x.shape, generator=g)  # expect
    d = dtw(np.ones(3))  # expect
    parts = np.empty(3, dtype=object)  # expect
    fine = np.zeros(3, dtype=np.float32)
    seeds = np.random.SeedSequence(entropy=3)  # expect
    s0, s1 = seeds.generate_state(2)  # expect
    j = RNG.normal()  # expect
    a = np.random.uniform(0.0, 1.0)  # expect
    b = np.random.uniform(0.0, 1.0, 3)  # a shape: traced
    c = np.random.normal(size=(2,))  # traced
    gru = torch.nn.GRU(4, 4)
    y, _ = gru(x)  # expect
    return y + a + n
""",
        """
import torch
class Centers(torch.nn.Module):
    seed = 7
    def forward(self, x):
        if self.seed is not None:
            gen = torch.Generator(device=x.device)  # expect
            gen.manual_seed(self.seed)  # expect
        else:
            gen = None
        return x[torch.multinomial(x.new_ones(x.shape[0]), 2, generator=gen)]  # expect
""",
        """
import torch
GENERATOR = torch.Generator().manual_seed(0)
def noise(shape, generator=None):
    return torch.randn(shape, generator=generator)  # expect
class Denoiser(torch.nn.Module):
    def forward(self, x):
        return x - noise(x.shape, generator=GENERATOR)
""",
        """
import torch
import torch.nn as nn
class Noise(nn.Module):
    def __init__(self, rng: torch.Generator = None):
        super().__init__()
        self.rng = rng
    def forward(self, x, seed: int = 0):
        self.rng.manual_seed(seed)  # expect
        return x + torch.randn(x.shape)
""",
        """
import torch
from torch import nn
class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 4)
    @staticmethod
    def sequence(x, lstm: nn.LSTM, cell: nn.LSTMCell = None):
        n = lstm.input_size  # expect
        out, _ = lstm(x.reshape(-1, 1, n))
        return out
    def forward(self, x):
        return self.sequence(x, self.lstm)  # expect
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._known = knowledge.table(self.code, torch_version(walker.settings))
        self._methods = method_names(self._known)  # what a class may inherit from a base the table names
        self._draws = RandomDraws(self.ctx, self._known)  # Python `random` draws Dynamo traces
        # names and `self.` attributes bound to a TorchScript module: (class or None, name)
        self._scripted: set[tuple[str | None, str]] = set()
        self._numpy_rngs: list[set[str]] = [set()]  # per function (the module's first): NumPy random objects
        self._jitted = Jitted()  # the module's Numba functions and scripted Function methods
        self._rnn = RnnReads(self.ctx, self._known)
        self._holders = RnnHolders()  # the file's classes holding an RNN module (rules._rnn_walks)
        self._stored: set[int] = set()  # `self.x = ...` targets: not reads
        self._generators = GeneratorScopes()  # what holds a torch.Generator
        self._classes: dict = {}  # the file's classes, when it imports scikit-learn (rules._sklearn)
        self._own_optimisers = OwnOptimisers()  # the holders the file hands a project optimiser

    def visit_Module(self, node: cst.Module) -> None:
        self._own_optimisers = OwnOptimisers(node)  # (read only if a `step()` on an `Optimizer` asks)
        self._jitted = jitted_functions(node)
        self._holders = self._rnn.holders = RnnHolders(node, self.ctx.text)
        self._classes = file_classes(node) if "sklearn" in self.ctx.text else {}
        file_model(self.ctx, node)  # which sparse products come after the frame's first use (CL153)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._generators.enter(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._draws.enter_function()
        self._numpy_rngs.append(set())
        self._rnn.enter(node)
        self._generators.enter(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._draws.leave_function()
        self._numpy_rngs.pop()
        self._rnn.leave()
        self._generators.leave()

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._generators.leave()

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._draws.depth += 1
        self._rnn.blocks.append(node)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._draws.depth -= 1
        self._rnn.blocks.pop()

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._rnn.blocks.append(node)

    def leave_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._rnn.blocks.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        self._stored.update(id(t.target) for t in node.targets)
        self._scripted.update(scripted_targets(self.ctx, node))
        names = [t.target.value for t in node.targets if isinstance(t.target, cst.Name)]
        self._draws.assign(names, node.value)
        numpy_rng = isinstance(node.value, cst.Call) and self.ctx.qualify(node.value.func) in NUMPY_RNG_MAKERS
        for name in names:
            (self._numpy_rngs[-1].add if numpy_rng else self._numpy_rngs[-1].discard)(name)

    # a "branch" draw is traced; the test that decides on it breaks (GB0170)
    def visit_If(self, node: cst.If) -> None:
        self._branch_draws(node.test)
        if pinned := type_pinned(self.ctx, node):  # (before its test's read of the attribute is walked)
            self._rnn.tested[-1].setdefault(*pinned)

    def visit_While(self, node: cst.While) -> None:
        self._branch_draws(node.test)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._branch_draws(node.test)

    def _branch_draws(self, test: cst.BaseExpression) -> None:
        if (found := self._draws.branch(test)) is not None:
            node, what, qualified, when = found
            self.report(node, self.message.format(what=what, why=why_text(self._known.get(qualified))), when=when)

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func)
        if draw_given_generator(self, node, qualified) or generator_method(self, node, self._generators) \
                or self._numpy_rng_method(node) or object_array(self, node, qualified):
            return
        if (jitted := jitted_call(self._jitted, node, self.ctx)) is not None:
            self.report(node, self.message.format(what=jitted[0], why=jitted[1]), help=jitted[2])
            return
        entry = self._known.get(qualified)
        if entry is not None and entry.form == "dispatch":
            if severity := kl_severity(self.ctx, node):
                self.report(node, self.message.format(what=f"`{qualified}()`", why=why_text(entry)),
                            help=entry.note[:1].upper() + entry.note[1:] + ".", severity=severity)
            return
        if entry is None and (applied := applied_call(node, self.ctx.qualify)) is not None \
                and (inner := self._known.get(self.ctx.qualify(applied[1]))) is not None \
                and inner.form == "call" and inner.size_at is None:
            # `map(partial(jacobian, f), rows)`: the call runs `jacobian`
            entry, qualified = inner, f"{self.ctx.qualify(applied[1])}` through `{applied[0]}"
        if entry is not None and entry.form == "call":
            when = product_when(self.ctx, node) if entry.gb_id == "GB0015" else ()
            if when is None:
                return  # the frame broke at an earlier use of the sparse tensor (CL153)
            if entry.size_at is None or draws_scalar(node, entry.size_at):
                self.report(node, self.message.format(what=f"`{qualified}()`", why=why_text(entry)),
                            help=None if entry.category == "rng" else UNTRACEABLE_HELP, when=when)
            return
        if (walked := walk(self.ctx, self._known, self._holders, node)) is not None:
            if self._rnn.first_read(cst.Attribute(cst.Name("self"), cst.Name(walked[2]))):
                self.report(node, self.message.format(what=walked[0], why=why_text(walked[1])))
            return
        if qualified is None and isinstance(node.func, cst.Attribute) and (
                self._tensor_method(node) or self._module_method(node)):
            return
        if isinstance(node.func, cst.Attribute) and self._object_method(node):
            return
        if (what := wrapped_call(node, self.ctx, self._classes)) is not None:
            self.report(node, self.message.format(what=what, why=WRAPPED_WHY), help=UNTRACEABLE_HELP)
            return
        if self._scripted and calls_script_module(self.ctx, self._scripted, node.func):
            entry = self._known.get(SCRIPT_MODULE)
            if entry is not None:
                self.report(node, self.message.format(what="calling a TorchScript module", why=why_text(entry)),
                            help="Compile the eager module instead of its TorchScript version (keep the "
                                 "`nn.Module` and call it), or call the TorchScript module outside the region.")
            return
        if isinstance(node.func, cst.Attribute) and inherited_call(
                self, node, callee_class(self.ctx, self._known, node.func.value), self._methods):
            return
        if (index := self.ctx.class_call(node)) is not None:  # does building it break? (project_rules.cl119_held)
            self.report(node, needs=(f"{BUILT_CLASS}{self.ctx.function.qualname}|{index}",))
            return
        called = callee_class(self.ctx, self._known, node.func)
        if called is None and isinstance(node.func, cst.Name):
            called = self._rnn.params[-1].get(node.func.value)
        cls = library_base(self.ctx, self._known, called)
        entry = self._known.get(cls)
        if entry is not None and entry.form == "instance":
            if entry.masked and not passes_mask(node, entry.masked):
                return
            if entry.gb_id != WRAP_REFUSED or self._rnn.first_read(node.func):
                what = "calling an " + " or ".join(f"`nn.{c.rsplit('.', 1)[-1]}`"
                                                   for c in either_class(self.ctx, self._known, node.func, cls))
                self.report(node, self.message.format(what=what, why=why_text(entry)))
        elif entry is None and called and self.ctx.local_class(called) is None and not called.startswith(FOREIGN):
            index = self.ctx.edge_index(node)  # (a class of another file, a factory's: project_rules.cl119_held)
            if index is not None:
                self.report(node, self.message.format(what="calling `{cls}`, a subclass of `{base}`,", why="{why}"),
                            needs=(f"{MODULE_CLASS}{self.ctx.function.qualname}|{index}",))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if id(node) not in self._stored and (read := self._rnn.read(node)) is not None:
            what, entry, when = read
            self.report(node, self.message.format(what=what, why=why_text(entry)), when=when)

    def _numpy_rng_method(self, node: cst.Call) -> bool:
        """`rng.normal(...)` / `seeds.generate_state(4)` on a name the function (or the module)
        binds to a NumPy random object: its methods are skipped or unsupported (GB0008, GB0156)."""
        func = node.func
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return False
        name = func.value.value
        if not (name in self._numpy_rngs[-1] or (
                len(self._numpy_rngs) > 1 and name in self._numpy_rngs[0] and not self.ctx.locally_bound(name))):
            return False
        self.report(node, self.message.format(
            what=f"`{name}.{func.attr.value}()`, a method of a NumPy random object,", why=(
                "Dynamo does not trace NumPy's random objects (their methods are skipped) and breaks the graph (GB0008, GB0156)")),
            help="Draw with torch's RNG inside the region (seed it outside), or draw the numbers outside and "
                 "pass them in.")
        return True

    def _tensor_method(self, node: cst.Call) -> bool:
        """`x.to_sparse()`: a tensor method the table knows, on what may be a tensor (not a
        Python value, a module, or an object built from a class, whose own method it is)."""
        func = node.func
        entry = self._known.get(TENSOR + func.attr.value)
        receiver, scope = func.value, self.ctx.function
        if entry is None or entry.form not in ("call", "input"):
            return False
        if entry.form == "input" and not held_state(receiver):
            return False
        kind = self.ctx.kind(receiver)
        if kind in (Kind.VALUE, Kind.MODULE) or (isinstance(receiver, cst.Name) and (
                receiver.value == "self" or (scope is not None and receiver.value in scope.var_class))):
            return False
        self.report(node, self.message.format(what=f"`.{func.attr.value}()`", why=why_text(entry)),
                    severity="error" if kind == Kind.TENSOR else "warning")
        return True

    def _object_method(self, node: cst.Call) -> bool:
        """`self.engine.draw(n)`: a method the table names as `Class.method`, on an object built
        from that class here (a look-alike method of another class is its own)."""
        func = node.func
        cls = callee_class(self.ctx, self._known, func.value)
        entry = self._known.get(f"{cls}.{func.attr.value}") if cls else None
        if entry is None or entry.form != "method":
            return False
        what = f"`{cls.rsplit('.', 1)[-1]}.{func.attr.value}()`"
        self.report(node, self.message.format(what=what, why=why_text(entry)), help=UNTRACEABLE_HELP)
        return True

    def _module_method(self, node: cst.Call) -> bool:
        """`layer.key.register_forward_hook(fn)`: an nn.Module method the table knows, by its
        name (distinctive enough that the receiver need not be typed), on anything but a
        Python value or a tensor."""
        entry = self._known.get(MODULE + node.func.attr.value)
        if entry is None or entry.form != "call" or self.ctx.kind(node.func.value) in (Kind.VALUE, Kind.TENSOR):
            return False
        self.report(node, self.message.format(what=f"`.{node.func.attr.value}()`", why=why_text(entry)),
                    help="Register hooks once, outside the compiled region (in `__init__`, or before "
                         "`torch.compile`), and keep the handles to remove them later.")
        return True
