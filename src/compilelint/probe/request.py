"""What the parent asks of a probe worker: how to run a target. Every option and its
default lives here only; the command line, `[tool.compilelint.probe]` and the API set
fewer and leave the rest to these defaults. The worker reads the same class back from
the request file (`to_request` / `from_request`), so both sides agree on one encoding.

No torch here: the parent imports it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")


@dataclass
class ProbeOptions:
    timeout: float = 300.0  # seconds a target may run, in its own process
    device: str | None = None  # None: CUDA when there is one, else the CPU
    modes: list[str] | None = None  # torch.compile modes to time; None: timing.default_modes
    backend: str = "inductor"  # the backend timed
    capture_backend: str = "eager"  # the backend graphs and breaks are captured with
    timing: bool = True
    warmup: int = 3  # calls before timing
    runs: int = 30  # timed calls
    train: bool = False  # train mode, with gradients
    dtype: str | None = None  # cast the module and inputs ("float16", ...)
    what_if: bool = True  # re-time with each Dynamo knob that would remove a break
    worth_it_calls: int | None = None  # calls the break-even is judged over; None: worth.DEFAULT_MAX_CALLS
    fresh_cache: bool = True  # compile times measured with a cold inductor cache
    fullgraph_check: bool = True  # also try fullgraph=True
    min_time: float | None = None  # at least this long timing each mode (seconds)
    warmup_time: float | None = None  # at least this long warming up (seconds)

    def to_request(self, target: dict[str, Any], name: str) -> dict[str, Any]:
        """The worker's request file: the target, its name, and every option."""
        return {"target": target, "name": name, **dataclasses.asdict(self)}

    @classmethod
    def from_request(cls, request: dict[str, Any]) -> "ProbeOptions":
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{key: value for key, value in request.items() if key in known})


DEFAULT_TIMEOUT = ProbeOptions.timeout
