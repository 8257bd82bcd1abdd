import libcst as cst

from compilelint.finding import nograd_label
from compilelint.rules._callsite import keyword_value
from compilelint.semantic.facts import facts_of
from compilelint.semantic.guards import conditions
from compilelint.semantic.kinds import AUTOGRAD_FUNCTIONS, NEW_TENSOR_METHODS, Kind, is_self_attribute
from compilelint.traverse import iter_nodes
from compilelint.rules.base import Rule

MODULE_WALKS = frozenset({"parameters", "named_parameters", "children", "named_children", "modules", "named_modules"})
GRAD_ON = frozenset({"torch.enable_grad", "torch.autograd.enable_grad", "torch.autograd.grad_mode.enable_grad"})
PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
FACTORIES = frozenset({
    "zeros", "ones", "empty", "full", "rand", "randn", "randint", "tensor", "arange", "linspace",
    "logspace", "eye", "zeros_like", "ones_like", "empty_like", "full_like", "rand_like",
    "randn_like", "randint_like", "as_tensor", "normal",
})


class RequiresGradToggle(Rule):
    code = "CL132"
    name = "requires-grad-toggle"
    summary = "`.requires_grad_()` and `requires_grad` changes in a region"
    message = ("`.requires_grad_()` inside the compiled region: Dynamo does not support changing a "
               "tensor's requires_grad while tracing and breaks the graph")
    severity = "warning"
    gb_id = "GB0125"
    help = ("Set requires_grad outside the compiled code (freeze parameters before compiling), or use "
           "`.detach()` to stop gradients inside it.")
    breaks_graph = True

    VALID = [
        """
import torch
import torch.nn as nn
class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 8)
        self.emb.weight.requires_grad_(False)  # __init__: not compiled
    def freeze(self):
        for p in self.parameters():
            p.requires_grad = False
    def forward(self, ids):
        h = self.emb(ids).detach()
        ok = h.requires_grad  # reading the flag is fine
        w = torch.zeros(3, requires_grad=False)
        g = torch.zeros(3, requires_grad=h.requires_grad)  # a tensor's flag: not known here
        return h, ok, w, g
""",
        """
import torch
import torch.nn as nn
class Sampler(nn.Module):
    def forward(self, mean):
        noise = torch.randn_like(mean)
        noise.requires_grad_(False)  # a fresh tensor that needs no grad: a no-op Dynamo traces
        keep = torch.zeros_like(mean).bernoulli_(0.5).requires_grad_(False)  # in place on a fresh one: the same
        fixed = mean.detach().requires_grad_(False)
        rows = mean.detach()[:2].requires_grad_(False)  # a view of a tensor: the same
        return mean + noise * keep + fixed + rows.sum()
""",
        """
import torch
import torch.nn as nn
class Prior(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = nn.Linear(4, 8)
        self.scale = nn.Parameter(torch.ones(8))
    def forward(self, z):
        self.generator.requires_grad_(True)  # parameters require grad already; nothing here freezes them
        self.scale.requires_grad_()
        return self.generator(z) * self.scale
""",
    ]
    INVALID = [
        """
import torch
import torch.nn as nn
class Tagger(nn.Module):
    def forward(self, ids, real, fake):
        if self.freeze_embeddings:
            self.emb.weight.requires_grad_(False)  # expect
            self.encoder.requires_grad_(False)  # expect
        mix = (real + fake).requires_grad_(True)  # expect
        self.out.weight.requires_grad = False  # expect
        noise = torch.zeros(3, requires_grad=True)  # expect
        queries = torch.zeros_like(noise, requires_grad=self.training)  # expect
        return self.out(self.emb(ids)), mix, noise, queries
""",
        """
import torch
import torch.nn as nn
class Frozen(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(8), requires_grad=False)  # built frozen: thawing changes it
    def forward(self, x):
        self.scale.requires_grad_(True)  # expect
        return x * self.scale
""",
        """
import torch
import torch.nn as nn
class SingleExpert(nn.Module):
    def forward(self, x):
        logits = torch.ones(x.shape[0], 1, requires_grad=x.requires_grad)  # expect
        return self.expert(x), logits
class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.moe = SingleExpert()
""",
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "requires_grad_":
            if self._in_function_backward():
                return  # (Dynamo traces an autograd Function's backward where grad mode may change)
            receiver = func.value
            if isinstance(receiver, cst.Name) and self.ctx.is_import(receiver.value):
                return
            if self.ctx.kind(receiver) == Kind.VALUE:
                return  # (a submodule's requires_grad_() sets each parameter's: it breaks too)
            if isinstance(receiver, cst.Name) and receiver.value == "self":
                return
            fresh = self._fresh(receiver) or (isinstance(receiver, cst.Name) and receiver.value in self._fresh_names)
            if _turns_off(node) and fresh:
                return  # requires_grad_(False) on a tensor made here without grad: nothing changes
            if _turns_on(node) and self._grad_owner(receiver) and not self._file_turns_off():
                return  # parameters require grad from construction, and nothing here turns it off
            if _turns_on(node) and isinstance(receiver, cst.Name) and receiver.value in self._graph_grads:
                return  # what `autograd.grad(..., create_graph=True)` gave (after its break): it requires grad
            when: tuple[str, ...] = ()
            if node.args and not _turns_on(node) and not _turns_off(node) and self.ctx.function is not None:
                # `requires_grad_(force_grad and ...)`: on only when the caller passes the flag
                flag = node.args[0].value
                when = conditions(flag, flag=self.ctx.local_flag) + self.ctx.caller_conditions(flag) \
                    + self._unless_grad(flag, node)
            if _turns_on(node):
                given = self._given_tensor(receiver, node)
                when = (given,) if given else self._derived(receiver, node)
                if given and not self.ctx.function.is_forward and not self._grad_forced():
                    when += ("grad",)  # (a helper's tensor is its caller's: see _derived)
            self.report(node, when=when)
            return
        qualified = self.ctx.qualify(func) or ""
        if qualified.startswith("torch.") and qualified.count(".") == 1 \
                and qualified.rsplit(".", 1)[-1] in FACTORIES:
            for arg in node.args:
                if arg.keyword is None or arg.keyword.value != "requires_grad":
                    continue
                value = arg.value
                literal = isinstance(value, cst.Name) and value.value == "True"
                # `requires_grad=self.training`: Dynamo reads the flag, so it breaks only when it holds
                when = () if literal else conditions(value)
                if literal or when:
                    self.report(node, "a tensor created with `requires_grad=True` inside the compiled region: "
                                      "Dynamo does not support factory functions returning tensors that require "
                                      "grad and breaks the graph (GB0225)", severity="error", when=when)
                elif (flag := self._input_flag(value)) is not None:
                    self.report(node, f"a tensor created with `requires_grad={flag}.requires_grad` inside the compiled "
                                      f"region: in training `{flag}`, an input of `forward`, is an activation that "
                                      "requires grad, and Dynamo does not support factory functions returning tensors "
                                      "that require grad: it breaks the graph (GB0225)", severity="error",
                                when=("training",))
                return

    def _unless_grad(self, flag: cst.BaseExpression, call: cst.Call) -> tuple[str, ...]:
        """`nograd:potentials` for each `not potentials.requires_grad` the flag's `and` needs, of a
        parameter (torch_struct's `requires_grad_(force_grad and not potentials.requires_grad)`):
        a caller's tensor that requires grad, as a model's output does, turns the call off."""
        terms = []
        while isinstance(flag, cst.BooleanOperation) and isinstance(flag.operator, cst.And):
            terms.append(flag.right)
            flag = flag.left
        labels = []
        for term in (flag, *terms):
            tested = term.expression if isinstance(term, cst.UnaryOperation) and isinstance(term.operator, cst.Not) \
                else None
            if isinstance(tested, cst.Attribute) and tested.attr.value == "requires_grad" \
                    and isinstance(tested.value, cst.Name) and (label := self._given_tensor(tested.value, call)):
                labels.append(label)
        return (*labels, "grad") if labels and not self._grad_forced() else tuple(labels)

    def _in_function_backward(self) -> bool:
        """The `backward` of an autograd Function (torchcfm's `CheckpointFunction`:
        `x.detach().requires_grad_(True)` to recompute): traced, no break (measured on 2.13.0 and
        2.14.1; `clean_requires_grad_function_backward_01`)."""
        scope = self.ctx.function
        info = self.ctx.class_table.get(scope.class_name) if scope is not None and scope.class_name else None
        return info is not None and scope.qualname.endswith(".backward") \
            and any(base in AUTOGRAD_FUNCTIONS for base in info.bases)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._fresh_names: set[str] = set()  # names bound in this function to a fresh no-grad tensor
        self._graph_grads: set[str] = set()  # loop names bound to gradients taken with create_graph=True
        self._module: cst.Module | None = None
        self._parts: set[str] | None = None  # classes another class of the file builds, once asked
        self._turns_off_seen: bool | None = None  # the file turns a requires_grad off, once asked
        self._bound_in: cst.FunctionDef | None = None  # the function _bindings read last
        self._bound: dict[int, tuple[str, cst.BaseExpression]] = {}
        self._forcing: set[int] = set()  # id() of the `with torch.enable_grad():` blocks the walk is inside

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._fresh_names, self._graph_grads = set(), set()

    def visit_For(self, node: cst.For) -> None:
        # `for x, g in zip(xs, autograd.grad(u, xs, create_graph=True)):` (neurodiffeq's `diff`)
        if any(isinstance(n, cst.Call) and self.ctx.qualify(n.func) == "torch.autograd.grad"
               and _is_true(keyword_value(n, "create_graph")) for n in iter_nodes(node.iter)):
            self._graph_grads.update(n.value for n in iter_nodes(node.target) if isinstance(n, cst.Name))

    def _given_tensor(self, receiver: cst.BaseExpression, call: cst.Call) -> str | None:
        """`nograd:x` / `nograd:data[positions]` when the receiver is a parameter of the function, or a
        string key of one, that the function never rebinds: what the caller hands in, which
        may already require grad (an interatomic potential's positions, set up for the forces
        by its caller), and then turning it on changes nothing."""
        scope = self.ctx.function
        key = _string_key(receiver)
        if key is not None:
            receiver = receiver.value
        facts = facts_of(scope)
        if not (isinstance(receiver, cst.Name) and facts is not None and receiver.value in scope.params
                and receiver.value != "self"):
            return None
        # rebound (or, for a key, that key stored) before the call: no longer what the caller handed in
        binders = [node for node in facts.binders(receiver.value)
                   if isinstance(node, cst.Name) or (key is not None and _string_key(node) in (key, None))]
        if binders and not facts.all_after(binders, call):
            return None
        return nograd_label(receiver.value, key)

    def _derived(self, receiver: cst.BaseExpression, call: cst.Call) -> tuple[str, ...]:
        """`(nograd:terms, grad)` for a tensor computed from a parameter by calls
        (`semiring.convert(terms).requires_grad_(True)`, `x = convert(x)` then
        `x.requires_grad_(True)`), or one of the tensors a parameter holds (`rules` of `terms,
        rules = scores`, `t` of `for t in edge:`; `nograd:scores[*]`): Dynamo refuses the call
        only on an intermediate that does not require grad yet, and only with gradients on (under
        `no_grad` what it computes needs no grad: nothing leaves the graph that would), or on one
        held by a forward's input list (then in either mode). () when the tensor is no such one."""
        scope = self.ctx.function
        facts = facts_of(scope)
        if facts is None or scope is None:
            return ()
        origin = _origin(receiver, scope, facts, call, self._bindings(scope.node))
        if origin is None:
            return ()
        param, element = origin
        label = nograd_label(param, "*" if element else None)
        if element == ELEMENT_OF_LOOP and scope.is_forward:
            return (label,)  # (a forward's input list: refused in either mode)
        return (label,) if self._grad_forced() else (label, "grad")

    def _bindings(self, fn: cst.FunctionDef) -> dict[int, tuple[str, cst.BaseExpression]]:
        """id(Name target) -> ("assign" | "unpack" | "loop", value) over the function, once."""
        if self._bound_in is not fn:
            self._bound_in, self._bound = fn, {}
            for node in iter_nodes(fn.body):
                if isinstance(node, cst.Assign) and len(node.targets) == 1:
                    target = node.targets[0].target
                    if isinstance(target, cst.Name):
                        self._bound[id(target)] = ("assign", node.value)
                    elif isinstance(target, (cst.Tuple, cst.List)):
                        for element in target.elements:
                            if isinstance(element.value, cst.Name):
                                self._bound[id(element.value)] = ("unpack", node.value)
                elif isinstance(node, cst.For) and isinstance(node.target, cst.Name):
                    self._bound[id(node.target)] = ("loop", node.iter)
        return self._bound

    def _grad_forced(self) -> bool:
        """The call sits under `with torch.enable_grad():` (gradients on whatever the caller's mode)."""
        return bool(self._forcing)

    def visit_With(self, node: cst.With) -> None:
        if any(isinstance(item.item, cst.Call) and self.ctx.qualify(item.item.func) in GRAD_ON for item in node.items):
            self._forcing.add(id(node))

    def leave_With(self, node: cst.With) -> None:
        self._forcing.discard(id(node))

    def _grad_owner(self, receiver: cst.BaseExpression) -> bool:
        """`self.encoder` (a submodule), `self.scale` (an `nn.Parameter`), `self.proj.weight`:
        what holds parameters, which require grad from construction."""
        if not (isinstance(receiver, cst.Attribute) and isinstance(receiver.value, (cst.Name, cst.Attribute))):
            return False
        owner = receiver.value
        if isinstance(owner, cst.Attribute):  # self.proj.weight
            return receiver.attr.value in ("weight", "bias") and isinstance(owner.value, cst.Name) \
                and owner.value.value == "self" and self.ctx.kind(owner) == Kind.MODULE
        if owner.value != "self":
            return False
        kind = self.ctx.kind(receiver)
        if kind == Kind.MODULE:
            return True
        scope = self.ctx.function
        info = self.ctx.class_table.get(scope.class_name) if scope is not None and scope.class_name else None
        if info is not None and info.init_calls.get(receiver.attr.value) in PARAMETER_CLASSES:
            return True
        return kind == Kind.UNKNOWN and scope is not None and self._used_as_module(scope.class_name, receiver.attr.value)

    def _used_as_module(self, class_name: str, attr: str) -> bool:
        """The class calls `self.attr(...)` and walks its parameters or children
        (`generator: nn.Module` handed to the constructor, deepinv's DIP): a module."""
        cls = next((stmt for stmt in self._module.body if isinstance(stmt, cst.ClassDef)
                    and stmt.name.value == class_name.rsplit(".", 1)[-1]), None)
        called = walked = False
        for node in iter_nodes(cls) if cls is not None else ():
            if not isinstance(node, cst.Call):
                continue
            func = node.func
            if _is_self_attr(func, attr):
                called = True
            elif isinstance(func, cst.Attribute) and func.attr.value in MODULE_WALKS and _is_self_attr(func.value, attr):
                walked = True
        return called and walked

    def _file_turns_off(self) -> bool:
        """The file turns some tensor's requires_grad off, or to a value it computes (a
        `freeze()` helper): turning it back on then changes the flag. Scanned once, when asked."""
        if self._turns_off_seen is None:
            self._turns_off_seen = False
            for node in iter_nodes(self._module):
                if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) \
                        and node.func.attr.value == "requires_grad_" and not _turns_on(node):
                    self._turns_off_seen = True
                elif isinstance(node, cst.Assign) and any(
                        isinstance(t.target, cst.Attribute) and t.target.attr.value == "requires_grad"
                        for t in node.targets) and not _is_true(node.value):
                    self._turns_off_seen = True
                elif isinstance(node, cst.Call) and any(  # `nn.Parameter(w, requires_grad=False)`
                        a.keyword is not None and a.keyword.value == "requires_grad" and not _is_true(a.value)
                        for a in node.args):
                    self._turns_off_seen = True
                if self._turns_off_seen:
                    break
        return self._turns_off_seen

    def _input_flag(self, value: cst.BaseExpression) -> str | None:
        """`requires_grad=x.requires_grad` with `x` an input of the `forward` of a module
        another class of the file holds as a submodule, never rebound: the hidden states a block
        is given, which require grad whenever gradients flow. A model's own input is data, which
        needs none (`clean_requires_grad_factory_01`), and a tensor the frame computes, a mask,
        has its own flag."""
        scope = self.ctx.function
        if not (isinstance(value, cst.Attribute) and value.attr.value == "requires_grad"
                and isinstance(value.value, cst.Name) and scope is not None and scope.is_forward
                and scope.class_name is not None and self._held(scope.class_name.rsplit(".", 1)[-1])):
            return None
        name = value.value.value
        return name if name in scope.params[1:] and self.ctx.local_flag(name) is None else None

    def _held(self, class_name: str) -> bool:
        """Another class of this file builds one (`self.moe = SparseMoEBlock(...)`, a
        `nn.ModuleList` of them): a part of a bigger module. The file's classes are scanned
        the first time a factory copies an input's flag (rare: no scan per file)."""
        if self._parts is None:
            classes = [stmt for stmt in self._module.body if isinstance(stmt, cst.ClassDef)]
            names = {cls.name.value for cls in classes}
            self._parts = set()
            for cls in classes:
                called = {n.func.attr.value if isinstance(n.func, cst.Attribute) else n.func.value
                          for n in iter_nodes(cls) if isinstance(n, cst.Call)
                          and isinstance(n.func, (cst.Attribute, cst.Name))}
                self._parts |= (called & names) - {cls.name.value}
        return class_name in self._parts

    def visit_Module(self, node: cst.Module) -> None:
        self._module, self._parts, self._turns_off_seen = node, None, None

    def _fresh(self, value: cst.BaseExpression) -> bool:
        """A tensor made in this frame that needs no grad: `x.detach()`, or a torch factory
        call not asked for `requires_grad=True`; or a new tensor computed from others
        (arithmetic, `x.masked_fill(m, 0)`): one that needs grad is no leaf, and eager would
        refuse to turn it off, so the call is a no-op wherever the code runs."""
        if isinstance(value, (cst.BinaryOperation, cst.UnaryOperation)):
            return True
        if isinstance(value, cst.Subscript) and self.ctx.kind(value.value) == Kind.TENSOR:
            return True  # a view of a tensor (`self.pe[:n]`, a buffer's rows): no leaf, or no grad to turn off
        if not isinstance(value, cst.Call):
            return False
        if isinstance(value.func, cst.Attribute) and value.func.attr.value == "detach" and not value.args:
            return True
        if isinstance(value.func, cst.Attribute) and value.func.attr.value.endswith("_") \
                and value.func.attr.value != "requires_grad_":  # `torch.zeros(n).bernoulli_(p)`: the receiver
            return self._fresh(value.func.value)
        if isinstance(value.func, cst.Attribute) and value.func.attr.value in NEW_TENSOR_METHODS \
                and not (isinstance(value.func.value, cst.Name) and value.func.value.value == "self"):
            return True
        qualified = self.ctx.qualify(value.func) or ""
        return qualified.startswith("torch.") and qualified.count(".") == 1 \
            and qualified.rsplit(".", 1)[-1] in FACTORIES and not any(
                arg.keyword is not None and arg.keyword.value == "requires_grad" for arg in value.args)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                if self._fresh(node.value):
                    self._fresh_names.add(target.target.value)
                else:
                    self._fresh_names.discard(target.target.value)
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Attribute) and t.attr.value == "requires_grad":
                if isinstance(t.value, cst.Name) and t.value.value == "self":
                    continue
                self.report(node, "setting `.requires_grad` inside the compiled region: Dynamo does not support "
                                  "setattr on Tensor.requires_grad and breaks the graph (GB0206)", severity="error")
                return


ELEMENT_OF_LOOP = "loop"  # (an element a `for` took from a parameter; "unpack": one a tuple held)
_DEPTH = 4  # bindings followed back from the receiver


def _origin(value: cst.BaseExpression, scope, facts, anchor: cst.CSTNode, bound: dict, depth: int = 0):
    """(parameter, element) when `value`, as bound before `anchor`, is computed by calls from a
    parameter of the function (element None, or "unpack" when from one of the tensors it holds),
    or is one of the tensors a parameter holds (element "unpack" / "loop"); None otherwise."""
    if depth > _DEPTH:
        return None
    if isinstance(value, cst.Call):
        operands = [arg.value for arg in value.args]
        if isinstance(value.func, cst.Attribute):
            operands.append(value.func.value)  # (`terms.unsqueeze(0)`)
        for operand in operands:
            if isinstance(operand, cst.Name) and operand.value != "self":
                found = _name_origin(operand.value, scope, facts, value, bound, depth, direct=True)
                if found is not None:
                    return found[0], ("unpack" if found[1] else None)
        return None
    if isinstance(value, cst.Name):
        return _name_origin(value.value, scope, facts, anchor, bound, depth, direct=False)
    return None


def _name_origin(name: str, scope, facts, anchor: cst.CSTNode, bound: dict, depth: int, direct: bool):
    """`_origin` of a name read at `anchor`; `direct`: a parameter itself counts (as an operand)."""
    # (`x = f(x)`, `a, b = (f(a), g(b))`: what the assignment's value reads is the old binding)
    before = [node for node in facts.binders(name) if not facts.all_after([node], anchor)
              and not _inside(anchor, bound.get(id(node), (None, None))[1])]
    if not before:
        return (name, None) if direct and name in scope.params and name != "self" else None
    how, source = bound.get(id(before[-1]), (None, None))
    if how in ("unpack", "loop") and isinstance(source, cst.Name) and source.value in scope.params \
            and source.value != "self" and not facts.binders(source.value):
        return source.value, (ELEMENT_OF_LOOP if how == "loop" else "unpack")
    if how in ("assign", "unpack") and isinstance(source, cst.Call):
        return _origin(source, scope, facts, source, bound, depth + 1)
    return None


def _inside(node: cst.CSTNode, value: cst.BaseExpression | None) -> bool:
    return value is not None and any(inner is node for inner in iter_nodes(value))


def _turns_off(call: cst.Call) -> bool:
    """`requires_grad_(False)` / `requires_grad_(requires_grad=False)`."""
    return len(call.args) == 1 and isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == "False" \
        and (call.args[0].keyword is None or call.args[0].keyword.value == "requires_grad")


def _is_self_attr(node: cst.BaseExpression, attr: str) -> bool:
    return is_self_attribute(node) and node.attr.value == attr


def _string_key(node: cst.CSTNode) -> str | None:
    """`"positions"` of `data["positions"]`; None for any other node."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index) \
            and isinstance(node.slice[0].slice.value, cst.SimpleString):
        value = node.slice[0].slice.value.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _is_true(value: cst.BaseExpression | None) -> bool:
    return isinstance(value, cst.Name) and value.value == "True"


def _turns_on(call: cst.Call) -> bool:
    """`requires_grad_()` / `requires_grad_(True)` / `requires_grad_(requires_grad=True)`."""
    return not call.args or (len(call.args) == 1 and _is_true(call.args[0].value)
                             and (call.args[0].keyword is None or call.args[0].keyword.value == "requires_grad"))
