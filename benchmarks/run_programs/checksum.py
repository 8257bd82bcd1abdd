"""The weights' checksum the programs print and write, to compare a run under the probe
with a plain one."""

from __future__ import annotations


def report(model, what: str, value: float, out: str | None) -> None:
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"{what} {value:.6f}; weights checksum {checksum:.6f}")
    if out:
        with open(out, "w") as fh:
            fh.write(f"{checksum!r}\n")
