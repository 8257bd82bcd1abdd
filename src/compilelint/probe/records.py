"""What the probe records about one compiled run: each break (:class:`BreakRecord`)
and the capture as a whole (:class:`CaptureResult`). Plain data, no torch."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("graph_break", "recompile", "frame_skip")


@dataclass
class BreakRecord:
    kind: str  # "graph_break" | "recompile" | "frame_skip"
    reason: str  # Dynamo's reason text (one line)
    gb_id: str | None  # e.g. "GB0170" when Dynamo gives one
    file: str | None  # innermost USER frame (not torch internals) of the break
    line: int | None
    stack: list[tuple[str, int]] = field(default_factory=list)  # user frames, outermost first
    function: str | None = None  # name of the function of the innermost user frame
    detail: str = ""  # Dynamo's full message (multi-line), for humans
    count: int = 1  # how many identical records were seen
    # other user locations Dynamo names (the loop a break sits in, the skipped
    # function's def line, where a branch condition was computed)
    related: list[tuple[str, int]] = field(default_factory=list)
    # seen on the target's first call in a fresh process, not again once the process
    # is warm (lazy initialisation, caches, warn-once logging): a user's first
    # compiled call still hits it
    first_call_only: bool = False

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["stack"] = [list(f) for f in self.stack]
        d["related"] = [list(f) for f in self.related]
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "BreakRecord":
        data = dict(data)
        data["stack"] = [(str(f), int(n)) for f, n in data.get("stack", [])]
        data["related"] = [(str(f), int(n)) for f, n in data.get("related", [])]
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)

    def key(self) -> tuple:
        return (self.kind, self.reason, self.gb_id, self.file, self.line)

    def place(self) -> tuple:
        """What identifies the same break on another run (reasons can name objects)."""
        return (self.kind, self.gb_id, self.file, self.line)


@dataclass
class CaptureResult:
    breaks: list[BreakRecord]
    graph_count: int
    op_count: int
    error: str | None  # exception text if running the target raised
    ops_per_graph: list[int] = field(default_factory=list)
    error_traceback: str | None = None
    torch_version: str | None = None
    # with record_lines: user lines Dynamo traced (it judged them), and user lines the
    # interpreter ran while the compiled callable ran (frames Dynamo skipped, code
    # after a break it did not resume in); None when not recorded
    lines_traced: dict[str, list[int]] | None = None
    lines_ran_eagerly: dict[str, list[int]] | None = None

    @property
    def graph_breaks(self) -> list[BreakRecord]:
        return [b for b in self.breaks if b.kind == "graph_break"]

    @property
    def recompiles(self) -> list[BreakRecord]:
        return [b for b in self.breaks if b.kind == "recompile"]

    @property
    def frame_skips(self) -> list[BreakRecord]:
        return [b for b in self.breaks if b.kind == "frame_skip"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "breaks": [b.to_dict() for b in self.breaks],
            "graph_count": self.graph_count,
            "op_count": self.op_count,
            "error": self.error,
            "ops_per_graph": list(self.ops_per_graph),
            "error_traceback": self.error_traceback,
            "torch_version": self.torch_version,
            "lines_traced": self.lines_traced,
            "lines_ran_eagerly": self.lines_ran_eagerly,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CaptureResult":
        return cls(
            breaks=[BreakRecord.from_dict(b) for b in data.get("breaks", [])],
            graph_count=int(data.get("graph_count", 0)),
            op_count=int(data.get("op_count", 0)),
            error=data.get("error"),
            ops_per_graph=list(data.get("ops_per_graph", [])),
            error_traceback=data.get("error_traceback"),
            torch_version=data.get("torch_version"),
            lines_traced=_lines(data.get("lines_traced")),
            lines_ran_eagerly=_lines(data.get("lines_ran_eagerly")),
        )


def _lines(d: dict[str, Any] | None) -> dict[str, list[int]] | None:
    return None if d is None else {str(f): [int(n) for n in ls] for f, ls in d.items()}
