"""Which of a conditional finding's `when` labels a probe run did not meet, and how a run
would meet them: the matcher's ``condition-not-met`` verdict (:mod:`compilelint.probe.match`).
Pure: the run's facts come from the worker (probe.observe, entry_args, call_args, attr_facts)."""

from __future__ import annotations

from typing import Any, Iterable

from compilelint.finding import DISTINCT, NO_GRAD, class_label, nograd_parts
from compilelint.probe.attr_facts import attribute_met
from compilelint.probe.entry_args import given_met, nograd_met

_HOW = {"training": "probe with --train", "eval": "probe without --train",
        "grad": "probe with --train (gradients on)", "no_grad": "probe without --train (gradients off)",
        "dtype=float16": "probe with --dtype fp16", "dtype=bfloat16": "probe with --dtype bf16",
        "labels": "a target that passes labels"}


def how(label: str) -> str:
    if label.startswith(NO_GRAD):
        name, key = nograd_parts(label)
        return f"a run that hands in `{name if key is None else f'{name}[{key!r}]'}` without grad"
    if label.startswith("given:"):
        return "a run that passes " + " or ".join(
            "`{}` another object than `{}`".format(*a.split(DISTINCT)) if DISTINCT in a else f"`{a}`"
            for a in label[len("given:"):].split("|"))
    return _HOW.get(label, "a run that meets it")


def unmet_conditions(when: Iterable[str], conditions: dict[str, Any], *, in_entry: bool = False,
                     called: dict[str, list[str]] | None = None,
                     attrs: dict[str, list[str]] | None = None,
                     classes: dict[tuple[str, str], dict[str, list[str]]] | None = None) -> list[str]:
    """The labels of a conditional finding's ``when`` ("training", "eval",
    "dtype=float16", "labels", "given:NAME"…) that a run with ``conditions`` (its
    ``training``, ``dtype``, ``labels`` and ``entry`` arguments) did not meet. `given:`
    labels are judged for a finding in the function the run called (``in_entry``) by its
    arguments, elsewhere by what the calls of the finding's function held (``called``,
    probe.call_args; a function the eager pass did not call: unjudged);
    `self.` labels against what the run's instances of the finding's class held (``attrs``),
    labels named on another class against its instances (``classes``: every class's facts;
    a class none of the run's modules is an instance of: unmet). A label the run cannot judge
    counts as met."""
    out = []
    for label in when:
        on = class_label(label)
        if on is not None:  # a label about another class's instances (finding.on_class)
            facts = next((held for (_, qualname), held in (classes or {}).items() if qualname == on[1]), None)
            # no module the run held is of that class (facts name every class on each instance's
            # MRO): the path through that class's code did not run (a subclass's override)
            attr = attribute_met(f"{on[0]}:self.{on[2]}", facts) if facts is not None else (False if classes else None)
        else:
            attr = attribute_met(label, attrs) if attrs is not None else None
        if attr is not None:
            met = attr
        elif label.startswith("given:") and (in_entry or called is not None):
            met = given_met(label, conditions["entry"]["params"] if in_entry else called) is not False
        elif label.startswith(NO_GRAD) and (in_entry or called is not None):
            met = nograd_met(label, conditions["entry"]["params"] if in_entry else called) is not False
        elif label in ("training", "eval") and "training" in conditions:
            met = bool(conditions["training"]) == (label == "training")
        elif label in ("grad", "no_grad") and ("grad" in conditions or "training" in conditions):
            # (a probe run has gradients on exactly when it trains, probe.observe; a program's
            # run only says its modules' mode, which stands for it)
            met = bool(conditions.get("grad", conditions.get("training"))) == (label == "grad")
        elif label.startswith("dtype=") and conditions.get("dtype"):
            met = conditions["dtype"] == label[len("dtype="):]
        elif label.startswith(("labels", "label ")) and "labels" in conditions:
            met = bool(conditions["labels"])
        else:
            met = True
        if not met:
            out.append(label)
    return out
