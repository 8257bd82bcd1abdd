"""The records every pass produces: a Finding, and a file's analysis (the cache's entry).

No libcst here: a run whose files are all cached reads these and never imports it."""

from __future__ import annotations

import re

from dataclasses import asdict, dataclass, field
from typing import Any

from compilelint.summary import ModuleSummary

SEVERITIES = ("error", "warning", "note")


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text from (line, col) up to (end_line, end_col) with `text`: 1-based lines
    and columns in characters, the end exclusive (a finding's span is counted the same way);
    an insertion when both ends are the same place. A finding carries the edits of its
    autofix, made by its rule at the nodes it reports; `fixes` applies them."""

    line: int
    col: int
    end_line: int
    end_col: int
    text: str

    def as_tuple(self) -> tuple[int, int, int, int, str]:
        return (self.line, self.col, self.end_line, self.end_col, self.text)


@dataclass(slots=True)
class Finding:
    """A diagnostic at a place in a file.

    Lines and columns are 1-based (columns count characters, like ruff and SARIF's
    ``unicodeCodePoints``). ``path`` is the path as displayed: relative to the working
    directory when it is inside it.
    """

    path: str
    line: int
    col: int
    code: str
    message: str
    severity: str = "warning"
    end_line: int | None = None
    end_col: int | None = None
    name: str = ""  # the rule's kebab-case name
    help: str | None = None  # what to do instead, one sentence
    scope: str | None = None  # qualified name of the enclosing function, None at module level
    # The modes the line only runs in ("training", "eval", "dtype=float16", "labels", "grad",
    # "no_grad"): the enclosing `if`s say so; `[tool.compilelint] assume` can rule them out.
    when: tuple[str, ...] = ()
    # Project-wide inference: the leaves ("p|fn|param", "r|fn|edge") one of which must be a
    # tensor for the finding to hold (after CERTAIN: a certain one); the engine decides and
    # clears it (never reported).
    needs: tuple[str, ...] = ()
    # Filled by `probe`: {"status": "confirmed" | "not-reproduced" | "not-reached", ...}
    evidence: dict[str, Any] | None = field(default=None)
    # The safe autofix, if the rule has one here (applied by `check --fix`; never reported).
    edits: tuple[Edit, ...] = ()

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.col, self.code)

    def to_dict(self) -> dict[str, Any]:
        """The reported fields (not the edits)."""
        out = asdict(self)
        del out["edits"]
        return out


# The `when` label of code that runs only once an exception was raised (an `except` body,
# a `raise`'s argument, an `if` body that ends in `raise`): Dynamo traces it only when the
# code before raises, so a break there is off the normal path and no loop's CL150 holds it.
ON_ERROR = "error"
# the suffix of `given:NAME==None`: the caller leaves NAME at None (semantic.facts)
LEFT_NONE = "==None"
# the suffix of `given:NAME~None`: the caller leaves NAME at None, or passes a tensor
# (semantic.defaulted: a tensor the function fills in when NAME is None)
DEFAULTED = "~None"
# the infix of `given:key!is:query`: the caller passes `key` another object than `query` (the
# right side of `query is key or torch.equal(query, key)` runs only then; semantic.facts)
DISTINCT = "!is:"
# the suffix of `given:psi@sparse`: the caller passes `psi` a sparse tensor (a callee of another
# file, project_rules.cl153_params; a probe run judges it by what the calls held)
SPARSE = "@sparse"
# the suffix of `given:module@rnn`: the caller passes a module whose first parameter is an RNN's
# (a helper's `next(module.parameters())`, project_rules.cl119_rnn_helpers)
RNN_FIRST = "@rnn"
# the suffix of `given:index@mask`: the caller passes `index` a boolean mask (`states[~done]` runs
# `States.__getitem__`, whose `self.tensor[index]` then breaks: CL121; semantic.mask_values)
MASK = "@mask"
# the suffix of `given:signed@tensor`: the caller passes `signed` a tensor (the body of `if
# isinstance(signed, Tensor):`, semantic.facts; call sites that pass a number rule it out)
TENSOR = "@tensor"
# the suffix of `given:data@plain`: the caller passes `data` no tensor (the other branch of `if
# isinstance(data, Tensor):`, `data if torch.is_tensor(data) else torch.tensor(data, ...)`:
# semantic.facts; call sites that pass a tensor rule it out, a number or a list meets it)
PLAIN = "@plain"
# the suffix of `given:mask@guess`: a test on a parameter the walk only guesses is a tensor (a
# forward's input): call sites that pass a number, a bool or None rule the finding out; undecided,
# the label is dropped, not kept (the guess stands, as before call sites were read)
GUESSED = "@guess"
# the suffix of `given:idx@ndarray`: the caller passes `idx` a NumPy array (the body of `if
# isinstance(idx, np.ndarray):`, semantic.facts; call sites that pass a tensor, a number, a
# string or None rule it out: a compiled forward's NumPy branch is for eager callers)
NDARRAY = "@ndarray"
# the prefix of `nograd:x` / `nograd:data[positions]`: the caller's tensor does not already require
# grad (`x.requires_grad_(True)` changes nothing on one that does: CL132; a probe run judges it)
NO_GRAD = "nograd:"


def nograd_label(name: str, key: str | None = None) -> str:
    """`nograd:x`, or `nograd:data[positions]` for a string key of `data`."""
    return f"{NO_GRAD}{name}[{key}]" if key is not None else NO_GRAD + name


def nograd_parts(label: str) -> tuple[str, str | None]:
    """(parameter, key or None) of a `nograd_label`."""
    name = label[len(NO_GRAD):]
    if name.endswith("]") and "[" in name:
        return name[:name.index("[")], name[name.index("[") + 1:-1]
    return name, None
# code a class decorator's dispatcher runs only when it falls back to the class's own forward
# (engine: such findings are notes)
FALLBACK = "fallback"
# code reached only from a function the package's top-level `__init__` re-exports (its API):
# it runs compiled when user code compiles a call to it (engine: such findings are notes)
API = "api"
# first of a finding's `needs` when only a certain tensor will do (Rule.needs_certain_tensor)
CERTAIN = "!"
# a CL151 candidate's `needs`: "b|<function qualname>|<edge index>", kept when that call's
# callee breaks the graph (engine: project_rules.breaking decides)
BREAKS = "b|"
# a CL146 candidate's `needs`: "c|<function qualname>|<edge index>", kept when the class that
# call builds is one the project's class table says (project_rules.cl146_typed_dict decides)
CLASS = "c|"
# a CL141 candidate's `needs`: "e|<class ref>", kept when that class (resolved from the
# finding's module) or a project base defines `__enter__` (project_rules.cl141_entered decides)
ENTERS = "e|"
# a CL119 candidate's `needs`: "m|<function qualname>|<edge index>", kept when the module that
# call runs is a project class with an RNN module among its bases (project_rules.cl119_held decides)
MODULE_CLASS = "m|"
# a CL152 candidate's `needs`: "d|<function qualname>|<edge index>", kept when the constructor
# that call runs has an object default the call leaves out (project_rules.cl152_defaults decides)
OBJECT_DEFAULT = "d|"
# a CL119 candidate's `needs`: "t|<function qualname>|<edge index>", kept when building the class
# that call builds breaks (rules._built_classes; project_rules.cl119_held decides)
BUILT_CLASS = "t|"
# a CL154 candidate's `needs`: "u|<function qualname>|<state event index>", kept when a write to
# the module's state and one to a plain attribute come before that read in one compiled call
# (semantic.state_events; project_rules.cl154_pending decides)
PENDING_STATE = "u|"
# a CL119 candidate's `needs`: "h|<class ref>|<method>", kept when no project class of that class's
# lineage defines the method and a library base's row names it (rules._inherited_calls;
# project_rules.cl119_held decides)
INHERITED = "h|"
# a CL119 candidate's `needs`: "n|<function qualname>|<edge index>", an optimiser's call read by
# its receiver's name (`self._modules.optim.step()`), kept unless the project finds the class the
# receiver holds and its method (rules._inherited_calls; project_rules.cl119_held decides)
NAMED_RECEIVER = "n|"
# a CL160 candidate's `needs`: "g|<qualified name>", kept when the module that defines the name
# binds it to a builtin generic, `dict[str, Tensor]` (project_rules.cl160_aliases decides)
GENERIC_ALIAS = "g|"
# the builtin classes whose subscript (`dict[str, Tensor]`) is a `types.GenericAlias` (CL160)
GENERIC_BUILTINS = frozenset({"list", "tuple", "dict", "set", "frozenset", "type"})
# a CL140 candidate's `needs`: "x|<function qualname>|<edge index>", kept when that call runs a
# function of another file under torch.compiler.disable (project_rules.cl140_disabled decides)
DISABLED_CALL = "x|"
# the candidates the engine hands to the project phases
PROJECT_DECIDES = (BREAKS, CLASS, ENTERS, MODULE_CLASS, OBJECT_DEFAULT, BUILT_CLASS, PENDING_STATE, INHERITED,
                   NAMED_RECEIVER, GENERIC_ALIAS, DISABLED_CALL)
# `when` labels on the attributes of the function's own object (semantic.guards makes them,
# a probe run's attribute facts judge them): `set:self.dropout`, `isinstance:self.ratio`.
SELF_LABELS = ("set:self.", "unset:self.", "isinstance:self.")


def on_self(label: str) -> bool:
    return label.startswith(SELF_LABELS)


def on_class(label: str, owner: str) -> str:
    """A `self.` label seen from another object: the same test, named on the class whose
    instance it is about (`set:self.x` in `pkg.mod:Block` -> `set:pkg.mod:Block.x`), for a
    probe run to judge by what that class's instances held."""
    kind, _, attr = label.partition(":self.")
    return f"{kind}:{owner}.{attr}"


def class_label(label: str) -> tuple[str, str, str] | None:
    """(kind, class qualname, attribute) of an `on_class` label; None for any other."""
    kind, _, rest = label.partition(":")
    if kind not in ("set", "unset", "isinstance") or rest.startswith("self.") or ":" not in rest:
        return None
    qualified, _, attr = rest.partition(":")[2].rpartition(".")
    return (kind, qualified, attr) if qualified and attr else None


_WHEN_WORDS = {"training": "in training", "eval": "in eval mode", "labels": "with labels",
               "grad": "with gradients on", "no_grad": "with gradients off",
               ON_ERROR: "once an exception was raised",
               FALLBACK: "when the class decorator's dispatcher falls back to this forward",
               API: "when user code compiles a call to the package's API"}


def when_text(when: tuple[str, ...]) -> str:
    """" (only in training, in float16)" for a message; "" when the line always runs."""
    if not when:
        return ""
    return f" (only {', '.join(_when_word(label) for label in when)})"


def _when_word(label: str) -> str:
    if label.startswith("dtype="):
        return f"in {label[6:]}"
    on = class_label(label)
    if on is not None:  # set:pkg.mod:Block.x (on_class)
        label = f"{on[0]}:{on[1]}.{on[2]}"
    if label.startswith("isinstance:"):  # isinstance:self.ratio (semantic.guards.conditions)
        return f"when `{label[len('isinstance:'):]}` is a tensor"
    if label.startswith(("set:", "unset:")):  # set:self.dropout (semantic.guards.conditions)
        name, _, attr = label.partition(":")
        return f"when `{attr}` is {'set' if name == 'set' else 'not set'}"
    if label.startswith(NO_GRAD):  # nograd:data[positions] (CL132)
        name, key = nograd_parts(label)
        if key == "*":  # (nograd:scores[*]: a tensor `scores` holds, or one computed from it)
            return f"when the tensors of the caller's `{name}` do not already require grad"
        shown = name if key is None else f'{name}["{key}"]'
        return f"when the caller's `{shown}` does not already require grad"
    if label.startswith("given:"):  # given:profile|*args|**kwargs[scale]|self.norm (semantic.facts)
        names, attrs = [], []
        for alt in label[6:].split("|"):
            if alt.endswith(LEFT_NONE):
                attrs.append(f"the caller leaves `{alt.removesuffix(LEFT_NONE)}` None")
            elif alt.endswith(DEFAULTED):
                attrs.append(f"the caller leaves `{alt.removesuffix(DEFAULTED)}` None or passes it a tensor")
            elif DISTINCT in alt:
                name, _, other = alt.partition(DISTINCT)
                attrs.append(f"the caller passes `{name}` another object than `{other}`")
            elif alt.endswith(SPARSE):
                attrs.append(f"the caller passes a sparse tensor as `{alt.removesuffix(SPARSE)}`")
            elif alt.endswith(TENSOR):
                attrs.append(f"the caller passes `{alt.removesuffix(TENSOR)}` a tensor")
            elif alt.endswith(PLAIN):
                attrs.append(f"the caller passes `{alt.removesuffix(PLAIN)}` no tensor")
            elif alt.endswith(GUESSED):
                attrs.append(f"the caller passes `{alt.removesuffix(GUESSED)}` a tensor")
            elif alt.endswith(NDARRAY):
                attrs.append(f"the caller passes `{alt.removesuffix(NDARRAY)}` a NumPy array")
            elif alt.endswith(MASK):
                attrs.append(f"the caller passes `{alt.removesuffix(MASK)}` a boolean mask")
            elif alt.endswith(RNN_FIRST):
                attrs.append(f"the caller passes a module whose first parameter is an RNN's as "
                             f"`{alt.removesuffix(RNN_FIRST)}`")
            elif alt.startswith("self."):
                attrs.append(f"`{alt}` is set")
            else:
                name = alt[alt.index("[") + 1:-1] if alt.startswith("**") else alt.removesuffix("!=None")
                name = name.removeprefix("=")
                names.append(f"`{name}`")
        passes = [f"the caller passes {' or '.join(names)}"] if names else []
        return "when " + " or ".join(passes + attrs)
    return _WHEN_WORDS.get(label, label)


def common_when(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    """The modes two breaks both need: a loop (or a caller) holding both breaks in every
    mode that reaches either, so only what both require is required."""
    return tuple(label for label in a if label in b)


def inner_cause(code: str, line: int) -> str:
    """A CL150's cause when the break is in the loop's own function: "CL102 at line 7"."""
    return f"{code} at line {line}"


_INNER_CAUSE = re.compile(r"\(CL\d+ at line (\d+)\)")


def inner_line(finding: Finding) -> int | None:
    """The line of the break inside a CL150's loop, read back from its message (`inner_cause`),
    or None when the break is in a function the loop calls."""
    found = _INNER_CAUSE.search(finding.message) if finding.code == "CL150" else None
    return int(found.group(1)) if found else None


def call_cause(callee: str, code: str, path: str, line: int) -> str:
    """A CL150's cause when the break is in a function the loop calls ("calls `f`, which breaks
    the graph (CL119 at pkg/utils.py:157)"): `called_cause` reads it back."""
    return f"calls `{callee}`, which breaks the graph ({code} at {path}:{line})"


_CALLED_CAUSE = re.compile(r"which breaks the graph \(CL\d+ at (.+?):(\d+)\)")


def called_cause(finding: Finding) -> tuple[str, int] | None:
    """(path, line) of the break in the function a CL150's loop calls, read back from its
    message (`call_cause`), or None."""
    found = _CALLED_CAUSE.search(finding.message) if finding.code == "CL150" else None
    return (found.group(1), int(found.group(2))) if found else None


def loop_break(path: str, line: int, col: int, keyword: str, cause: str, rule, *,
               scope: str | None, needs: tuple[str, ...] = (), when: tuple[str, ...] = ()) -> Finding:
    """The one place a CL150 is made: the `for`/`while` at (line, col) holds a graph break
    (`cause`: "CL102 at line 7", or "calls `f`, which breaks the graph (...)"). `rule`:
    the CL150 rule's name/severity/help (its class or its registry entry); `when`: the
    modes in which the breaks inside are reached (the loop breaks only then)."""
    what = f"contains a graph break ({cause})" if cause.startswith("CL") else cause
    return Finding(
        path=path, line=line, col=col, code="CL150", name=rule.name, severity=rule.severity,
        help=rule.help, scope=scope, end_line=line, end_col=col + len(keyword), needs=needs, when=when,
        message=f"`{keyword}` loop {what}: Dynamo cannot resume inside a loop and runs the whole function eagerly"
                + when_text(when),
    )


@dataclass
class FileAnalysis:
    """A file's analysis: typed plain data (cache.py writes it as marshal data)."""

    path: str
    module: str
    summary: ModuleSummary
    candidates: list[Finding]
    diagnostics: list[Finding]  # CL000 and CL001: always reported
    noqa: dict[int, list[str] | None]  # line -> codes, None for all
    file_noqa: bool = False
