"""CL119 across files (the project phase of `rules/cl119_untraceable_call.py`): calling a
module whose class the project defines in another file, or a factory picks
(`self.rnn = get_rnn(cell)(...)`), when an RNN module (`nn.LSTM`, `nn.RNNBase`, ...) is
among its bases. Dynamo refuses to wrap any RNNBase, so the call breaks the graph where it
is made, in the caller, whatever the subclass adds; only the project's class table tells
what the class is. So too a call of a method a library base defines, that the table names
and no project class of the lineage overrides (`self.zero_grad()` in an optimiser deriving
from `torch.optim.Optimizer`: rules._inherited_calls), and building a project class whose
construction breaks (a tensor subclass whose `__init__` Dynamo cannot bind, a subclass of
`torchmetrics.Metric` or `pydantic.BaseModel`: rules._built_classes), wherever the project
defines it. And an optimiser's call read by its receiver's name (`self._modules.optim.step()`),
unless the receiver's class is one the project finds, whose method then runs (d3rlpy's
`OptimizerWrapper.step`, or the class a project factory builds).
"""

from __future__ import annotations

from dataclasses import replace

from compilelint import knowledge
from compilelint.finding import BUILT_CLASS, INHERITED, MODULE_CLASS, NAMED_RECEIVER
from compilelint.project_rules import cl119_rnn_helpers as rnn_helpers
from compilelint.rules._built_classes import construction_break, table_base
from compilelint.rules._inherited_calls import inherited_base, note_help
from compilelint.rules._known_calls import why_text


def run(context) -> list:
    index = context.index
    known = knowledge.table("CL119", context.torch)
    out = []
    for analysis, finding, _, call in context.candidates(BUILT_CLASS):
        class_key = index.resolve_class(analysis.module, call.target)
        found = construction_break(index, known, class_key) if class_key is not None else None
        if found is not None:
            message = finding.message.replace("{what}", found[0]).replace("{why}", found[1])
            out.append((analysis, replace(finding, needs=(), message=message)))
    for analysis, finding in context.deferred:
        if finding.needs[0].startswith(INHERITED):
            ref, _, method = finding.needs[0][len(INHERITED):].rpartition("|")
            class_key = index.resolve_class(analysis.module, ref)
            base = inherited_base(index, known, class_key, method) if class_key is not None else None
            if base is not None:
                entry = known.get(f"{base}.{method}")
                message = finding.message.replace("{base}", base).replace("{why}", why_text(entry))
                out.append((analysis, replace(finding, needs=(), message=message, help=note_help(entry))))
    for analysis, finding, key, call in context.candidates(NAMED_RECEIVER):
        # (else the project's own method runs, the class's or that of what a factory built: the region follows it)
        if index.resolve_call(key, call) is None and not index.attr_made(key, call):
            out.append((analysis, replace(finding, needs=())))
    out.extend(rnn_helpers.run(context, known))
    candidates = context.candidates(MODULE_CLASS)
    if not candidates:
        return out
    for analysis, finding, key, call in candidates:
        held = index.called_classes(key, call)
        # (a row that breaks only for some arguments, `masked`, is judged where the call is read, in one file)
        outside = [name for name in held if name not in index.classes and (e := known.get(name)) is not None
                   and e.form == "instance" and not e.masked]
        if outside:  # the chain ends in a library class (`path:` marks): `self.rnn` is an nn.GRU or nn.LSTM
            what = "calling an " + " or ".join(f"`{_shown(name)}`" for name in outside)
            message = finding.message.replace("calling `{cls}`, a subclass of `{base}`,", what).replace(
                "{why}", _why(known.get(outside[0])))
            out.append((analysis, replace(finding, needs=(), message=message)))
            continue
        for cls in held:
            if cls not in index.classes:
                continue
            base = table_base(index, known, cls, "instance")
            if base is not None and not known.get(base).masked:
                message = finding.message.replace("{cls}", cls.split(":", 1)[1]).replace(
                    "{base}", _shown(base)).replace("{why}", _why(known.get(base)))
                out.append((analysis, replace(finding, needs=(), message=message)))
                break
    return out


def _shown(name: str) -> str:
    """`nn.LSTM` for `torch.nn.LSTM`, as the rule's messages name it; another name whole."""
    return "nn." + name.rsplit(".", 1)[-1] if name.startswith("torch.nn.") else name


def _why(entry) -> str:
    return f"{entry.why or entry.reason} ({entry.gb_id})"
