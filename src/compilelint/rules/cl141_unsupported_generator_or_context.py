import libcst as cst

from compilelint.config import torch_version
from compilelint.finding import ENTERS
from compilelint.rules.base import Rule
from compilelint.semantic.kinds import dotted

# Context managers Dynamo cannot enter (measured on torch 2.11 and 2.13: GB0142, and the
# whole frame then runs eagerly because Dynamo cannot resume inside a `with`).
UNSUPPORTED = frozenset({
    "warnings.catch_warnings", "contextlib.redirect_stdout", "contextlib.redirect_stderr",
    "torch.autograd.detect_anomaly", "torch.autograd.set_detect_anomaly",
    "torch.autograd.anomaly_mode.detect_anomaly", "torch.autograd.anomaly_mode.set_detect_anomaly",
    "torch.autograd.graph.saved_tensors_hooks", "torch.autograd.graph.save_on_cpu",
    "torch.random.fork_rng", "torch.device", "torch.backends.cudnn.flags",
    "torch.backends.cuda.sdp_kernel", "numpy.errstate",
})
# Context managers of UNSUPPORTED that a later release traces -> that release.
# catch_warnings: one graph on 2.13.0 and 2.14.1; the break in the usual
# `with warnings.catch_warnings(): warnings.simplefilter(...)` is the simplefilter (CL112).
TRACED_FROM = {"warnings.catch_warnings": (2, 13)}
LOCKS = frozenset({
    "threading.Lock", "threading.RLock", "threading.Condition", "threading.Semaphore",
    "threading.BoundedSemaphore", "multiprocessing.Lock", "multiprocessing.RLock",
})
# Made before the region and entered in it (`self.ctx = torch.no_grad()` in __init__, then
# `with self.ctx:`): Dynamo enters these only when the `with` makes them (measured on 2.13:
# GB0142, the whole frame eager); a stored autocast or nullcontext is entered.
STORED_UNSUPPORTED = frozenset({
    "torch.no_grad", "torch.enable_grad", "torch.inference_mode", "torch.set_grad_enabled",
    "torch.autograd.no_grad", "torch.autograd.enable_grad", "torch.autograd.inference_mode",
    "torch.autograd.set_grad_enabled", "torch.autograd.grad_mode.no_grad",
    "torch.autograd.grad_mode.enable_grad", "torch.autograd.grad_mode.inference_mode",
    "torch.autograd.grad_mode.set_grad_enabled", "torch.nn.attention.sdpa_kernel",
})
# Entered through `ExitStack.enter_context(...)`: torch's grad-mode and autocast contexts and
# `nullcontext` break (measured on 2.13: GB0007 / GB0467 / GB0147, then GB0066 for the frame);
# a plain Python context manager (a class with `__enter__`, a @contextmanager generator,
# `contextlib.suppress`) is traced, and a context the linter cannot name claims nothing.
STACK_REFUSED = STORED_UNSUPPORTED | frozenset({
    "torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast", "torch.cpu.amp.autocast",
    "contextlib.nullcontext",
})
# A user context manager made before the region: GB0142 on 2.13 (measured), entered on
# 2.14.1 (measured); the stored grad-mode objects above break on both.
STORED_USER_TRACED_FROM = (2, 14)
# C functions that fold an iterable: given a generator expression, Dynamo can neither trace the
# call (GB0055) nor rebuild the generator for it (GB8335) and skips the frame (measured on 2.13;
# `sum`, `any`, `max`, `functools.reduce`, `str.join` and a list or tuple are traced)
GENERATOR_FOLDS = frozenset({"math.prod", "math.fsum"})
COMPILE = frozenset({"torch.compile"})
CONTEXTMANAGER = frozenset({"contextlib.contextmanager"})
# Before 2.7 (from PyTorch's release history, not measured here) Dynamo did not trace
# @contextlib.contextmanager functions; 2.11 and 2.13 (measured) do.
CONTEXTMANAGER_TRACED_FROM = (2, 7)


def _class_like(ref: str) -> bool:
    """A call of a class (`Scope`, `_Context`) or a grad-mode constructor, by its name."""
    return ref.rsplit(".", 1)[-1].lstrip("_")[:1].isupper() or ref in STORED_UNSUPPORTED


class UnsupportedGeneratorOrContext(Rule):
    code = "CL141"
    name = "unsupported-generator-or-context"
    summary = "generators / context managers where Dynamo breaks"
    message = ("{what} in a compiled region: Dynamo cannot enter this context manager, breaks the "
               "graph and, unable to resume inside the `with`, runs the whole function eagerly")
    severity = "error"
    gb_id = "GB0142"
    help = ("Move the `with` block out of the compiled region (or into a function under "
           "`torch.compiler.disable`); torch.no_grad, autocast, sdpa_kernel, nullcontext and your own "
           "context managers are fine when the `with` makes them (`with Timer():`), not when it enters "
           "one made before (`with self.timer:`).")
    project_phase = "compilelint.project_rules.cl141_entered"
    breaks_graph = True

    VALID = [
        """
import contextlib
import torch
class Flag:
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
@torch.compile
def f(x):
    with contextlib.ExitStack() as stack:
        stack.enter_context(Flag())  # a plain context manager: traced
        return x * 2
""",
        """
import contextlib
import threading
import warnings
import torch
_lock = threading.Lock()
@contextlib.contextmanager
def scaled(factor):
    yield factor
def gen(x):
    for i in range(3):
        yield x * i
class M(torch.nn.Module):
    def forward(self, x):
        with torch.no_grad(), torch.autocast("cpu"), contextlib.nullcontext():
            y = x * 2
        with scaled(2) as s:  # traced on torch 2.7+
            y = y * s
        with warnings.catch_warnings():  # traced on torch 2.13+ (a simplefilter inside is CL112's)
            y = y + 1
        return sum(gen(y))  # generators called from compiled code are inlined
def load(model):
    with _lock:  # not compiled
        return model
""",
        """
import contextlib
import torch
class Scope:
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.amp = torch.autocast("cpu")  # a stored autocast is entered
        self.scope = Scope()
    def forward(self, x):
        with Scope():  # made by the `with`: traced
            x = x * 2
        scope = Scope()
        with scope, self.amp, contextlib.nullcontext():
            x = x + 1
        return x
    def reset(self):
        with self.scope:  # not compiled
            pass
""",
        """
import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        with torch.device("meta"):  # __init__: eager
            self.proj = torch.nn.Linear(4, 4)
    def forward(self, x):
        return self.proj(x)
""",
    ]
    INVALID = [
        """
import threading
import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self._lock = threading.Lock()
    def forward(self, x):
        with self._lock:  # expect
            x = x + 1
        with torch.autograd.detect_anomaly():  # expect
            return x.relu()
""",
        """
import contextlib
import torch
class Frozen(torch.nn.Module):
    def forward(self, x):
        with contextlib.ExitStack() as stack:
            if self.freeze:
                stack.enter_context(torch.no_grad())  # expect
            return self.backbone(x)
""",
        """
import torch
class Scope:
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
SCOPE = Scope()
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scope = Scope()
        self.frozen = torch.no_grad()
    def forward(self, x):
        with self.scope:  # expect
            x = x * 2
        with SCOPE:  # expect
            x = x + 1
        with self.frozen:  # expect
            return x.relu()
""",
        """
import torch
@torch.compile
def batches(x):  # expect
    for row in x:
        yield row * 2
""",
        """
import math
import torch
@torch.compile
def log_mean_exp(x, dims):
    n = math.prod(x.shape[i] for i in dims)  # expect
    return torch.logsumexp(x, dim=dims) - math.log(n + math.prod([x.shape[i] for i in dims]))
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._contextmanagers: set[str] = set()
        self._generators: set[int] = set()  # functions (by node id) that contain `yield`
        self._lambdas = 0
        self._stacks: dict[int, set[str]] = {}  # function node id -> names holding an ExitStack
        # module-level name -> the class it is built from (the walker's module_var_class keeps
        # capitalised names only: `TRACKER = _Tracker()` is not in it)
        self._globals: dict[str, str] = {}

    def visit_Module(self, node: cst.Module) -> None:
        for stmt in node.body:  # `TRACKER = _Tracker()`: a global object, made at import
            if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 \
                    and isinstance(stmt.body[0], cst.Assign) and isinstance(stmt.body[0].value, cst.Call):
                func = stmt.body[0].value.func
                ref = self.ctx.qualify(func) or dotted(func) or ""
                for target in stmt.body[0].targets:
                    if isinstance(target.target, cst.Name) and _class_like(ref):
                        self._globals[target.target.value] = ref
        for stmt in node.body:
            if isinstance(stmt, cst.FunctionDef):
                for deco in stmt.decorators:
                    target = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
                    name = getattr(target, "attr", target)
                    if isinstance(name, cst.Name) and name.value == "contextmanager":
                        self._contextmanagers.add(stmt.name.value)

    def visit_Yield(self, node: cst.Yield) -> None:
        if self.ctx.function is not None and self._lambdas == 0:
            self._generators.add(id(self.ctx.function.node))

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._lambdas += 1

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self._lambdas -= 1

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        if id(node) not in self._generators:
            return
        compiled = any(
            (self.ctx.qualify(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) or "") in COMPILE
            for d in node.decorators)
        scope = self.ctx.function
        if compiled or (scope is not None and scope.is_forward):
            self.report(node.name, f"`{node.name.value}` is a generator function compiled as a whole: Dynamo "
                                   "does not compile generator frames, so every call runs eagerly (silently)",
                        help="Compile the function that consumes the generator, or make this one return a "
                            "tensor (or a list) instead of yielding.")

    def _lock(self, expr: cst.BaseExpression) -> str | None:
        scope = self.ctx.function
        if isinstance(expr, cst.Name):
            cls = (scope.var_class.get(expr.value) if scope else None) or self.ctx.module_var_class.get(expr.value)
            return expr.value if cls in LOCKS else None
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self" \
                and scope is not None and scope.class_name:
            info = self.ctx.class_table.get(scope.class_name)
            if info and info.attr_classes.get(expr.attr.value) in LOCKS:
                return f"self.{expr.attr.value}"
        return None

    def _is_stack(self, expr: cst.BaseExpression) -> bool:
        scope = self.ctx.function
        if scope is None or not isinstance(expr, cst.Name):
            return False
        return expr.value in self._stacks.get(id(scope.node), ()) or \
            scope.var_class.get(expr.value) == "contextlib.ExitStack"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if self._extremum_of_pairs(node):
            self.report(node, f"`{func.value}()` over a generator of tuples in a compiled region: Dynamo cannot trace "
                              f"`{func.value}` of a generator yielding tuples (GB0059) nor hand the generator back "
                              "(GB8335), so the whole function runs eagerly",
                        help=f"Build the list first (`{func.value}([(cost, i) for ...])`) or a tuple "
                             f"(`{func.value}(tuple(...))`): Dynamo folds those.")
            return
        generator = len(node.args) == 1 and isinstance(node.args[0].value, cst.GeneratorExp)
        folded = (self.ctx.qualify(func) or "") if generator else ""  # (qualified only for a generator's call)
        if folded in GENERATOR_FOLDS:
            self.report(node, f"`{folded}()` over a generator expression in a compiled region: Dynamo cannot hand "
                              "a generator to this C function (GB0055) nor rebuild it to run the call eagerly "
                              "(GB8335), so the whole function runs eagerly",
                        help=f"Give it a list (`{folded}([...])`) or a tuple: Dynamo folds those.")
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "enter_context" and self._is_stack(func.value) \
                and self._refused_through_stack(node):
            self.report(node, f"`{func.value.value}.enter_context(...)` in a compiled region: Dynamo cannot enter a "
                              "context through contextlib.ExitStack, breaks the graph and runs the whole function eagerly",
                        help="Use `with` statements Dynamo supports directly (`with torch.no_grad():`), or choose "
                            "the context with a conditional expression: `with torch.no_grad() if f else nullcontext():`.")

    def _extremum_of_pairs(self, node: cst.Call) -> bool:
        """`min((cost(p), p) for p in orders)`: the argmin-with-index idiom. A generator of
        numbers (`max(len(s) for s in seqs)`) and a list or tuple of pairs are traced."""
        return isinstance(node.func, cst.Name) and node.func.value in ("min", "max") \
            and self.ctx.qualify(node.func) in (None, f"builtins.{node.func.value}") and len(node.args) == 1 \
            and isinstance(node.args[0].value, cst.GeneratorExp) and isinstance(node.args[0].value.elt, cst.Tuple)

    def _refused_through_stack(self, node: cst.Call) -> bool:
        entered = node.args[0].value if node.args else None
        if not isinstance(entered, cst.Call):
            return False
        qualified = self.ctx.qualify(entered.func) or ""
        return qualified in STACK_REFUSED or qualified in UNSUPPORTED or qualified in LOCKS

    def visit_WithItem(self, node: cst.WithItem) -> None:
        expr = node.item
        if isinstance(expr, cst.Call):
            qualified = self.ctx.qualify(expr.func) or ""
            scope = self.ctx.function
            if qualified == "contextlib.ExitStack" and scope is not None and node.asname is not None \
                    and isinstance(node.asname.name, cst.Name):
                self._stacks.setdefault(id(scope.node), set()).add(node.asname.name.value)
            traced_from = TRACED_FROM.get(qualified)
            if traced_from is not None and torch_version(self.ctx.settings) >= traced_from:
                return
            if qualified in UNSUPPORTED or qualified in LOCKS:
                self.report(node, self.message.format(what=f"`with {qualified}(...)`"))
                return
            if isinstance(expr.func, cst.Name) and expr.func.value in self._contextmanagers \
                    and torch_version(self.ctx.settings) < CONTEXTMANAGER_TRACED_FROM:
                self.report(node, f"`with {expr.func.value}(...)`, a @contextlib.contextmanager function: this torch "
                                  "release cannot trace it and breaks the graph (supported from torch 2.7)",
                            severity="warning",
                            help="Write it as a class with __enter__/__exit__, or move the `with` out of the region.")
            return
        lock = self._lock(expr)
        if lock:
            self.report(node, self.message.format(what=f"`with {lock}` (a lock)"))
            return
        made = self._made_before(expr)
        if made is None:
            return
        what, ref = made
        cls = ref.rsplit(".", 1)[-1]
        message = (f"`with {what}` enters a context manager made before the compiled region (`{cls}`): "
                   "Dynamo enters one only where the `with` makes it, breaks the graph (GB0142) and "
                   "runs the whole function eagerly")
        if ref in STORED_UNSUPPORTED:
            self.report(node, message)
        elif not ref.startswith(("torch.", "contextlib.")) \
                and torch_version(self.ctx.settings) < STORED_USER_TRACED_FROM:
            local = self.ctx.local_class(ref)
            if local is not None and self._enters(local):
                self.report(node, message)
            else:  # a class of another file, or a base there: the project's class table decides
                self.report(node, message, needs=(f"{ENTERS}{ref}",))

    def _made_before(self, expr: cst.BaseExpression) -> tuple[str, str] | None:
        """(text, class) of an object built outside the function: a module global
        (`SCOPE = Scope()`) or an attribute `__init__` sets (`self.scope = Scope()`)."""
        scope = self.ctx.function
        if scope is None:
            return None
        if isinstance(expr, cst.Name):
            if self.ctx.locally_bound(expr.value):
                return None  # made (or passed) here
            ref = self._globals.get(expr.value)
            return (expr.value, ref) if ref else None
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self" \
                and scope.class_name:
            info = self.ctx.class_table.get(scope.class_name)
            ref = info.init_calls.get(expr.attr.value, "") if info is not None else ""
            if not ref and info is not None and expr.attr.value not in info.late_attrs:
                # `self.msngr = msngr` with `msngr: TraceMessenger` (pyro's handlers): the
                # constructor's caller built it, before the region as the instance itself
                ref = info.attr_classes.get(expr.attr.value, "")
            return (f"self.{expr.attr.value}", ref) if _class_like(ref) and "|" not in ref else None
        return None

    def _enters(self, local: str) -> bool:
        """Whether a class of this file, or a base of this file, defines `__enter__`."""
        seen = set()
        while local is not None and local not in seen:
            seen.add(local)
            info = self.ctx.class_table[local]
            if "__enter__" in info.methods:
                return True
            local = next(filter(None, map(self.ctx.local_class, info.bases)), None)
        return False
