"""What class a called or read module is (CL119's helpers): `nn.LSTM(...)(x)`, `rnn(x)`,
`self.rnn(x)`, through the file's own subclasses of a class the knowledge table names."""

import re

import libcst as cst

from compilelint.semantic.guards import ends_in
from compilelint.semantic.infer import held_class_ref, self_attribute_class_ref
from compilelint.semantic.kinds import dotted

# the submodules a torch module class builds in its own constructor, by attribute
TORCH_PARTS = {"torch.nn.Transformer": {"encoder": "torch.nn.TransformerEncoder", "decoder": "torch.nn.TransformerDecoder"}}
# what returns a TorchScript module, which Dynamo refuses to call into (`torch.jit.script`
# of a function is traced: only a module argument, `script(Block())` / `script(self.m)`)
SCRIPT_MODULE_MAKERS = frozenset({"torch.jit.trace", "torch.jit.trace_module", "torch.jit.load", "torch.jit.freeze"})


def library_base(ctx, known, cls: str | None) -> str | None:
    """A class of this file that subclasses a known one (`class Encoder(nn.LSTM)`): the known
    class, whatever the subclass adds (Dynamo refuses every RNNBase: at the call, and again at
    a `super().forward(...)` in the subclass's own forward, which then runs as a frame of its
    own)."""
    table, seen = ctx.class_table, set()
    cls = ctx.local_class(cls) or cls
    while cls and known.get(cls) is None and cls in table and cls not in seen:
        seen.add(cls)
        bases = [b for b in table[cls].bases if known.get(b) is not None or b in table]
        cls = bases[0] if bases else None
    return cls


def self_attribute_class(ctx, known, owner: str, attr: str) -> str | None:
    """The class `self.<attr>` holds in class `owner`, set in its `__init__` or in a base
    class of this file's (`class Tagger(Encoder)` reads the `self.lstm` Encoder built)."""
    ref = held_class_ref(ctx, owner, attr)
    if ref and "|" in ref:  # one class per branch of __init__: the known one, where it is built
        return next((c for c in ref.split("|") if known.get(library_base(ctx, known, c)) is not None), None)
    return ref


def either_class(ctx, known, func: cst.BaseExpression, cls: str) -> list[str]:
    """`cls`, or every class `self.<attr>` may hold when its constructor picks one of several
    known ones alike (`rnn_cls = nn.GRU if gru else nn.LSTM`): what a message names."""
    scope = ctx.function
    if not (isinstance(func, cst.Attribute) and dotted(func.value) == "self" and scope and scope.class_name):
        return [cls]
    ref = held_class_ref(ctx, scope.class_name, func.attr.value) or ""
    picked = [library_base(ctx, known, c) for c in ref.split("|")]
    return picked if "|" in ref and all(known.get(c) == known.get(cls) for c in picked) else [cls]


def callee_class(ctx, known, func: cst.BaseExpression) -> str | None:
    """The class of the object called: `nn.LSTM(...)(x)`, `rnn(x)`, `self.rnn(x)`, and
    `super().forward(x)` in a project subclass of the known class."""
    scope = ctx.function
    if isinstance(func, cst.Attribute) and func.attr.value in ("forward", "__call__") \
            and isinstance(func.value, cst.Call) and isinstance(func.value.func, cst.Name) \
            and func.value.func.value == "super" and scope is not None and scope.class_name:
        info = ctx.class_table.get(scope.class_name)
        bases = [b for b in (info.bases if info else ()) if known.get(b) is not None]
        return bases[0] if bases else None
    if isinstance(func, cst.Call):
        return ctx.qualify(func.func)
    if isinstance(func, cst.Name):
        local = scope.var_class.get(func.value) if scope is not None else None
        return local or ctx.module_var_class.get(func.value)
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self" \
            and scope is not None and scope.class_name:
        return self_attribute_class(ctx, known, scope.class_name, func.attr.value)
    if isinstance(func, cst.Subscript) and scope is not None and scope.class_name:
        return ctx.element_class(func.value)  # `self.rnns[i](x)`: a ModuleList of one class
    holder = dotted(func.value) if isinstance(func, cst.Attribute) else None
    if holder and holder.startswith("self.") and holder.count(".") == 1 and scope is not None and scope.class_name:
        # `self.transformer.decoder(...)`: a part torch's module class builds itself
        held = library_base(ctx, known, self_attribute_class(ctx, known, scope.class_name, holder[5:]))
        return TORCH_PARTS.get(held or "", {}).get(func.attr.value)
    return None


def calls_script_module(ctx, scripted: set, func: cst.BaseExpression) -> bool:
    """`func` calls a name or `self.` attribute bound to a TorchScript module (`scripted`)."""
    if isinstance(func, cst.Name):
        return (None, func.value) in scripted
    scope = ctx.function
    return isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self" \
        and scope is not None and (scope.class_name, func.attr.value) in scripted


def makes_script_module(ctx, call: cst.Call) -> bool:
    qualified = ctx.qualify(call.func)
    if qualified in SCRIPT_MODULE_MAKERS:
        return True
    return qualified == "torch.jit.script" and bool(call.args) \
        and isinstance(call.args[0].value, (cst.Call, cst.Attribute))


def scripted_targets(ctx, node: cst.Assign) -> set[tuple[str | None, str]]:
    """(class or None, name) of each target an assignment binds a script module to: `net =
    torch.jit.script(Net())`, `self.net = torch.jit.script(...)` in a method."""
    if not (isinstance(node.value, cst.Call) and makes_script_module(ctx, node.value)):
        return set()
    scope, out = ctx.function, set()
    for t in node.targets:
        if isinstance(t.target, cst.Name):
            out.add((None, t.target.value))
        elif isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name) \
                and t.target.value.value == "self" and scope is not None and scope.class_name:
            out.add((scope.class_name, t.target.attr.value))
    return out


def type_pinned(ctx, node: cst.If) -> tuple[str, tuple[str, ...]] | None:
    """(attr, classes) when the `if` heads an `if isinstance(self.rnn, nn.LSTM): ... elif
    isinstance(self.rnn, nn.GRU): ... else: raise ...` chain: every other object raises, so
    where the code goes on (from the first test on), the attribute holds one of the classes."""
    attr, classes, branch = None, [], node
    while isinstance(branch, cst.If):
        tested = _isinstance_of_self_attr(ctx, branch.test)
        if tested is None or attr not in (None, tested[0]):
            return None
        attr, branch = tested[0], branch.orelse
        classes.extend(tested[1])
    if isinstance(branch, cst.Else) and ends_in(branch.body, cst.Raise) and attr and all(classes):
        return attr, tuple(classes)
    return None


def _isinstance_of_self_attr(ctx, test: cst.BaseExpression) -> tuple[str, list] | None:
    if not (isinstance(test, cst.Call) and dotted(test.func) == "isinstance" and len(test.args) == 2):
        return None
    subject, types = test.args[0].value, test.args[1].value
    if not (isinstance(subject, cst.Attribute) and dotted(subject.value) == "self"):
        return None
    elements = [e.value for e in types.elements] if isinstance(types, cst.Tuple) else [types]
    return subject.attr.value, [ctx.qualify(e) for e in elements]


def project_object(ctx, node: cst.BaseExpression) -> bool:
    """`self.states` held, or `states` annotated or built, as an object of a class that is no
    torch's, NumPy's or a builtin (torchgfn's `States`): subscripting it runs its `__getitem__`."""
    if ctx.function is None:
        return False
    if isinstance(node, cst.Name):
        ref = ctx.held_class(node.value, ctx.scopes[-1]) if ctx.scopes else None
    else:
        ref = self_attribute_class_ref(node, ctx)
    return bool(ref) and CLASS_NAME.match(ref.rsplit(".", 1)[-1]) is not None and not any(c in ref for c in ":|[") \
        and not ref.startswith(("torch.", "numpy.", "builtins.", "typing."))


CLASS_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$")  # `States`, not a call's `physics.U_adjoint`
