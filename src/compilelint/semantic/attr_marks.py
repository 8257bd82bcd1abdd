"""What `self.x` holds, as the class table writes it (`ClassInfo.attr_classes`): a class, one
per branch ("A|B"), or a mark of another sort (`summary.MADE`, `APPLY`, `BOUND`, `PATH`).

A `PATH` mark is what an attribute holds when the constructor copies it out of a model it is
handed: `self.rnn = copy.deepcopy(model.rnn.rnn)` with `model: RNNModel` (rsl_rl's export
wrappers) is "path:RNNModel>rnn.rnn"; the project follows it across files
(`index_many.path_classes`), each step the attribute the class before holds. Functions an
attribute holds (`ClassInfo.attr_functions`: `self.search_fn = native_search`, or a `partial`
of one) are `function_refs`'s. An RNN module built from `torch.nn` by a name the code computes
(`getattr(nn, rnn_type)(...)`) is `picked_rnn`'s."""

from __future__ import annotations

import re
from collections.abc import Callable

import libcst as cst

from compilelint.semantic.factories import FOREIGN  # (what no project defines: a library's function)
from compilelint.semantic.kinds import TENSOR_ANNOTATIONS, VALUE_ANNOTATIONS, dotted, not_optional
from compilelint.semantic.passed_functions import function_like, partial_target
from compilelint.summary import APPLY, BOUND, MADE, PATH

EITHER_MAX = 4  # classes one attribute may hold, one per branch (`self.decoder = A(...)` / `B(...)`)
RNN_CLASSES = "torch.nn.RNN|torch.nn.LSTM|torch.nn.GRU"
RNN_ONLY_KEYWORDS = frozenset({"bidirectional", "proj_size"})  # no other torch.nn module takes them
SEQUENCE_KEYWORDS = frozenset({"num_layers", "batch_first", "dropout"})  # no RNN cell takes them
RNN_WORDS = frozenset({"rnn", "lstm", "gru"})


def picked_rnn(value: cst.BaseExpression, attr: str, qualify: Callable) -> str | None:
    """`self.rnn = getattr(nn, rnn_type)(input_size, hidden, batch_first=True, dropout=p)`: a
    `torch.nn` class picked by a name the code computes is an RNN, LSTM or GRU when the call
    passes what only they take (`bidirectional`, `proj_size`), or when the attribute is named as
    one and the call passes what no RNN cell takes (`num_layers`, `batch_first`, `dropout`):
    asteroid's `SingleRNN`, darts' `_BlockRNNModule`. An activation or a cell is neither."""
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Call)):
        return None
    pick = value.func
    if qualify(pick.func) != "builtins.getattr" or len(pick.args) != 2 or qualify(pick.args[0].value) != "torch.nn" \
            or isinstance(pick.args[1].value, cst.SimpleString):
        return None
    keywords = {arg.keyword.value for arg in value.args if arg.keyword is not None}
    named = bool(RNN_WORDS & set(re.split(r"[_\d]+", attr.lower())))
    return RNN_CLASSES if keywords & RNN_ONLY_KEYWORDS or (named and keywords & SEQUENCE_KEYWORDS) else None


def typed_attr(attr_classes: dict[str, str], attr: str, ref: str) -> None:
    """The first class an attribute is given, over a factory's mark (`self.config = Config.from_dict(d)`)."""
    if not attr_classes.get(attr, MADE).startswith(MADE):
        return
    attr_classes[attr] = ref


def either_class(held: str | None, ref: str) -> str:
    """`self.decoder = BeamSearchDecoder(...)` in one branch and `GreedyDecoder(...)` in
    another: the attribute holds either ("A|B"), not the last one written; a mark of another
    sort (a container, a factory's, bound methods) gives way to the class."""
    if not held or held.startswith(("[]", APPLY, BOUND, MADE)) or ref.startswith("[]"):
        return ref
    classes = list(dict.fromkeys(held.split("|") + [ref]))
    return "|".join(classes) if len(classes) <= EITHER_MAX else held


def typed_path(value: cst.BaseExpression, typed: dict, qualify, qualify_ref) -> str | None:
    """The `PATH` mark of `model.a.b` or `copy.deepcopy(model.a.b)`, `model` a constructor
    parameter annotated with a class (`typed`: parameter -> annotated class reference)."""
    if isinstance(value, cst.Call) and qualify(value.func) == "copy.deepcopy" and len(value.args) == 1:
        value = value.args[0].value
    chain = []
    while isinstance(value, cst.Attribute):
        chain.append(value.attr.value)
        value = value.value
    if not (chain and isinstance(value, cst.Name) and typed.get(value.value)):
        return None
    return f"{PATH}{qualify_ref(typed[value.value])}>{'.'.join(reversed(chain))}"


def class_annotation(annotation: cst.BaseExpression) -> str | None:
    """`LlamaConfig` / `"LlamaConfig"` / `Optional[LlamaConfig]` / `LlamaConfig | None`: a project class to follow
    (no tensor or value type)."""
    annotation = not_optional(annotation)
    if isinstance(annotation, cst.SimpleString):
        text = annotation.evaluated_value if isinstance(annotation.evaluated_value, str) else ""
        name = text.strip() if text.strip().replace(".", "").replace("_", "").isalnum() else None
    else:
        name = dotted(annotation)
    if not name:
        return None
    last = name.split(".")[-1]
    if not last.lstrip("_")[:1].isupper() or last in TENSOR_ANNOTATIONS or last in VALUE_ANNOTATIONS:
        return None
    return name


def function_defaults(init: cst.FunctionDef) -> dict[str, cst.BaseExpression]:
    """The constructor's parameters that default to a function (`perm_func=_permute_feature`,
    `kernel=kernels.rbf`): the attribute set from one holds that function unless the caller
    passes its own (captum's `FeaturePermutation`)."""
    params = (*init.params.posonly_params, *init.params.params, *init.params.kwonly_params)
    return {p.name.value: p.default for p in params
            if p.default is not None and function_like((dotted(p.default) or "").rpartition(".")[2])}


def function_refs(value: cst.BaseExpression, params: set, local_calls: dict, qualify,
                  nested: Callable[[], dict] | None = None) -> list[str]:
    """The names a value refers to when it is a module-level name, or either branch of `a if c
    else b` (the other may build a module), that is not a constructor parameter, a local or
    `None`: a function or a class the project may resolve (qualified when imported). A function the
    method defines itself (`nested()`: name -> its qualname, `Model._compile.<locals>.step`) is
    that one: deepxde's `self.train_step = train_step` is called later as `self.train_step(...)`."""
    if isinstance(value, cst.IfExp):
        return function_refs(value.body, params, local_calls, qualify, nested) + \
            function_refs(value.orelse, params, local_calls, qualify, nested)
    if (target := partial_target(value, qualify, keywords_only=True)) is not None:
        # `self.act = partial(scaled, scale=2.0)`: calling it calls `scaled` with the same
        # positional arguments (one that binds positional ones would shift them: not followed)
        return function_refs(target, params, local_calls, qualify, nested)
    if isinstance(value, cst.Attribute) and function_like(value.attr.value):
        # `self.kernel = kernels.rbf`, a function of a module the file imports (a local's or
        # `self`'s attribute qualifies to nothing)
        qualified = qualify(value)
        return [qualified] if qualified and not qualified.startswith(FOREIGN) else []
    if not isinstance(value, cst.Name) or value.value in params or value.value in local_calls:
        return []
    if nested is not None and value.value in (defined := nested()):
        return [defined[value.value]]
    if not function_like(value.value) and not value.value[:1].isupper():
        return []
    # (torch's, NumPy's: the project resolves none; a class, `self.prior = RiemannianNormal`:
    # calling the attribute builds one, index_many._held_functions)
    return [qualify(value) or value.value]


def defaulted_name(value: cst.BaseExpression) -> str | None:
    """`config`, and `states` of `states if states is not None else default`."""
    if isinstance(value, cst.IfExp) and isinstance(value.body, cst.Name) and isinstance(value.test, cst.Comparison) \
            and isinstance(value.test.left, cst.Name) and value.test.left.value == value.body.value:
        value = value.body
    return value.value if isinstance(value, cst.Name) else None
