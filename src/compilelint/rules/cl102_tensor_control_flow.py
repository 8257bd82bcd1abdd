import libcst as cst

from compilelint.semantic.guards import not_tensors
from compilelint.semantic.kinds import Kind
from compilelint.semantic.loops import test_operands
from compilelint.semantic.ndarrays import is_ndarray
from compilelint.rules._callsite import mapped_builtin, target_version
from compilelint.rules.base import Rule
from compilelint.traverse import iter_nodes

CASTS = {"builtins.bool": "bool", "builtins.int": "int", "builtins.float": "float"}
# Python's number functions, given a tensor, need its value: `math.*` converts it to a float
# (GB0033); builtin `pow()` is not traced on a tensor before 2.14 (GB0059). `abs()`, `min()`
# and `max()` are traced (`round()` and `divmod()` of a tensor fail in eager too).
NUMBER_BUILTINS = {"builtins.pow": 2}
POW_TRACED = (2, 14)
MATH_ITERABLES = frozenset({"math.prod", "math.fsum", "math.dist", "math.sumprod"})
ORDERING = {"builtins.sorted": "sorted", "builtins.min": "min", "builtins.max": "max"}


def _constant_text(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.SimpleString):
        return True
    if isinstance(node, cst.ConcatenatedString):
        return _constant_text(node.left) and _constant_text(node.right)
    if isinstance(node, cst.FormattedString):
        return not any(isinstance(part, cst.FormattedStringExpression) for part in node.parts)
    return False


class TensorControlFlow(Rule):
    code = "CL102"
    name = "tensor-control-flow"
    summary = "`if`/`while`/`assert`/`and`/`or`/`not`/ternary/`bool()`/`int()`/`float()` on a tensor"
    message = "{what} on a tensor value: Dynamo cannot know which way to go and breaks the graph"
    severity = "error"
    guessed_parameters = True
    gb_id = "GB0170"
    help = ("Keep it in the graph: `torch.where(cond, a, b)` for values, `torch.cond(pred, true_fn, false_fn, "
           "(x,))` for branches, or branch on shapes and flags (Python values) instead.")
    breaks_graph = infers_across_functions = True

    VALID = [
        """
import torch
class LowRank(torch.nn.Module):
    def wide(self, S):
        if S.size(-1) <= 2:
            return False
        return S.size(-1) > 3
    def forward(self, X):
        return X * 2 if self.wide(X) else X
""",
        """
import torch
class Kernels(torch.nn.Module):
    def forward(self, x, wcos: torch.Tensor, wsin: torch.Tensor):
        if wcos == None or wsin == None:  # a tensor's == with None is Python's False
            return x
        return x * wcos + wsin
""",
        """
import math
import torch
class Sized(torch.nn.Module):
    def forward(self, x):
        trainable = all(p.requires_grad for p in self.parameters())  # Python bools
        nonempty = all(n > 0 for n in x.shape)  # sizes
        positive = torch.stack([row.sum() for row in x.unbind(0)]) > 0  # reduced in the graph
        scale = math.sqrt(x.shape[-1]) * max(x.max(), abs(x.min()))  # a size; traced builtins
        return torch.where(positive.all(), x, -x) * scale if trainable and nonempty else x
""",
        """
import torch
class Checked(torch.nn.Module):
    def forward(self, t, y):
        assert (t[1:] > t[:-1]).all()  # traced: torch._assert
        assert torch.isfinite(y).all(), "non-finite state"  # a constant message: traced too
        assert y.dim() == 2, f"expected 2-D, got {y.dim()}-D"  # a shape: a Python value
        torch._assert(y.shape[-1] == 4, "expected 4 features")  # a Python bool
        torch._assert_async((y > -1e4).all())  # checked on the device, in the graph
        return y * 2
""",
        """
import torch
from transformers.utils.import_utils import is_tracing
class Packed(torch.nn.Module):
    def forward(self, position_ids):
        mask = (torch.diff(position_ids, dim=-1) != 1).cumsum(-1)
        if not is_tracing(mask) and (mask[:, -1] == 0).all():
            return None  # eager-only check: under Dynamo the `and` stops at `not is_tracing()`
        if torch.compiler.is_compiling() or mask.any():
            return mask
        return mask
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x, mask=None):
        if x.shape[0] > 2:
            x = x * 2
        if self.training:
            x = x + 1
        if mask is None:
            mask = torch.ones_like(x)
        if x.dtype == torch.float16:
            x = x.float()
        if len(x) and x.dim() == 2 and x.size(-1) % 8 == 0:
            x = x.relu()
        assert x.ndim == 2, "expects a matrix"
        assert (x >= 0).all(), "Dynamo turns an assert on a tensor into a runtime check"
        return x if mask is not None else x
""",
        """
import torch
class Reshaper(torch.nn.Module):
    def forward(self, h):
        dims = list(map(int, h.shape))  # sizes: Python ints
        major = int(torch.__version__.split(".")[0])  # text
        return h.view(dims[0], -1) * major
""",
        """
import torch
def report(loss):
    if loss > 0:  # not compiled: nothing calls this from a compiled region
        print(loss)
class M(torch.nn.Module):
    def forward(self, x, scale: float = 1.0, use_bias: bool = True):
        if scale != 1.0 and use_bias:
            x = x * scale
        n = x.size(0)
        while n > 1:
            n //= 2
        step = 1.0
        while step > 1e-3:  # Python numbers on every pass
            x = x + step
            step = step / 2
        return x
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        if torch.compiler.is_compiling():
            return x
        else:
            if x.sum() > 0:  # runs only eagerly
                return x
        return -x
""",
        """
import torch
class Arrange(torch.nn.Module):
    def forward(self, x):
        dims = sorted(x.shape, reverse=True)
        parts = sorted([x, x[:2]], key=lambda t: t.shape[0])
        order = sorted(range(x.shape[0]), key=lambda i: -i)
        return x[order].reshape(dims[0], -1) + parts[0].sum() + max(x[0])
""",
    ]
    INVALID = [
        """
import torch
class LowRank(torch.nn.Module):
    def in_manifold(self, S):
        if S.size(-1) <= 2:
            return True
        return (S[..., 2:].abs() < 1e-5).all()
    def forward(self, X):
        U, S, Vt = torch.linalg.svd(X, full_matrices=False)
        if not self.in_manifold(S):  # expect
            raise ValueError("not of low rank")
        return U[..., :2] * S[..., None, :2]
""",
        """
import torch
class Checked(torch.nn.Module):
    def forward(self, t, y):
        assert (t[1:] > t[:-1]).all(), "t must increase: {}".format(t)  # expect
        assert torch.isfinite(y).all(), f"non-finite state {y}"  # expect
        torch._assert((y > -1e4).all(), "out of range")  # expect
        return y * 2
""",
        """
import torch
class Gate(torch.nn.Module):
    def forward(self, x):
        # the guard decides the other way: under Dynamo the tensor side is evaluated
        if torch.compiler.is_compiling() and x.any():  # expect
            x = x + 1
        if not torch.compiler.is_compiling() or x.all():  # expect
            x = x * 2
        return x
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # expect
            return x
        return -x
""",
        """
import torch
@torch.compile
def f(x: torch.Tensor, y):
    z = torch.relu(x)
    while z.max() > 1:  # expect
        z = z / 2
    ok = bool(z.mean())  # expect
    steps = int(z.sum())  # expect
    return z if z.min() > 0 else -z  # expect
""",
        """
import torch
@torch.compile
def solve(a, x):
    diff, i = float("inf"), 0
    while i < 50 and diff > 1e-6:  # expect
        x_next = 0.5 * (x + a / x)
        diff = (x_next - x).abs().max()  # a tensor from the second test on
        x, i = x_next, i + 1
    return x
@torch.compile
def relax(x, a):
    err = 1.0
    while err > 1e-4:  # expect
        def step(v):  # a function defined in the body does not end the loop's bookkeeping
            return 0.5 * (v + a / v)
        x_next = step(x)
        err = (x_next - x).abs().max()
        x = x_next
    return x
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        done = torch.isnan(x).any()
        if not done:  # expect
            x = x + 1
        return x
""",
        """
import torch
class M(torch.nn.Module):
    def forward(self, x):
        to_drop = torch.rand(3) < 0.1
        if all(to_drop):  # expect
            x = x * 0
        skip = self.training and torch.rand([]) < 0.1
        if not skip:  # expect
            x = x + 1
        return x
""",
        """
import torch
def increasing(ts):
    return all(t0 < t1 for t0, t1 in zip(ts[:-1], ts[1:]))  # expect
class M(torch.nn.Module):
    def forward(self, x):
        if any([row.sum() > 0 for row in x.unbind(0)]):  # expect
            x = x * 2
        return x if increasing(x[:, 0]) else -x
""",
        """
import torch
class RaggedMean(torch.nn.Module):
    def forward(self, h, mask):
        lengths = list(map(int, mask.sum(-1)))  # expect
        return torch.stack([h[i, :n].mean(0) for i, n in enumerate(lengths)])
""",
        """
import math
import torch
class Sampler(torch.nn.Module):
    def forward(self, logits):
        temperature = math.sqrt(logits.std() + 1.0)  # expect
        if math.isnan(logits.sum()):  # expect
            return logits
        return logits / temperature
""",
        """
import torch
class Reorder(torch.nn.Module):
    def forward(self, x):
        scores = x.sum(-1)
        best = max(range(x.shape[0]), key=scores.__getitem__)  # expect
        order = sorted(range(x.shape[0]), key=lambda i: x[i].sum())  # expect
        return x[order] * sorted(x[0])[0] + x[best]  # expect
""",
    ]

    def __init__(self, *args, **kwargs) -> None:  # state: guards passed down to sub-expressions
        super().__init__(*args, **kwargs)
        # names known not to be tensors where a node runs: `elif` after `if isinstance(s, Tensor)`,
        # the right side of `not isinstance(t, float) or t != 1`; set again on a re-run
        self._guards: dict[int, frozenset[str]] = {}
        # `and`/`or` expressions whose value is tested for truth (an `if`'s test, `not x`):
        # elsewhere (`skip = self.training and rand < p`) the last operand is only returned
        self._tested: set[int] = set()
        # per `while` of the function being walked: its test's operands judged on the first pass
        self._first_pass: dict[int, set[int]] = {}

    def _guard(self, node: cst.CSTNode, names: frozenset[str]) -> None:
        if names:
            self._guards[id(node)] = names

    def _check(self, test: cst.BaseExpression, what: str, anchor: cst.CSTNode | None = None) -> None:
        self._tested.add(id(test))
        if isinstance(test, cst.BooleanOperation) or (
            isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
        ):
            return  # reported operand by operand
        with self.ctx.narrowed(self._guards.get(id(test), frozenset())):
            kind = self.ctx.kind(test)
        if kind.tensorish:
            self.report(anchor or test, self.message.format(what=what),
                        severity="error" if kind == Kind.TENSOR else "warning")

    def visit_If(self, node: cst.If) -> None:
        above = self._guards.get(id(node), frozenset())
        self._guard(node.test, above)
        self._check(node.test, "`if`")
        if isinstance(node.orelse, cst.If):  # an `elif` runs only when the tests above were false
            self._guard(node.orelse, above | not_tensors(node.test, False))

    def visit_While(self, node: cst.While) -> None:
        self._check(node.test, "`while`")
        # the first pass tests the values bound before the loop; the next passes test the body's
        if self.ctx.assuming is None:  # (not the walker's re-run that takes open values for tensors)
            self._first_pass[id(node)] = {id(op) for op in test_operands(node.test) if self.ctx.kind(op).tensorish}

    def leave_While(self, node: cst.While) -> None:
        # (read, not popped: the walker may run this handler twice, see Walker._run_assuming)
        judged = self._first_pass.get(id(node))
        if judged is None:
            return
        for op in test_operands(node.test):
            if id(op) in judged:
                continue
            with self.ctx.narrowed(self._guards.get(id(op), frozenset())):
                kind = self.ctx.kind(op)
            if kind == Kind.TENSOR:  # `diff = inf` before the loop, `diff = (x - x_new).norm()` in it
                self.report(op, "`while` on a value the loop's body makes a tensor: from the second pass on, "
                                "Dynamo cannot know which way to go and breaks the graph")

    def visit_Assert(self, node: cst.Assert) -> None:
        # Dynamo turns `assert t.all()` and `assert t.all(), "text"` into `torch._assert`; a
        # message it must compute (`.format(...)`, an f-string with fields) needs the branch
        if node.msg is not None and not _constant_text(node.msg):
            self._check(node.test, "`assert` (with a computed message)")

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._check(node.test, "a conditional expression")

    def visit_CompIf(self, node: cst.CompIf) -> None:
        self._check(node.test, "a comprehension's `if`")

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        is_and = isinstance(node.operator, cst.And)
        op = "and" if is_and else "or"
        above = self._guards.get(id(node), frozenset())
        self._guard(node.left, above)
        # the right side runs only when the left is true (`and`) or false (`or`)
        self._guard(node.right, above | not_tensors(node.left, is_and))
        self._check(node.left, f"`{op}`")
        # `not is_compiling() and t.any()` / `is_compiling() or t.any()`: under Dynamo
        # the left side decides and the right side never runs
        decided = self.ctx.compiling_guard(node.left) is (not is_and)
        if not decided and id(node) in self._tested:
            self._check(node.right, f"`{op}`")

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            self._guard(node.expression, self._guards.get(id(node), frozenset()))
            self._check(node.expression, "`not`")

    def visit_Call(self, node: cst.Call) -> None:
        qualified = self.ctx.qualify(node.func) or ""
        if qualified == "torch._assert" and node.args and node.args[0].keyword is None:
            # `torch._assert` is Python (`assert condition, message` with a message it is
            # handed): unlike a plain `assert t.all()`, Dynamo needs the value (GB0033)
            kind = self.ctx.kind(node.args[0].value)
            if kind.tensorish:
                self.report(node.args[0].value, self.message.format(what="`torch._assert`"),
                            severity="error" if kind == Kind.TENSOR else "warning",
                            help="Use `torch._assert_async(cond)` (checked on the device, in the graph), or a plain "
                                 "`assert cond` with a constant message, which Dynamo turns into one.")
            return
        if qualified in ("builtins.all", "builtins.any") and len(node.args) == 1 and node.args[0].keyword is None:
            kind = self.ctx.kind(node.args[0].value)
            if kind.tensorish and not is_ndarray(node.args[0].value, self.ctx):
                self.report(node, f"`{qualified[9:]}()` of a tensor tests each element's truth: Dynamo must know the "
                                  "values and breaks the graph",
                            severity="error" if kind == Kind.TENSOR else "warning",
                            help=f"Reduce in the graph: `t.{qualified[9:]}()` gives a tensor; branch on it with "
                                 "`torch.where` / `torch.cond`, or read it after the compiled call.")
                return
        if (mapped := mapped_builtin(node, self.ctx.qualify)) and (cast := mapped[0]) in CASTS.values():
            # `list(map(int, counts))`: each element's `int()` (GB0124, measured on 2.13.0 and 2.14.1)
            kind = self.ctx.kind(mapped[1])
            if kind.tensorish and not is_ndarray(mapped[1], self.ctx):  # arrays: CL105
                self.report(node, f"`map({cast}, ...)` over a tensor: `{cast}()` of each element needs its value, so "
                                  "Dynamo breaks the graph",
                            severity="error" if kind == Kind.TENSOR else "warning",
                            help="Keep the values in a tensor (`counts.long()`, `counts.tolist()` after the compiled "
                                 "call), or move the conversion out of the region.")
            return
        if qualified in ORDERING and self._ordering(node, ORDERING[qualified]):
            return
        cast = CASTS.get(qualified)
        if cast and len(node.args) == 1 and node.args[0].keyword is None:
            kind = self.ctx.kind(node.args[0].value)
            if kind.tensorish and not is_ndarray(node.args[0].value, self.ctx):  # arrays: CL105
                self.report(node, f"`{cast}()` of a tensor: Dynamo must know its value and breaks the graph",
                            severity="error" if kind == Kind.TENSOR else "warning",
                            help="Keep the value as a tensor (`x.to(torch.bool)`, `x.long()`), or move the conversion out of the region.")
            return
        self._number_function(node, qualified)

    def _ordering(self, node: cst.Call, name: str) -> bool:
        """`sorted(t)`, `sorted(range(n), key=lambda i: x[i].sum())`, `max(range(n),
        key=scores.__getitem__)`: Python compares the elements or the keys, tensors whose values
        Dynamo must know (GB0059, GB0207; measured on 2.13.0 and 2.14.1). `max(t)` alone is traced."""
        key = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "key"), None)
        positional = [a for a in node.args if a.keyword is None]
        if len(positional) == 1 and not positional[0].star and (name == "sorted" or key is not None):
            if isinstance(key, cst.Attribute) and key.value.deep_equals(positional[0].value):
                return False  # `max(probs, key=probs.get)`: a mapping ordered by its values (whisper)
            kind = self.ctx.kind(positional[0].value)  # (any key: what it gives of a tensor's element is one)
            if kind.tensorish and not is_ndarray(positional[0].value, self.ctx):
                self._report_ordering(node, f"`{name}()` of a tensor compares its elements", kind)
                return True
        if key is None:
            return False
        if isinstance(key, cst.Lambda):
            bound = {p.name.value for p in key.params.params}
            if any(isinstance(n, (cst.Attribute, cst.Subscript)) and isinstance(n.value, cst.Name)
                   and n.value.value in bound for n in iter_nodes(key.body)):
                return False  # (`key=lambda t: t.shape[0]`: what the key reads of each element, unknown here)
            compared, what = key.body, f"`{name}()` with a key that gives a tensor compares tensors"
        elif isinstance(key, cst.Attribute) and key.attr.value == "__getitem__":
            compared, what = key.value, f"`{name}()` keyed by a tensor's elements compares tensors"
        else:
            return False
        kind = self.ctx.kind(compared)
        if not kind.tensorish or is_ndarray(compared, self.ctx):
            return False
        self._report_ordering(node, what, kind)
        return True

    def _report_ordering(self, node: cst.Call, what: str, kind: Kind) -> None:
        self.report(node, f"{what}: Dynamo must know their values and breaks the graph",
                    severity="error" if kind == Kind.TENSOR else "warning",
                    help="Order in the graph: `torch.sort(t)`, `torch.argsort(keys)`, `keys.argmax()` give tensors "
                         "to index with.")

    def _number_function(self, node: cst.Call, qualified: str) -> None:
        """`math.sqrt(t.sum())`, `pow(t.sum(), 2)`: a tensor where Python wants a number."""
        if qualified.startswith("math.") and qualified not in MATH_ITERABLES:
            count = len(node.args)
        elif qualified in NUMBER_BUILTINS and target_version(self.ctx) < POW_TRACED:
            count = NUMBER_BUILTINS[qualified]
        else:
            return
        for arg in node.args[:count]:
            if arg.keyword is not None or arg.star:
                break
            kind = self.ctx.kind(arg.value)
            if kind.tensorish and not is_ndarray(arg.value, self.ctx):
                name = qualified.removeprefix("builtins.")
                self.report(node, f"`{name}()` of a tensor: Dynamo must know its value and breaks the graph",
                            severity="error" if kind == Kind.TENSOR else "warning",
                            help="Use the tensor operation (`torch.sqrt(t)`, `t.log()`, `t ** 2`, "
                                 "`torch.isnan(t)`), which stays in the graph, or move the conversion out of the region.")
                return

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        if len(self.ctx.scopes) <= 1:  # (leaving a function, not one nested in a `while`'s body)
            self._first_pass.clear()  # no node ids kept past it: the language server compares rule state

    def leave_Call(self, node: cst.Call) -> None:
        # `all(t0 < t1 for t0, t1 in zip(ts[:-1], ts[1:]))`: Dynamo's `all` tests each element
        # (GB0170), then cannot rebuild the generator (GB8335) and runs the function eagerly;
        # read on leave, once the comprehension's names are bound
        qualified = self.ctx.qualify(node.func) or ""
        if qualified not in ("builtins.all", "builtins.any") or len(node.args) != 1 or node.args[0].keyword:
            return
        arg = node.args[0].value
        if not isinstance(arg, (cst.GeneratorExp, cst.ListComp, cst.SetComp)):
            return
        kind = self.ctx.kind(arg.elt)
        if kind.tensorish and not is_ndarray(arg.elt, self.ctx):
            name = qualified[9:]
            self.report(node, f"`{name}()` of tensors tests each one's truth: Dynamo must know the values and "
                              "breaks the graph",
                        severity="error" if kind == Kind.TENSOR else "warning",
                        help=f"Stack and reduce in the graph: `torch.stack([...]).{name}()` gives a tensor; branch "
                             "on it with `torch.where` / `torch.cond`, or check it before the compiled call.")
