"""A row of compilelint's knowledge (`knowledge.ENTRIES`) and the index the rules read one
rule's rows for one torch release through (`knowledge.table`). Plain data: no libcst, no torch."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """One family of library callables.

    `names`: qualified names as `ctx.qualify` gives them (`torch.nonzero`, `torchvision.ops.nms`); `mod.*` stands
    for every name in `mod`; `torch.Tensor.m` is the tensor method `m`. `form`: "call" (calling the name breaks),
    "instance" (calling an object of that class breaks: `self.lstm(x)`), "method" (`Class.method`: calling that
    method of an object the class, function or module builds from `Class`: `self.engine.draw(n)`) or "branch" (the
    call is traced and its value becomes a graph input: only an `if`/`while`/conditional expression whose test
    holds the call breaks, `if random.uniform(0, 1) < p:`) or "input" (a tensor method that breaks only on a graph
    input: on a tensor held on the module or class, `self.mem.detach_()`, not on one made in the region) or "dispatch"
    (calling the name breaks only for the classes of its arguments: `kl_divergence`, rules._kl_pairs).
    `size_at`: the draw breaks only when it returns a Python scalar, i.e. no `size=` and no positional argument at
    that index (-1: no argument at all). `masked`: the call breaks only when it passes one of these masks —
    (positional index, keyword, its `is_causal` keyword) — and leaves that `is_causal` unset (`nn.TransformerEncoder`
    then compares the mask with a causal one in Python). `torch_min`/`torch_max`: the first release it holds for and the first it
    no longer does. `case`: corpus cases whose labels Dynamo confirms (for a row that no longer holds, a `clean_`
    case that shows it); `confirmed`: the torch release(s) that confirmed them. `traced`: `clean_` corpus cases of
    look-alikes that Dynamo traces (`random.randint`, `np.random.rand(3)`, `nn.LSTMCell`), which the rule must
    leave alone.
    """

    names: tuple[str, ...]
    category: str
    rule: str
    gb_id: str | None
    reason: str  # Dynamo's reason, short
    note: str  # one line: what happens and what to do instead
    case: tuple[str, ...]
    confirmed: str
    torch_min: tuple[int, int] = (2, 4)
    torch_max: tuple[int, int] | None = None
    form: str = "call"
    size_at: int | None = None
    masked: tuple[tuple[int, str, str], ...] = ()
    traced: tuple[str, ...] = ()
    why: str | None = None  # the finding's consequence, where the form's general wording would mislead

    def applies_to(self, version: tuple[int, int]) -> bool:
        return self.torch_min <= version and (self.torch_max is None or version < self.torch_max)

    def torch_range(self) -> str:
        low = "%d.%d" % self.torch_min
        return f">= {low}" if self.torch_max is None else f">= {low}, < " + "%d.%d" % self.torch_max


class Table:
    """The entries of one rule that hold for one torch release, indexed by name."""

    def __init__(self, entries: tuple[Entry, ...]) -> None:
        self.entries = entries
        self.exact: dict[str, Entry] = {}
        prefixes: list[tuple[str, Entry]] = []
        for entry in entries:
            for name in entry.names:
                if name.endswith(".*"):
                    prefixes.append((name[:-1], entry))
                else:
                    self.exact.setdefault(name, entry)
        self.prefixes = tuple(prefixes)

    def get(self, qualified: str | None) -> Entry | None:
        if not qualified:
            return None
        entry = self.exact.get(qualified)
        if entry is None:
            for prefix, candidate in self.prefixes:
                if qualified.startswith(prefix):
                    return candidate
        return entry

    def names(self, prefix: str) -> frozenset[str]:
        """The rest of every exact name that starts with `prefix` (`torch.Tensor.` -> methods)."""
        return frozenset(n[len(prefix):] for n in self.exact if n.startswith(prefix))
