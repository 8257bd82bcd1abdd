"""The last run's selected findings, for a run that would select them again unchanged.

Selecting findings (the project index, the compiled region, the call sites, the kind
solver) reads every file's summary: on a large project it is most of a warm run, though
nothing has changed since the last one. What it selects is a pure function of the
analyses (each keyed by `cache.entry_key`: a file's bytes, path and module), the settings
(all of them: `select`, `roots` and `assume` too) and the code of the whole package. A
run whose files have the same entry keys as the last run's, under the same settings and
code, reuses that run's findings without decoding a single analysis.

One entry per *run identity* (the settings and the list of files checked), overwritten by
each run: the folder holds one entry for each way the project is checked (`check src/`,
`check src/ --select CL1`, ...), not one per edit. Entries live beside the file analyses,
in `<cache folder>/<salt>/runs/`, and are read the same way: `marshal` data with a
checksum, never pickle; a damaged or foreign entry is a miss.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import marshal
import os
from functools import lru_cache

from compilelint import cache, external_classes

FORMAT = 2


@lru_cache(maxsize=1)
def package_hash() -> str:
    """A hash of every module of the package: selection runs through most of them."""
    return cache.source_hash()


def _settings_text(settings) -> str:
    data = dataclasses.asdict(settings)
    data.pop("probe", None)  # read by the probe, never by selection
    return json.dumps(data, sort_keys=True, default=str)


def identity(settings, files: list[str]) -> str:
    """Which entry a run reads and writes: its settings and the files it checks."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(_settings_text(settings).encode())
    for path in files:
        digest.update(b"\0" + path.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def content_key(settings, keys: list[str]) -> str:
    """What the run's findings depend on beyond its identity: every file's entry key and
    the package's code."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{FORMAT}/{cache.FORMAT}/{package_hash()}".encode())
    for key in keys:
        digest.update(key.encode())
    return digest.hexdigest()


def _name(run_id: str) -> str:
    return os.path.join("runs", run_id)


def load(store, run_id: str, key: str):
    """(findings, files, lines) of the run stored under `run_id` when its content key is
    `key`, else None."""
    blob = store.get_file(_name(run_id))
    if blob is None or not cache.intact(blob) or blob[12:13] != b"r":
        return None
    _, Finding, _, _, finding_fields = cache.layout()
    try:
        fmt, stored_key, files, lines, rows, installed = marshal.loads(blob[13:])
        if fmt != FORMAT or stored_key != key or not external_classes.unchanged(installed):
            return None  # (an installed package whose classes the selection read has changed)
        return [cache.finding_from_row(row, Finding, finding_fields) for row in rows], files, lines
    except Exception:  # noqa: BLE001 - any damage reads as a miss
        return None


def save(store, run_id: str, key: str, findings, files: int, lines: int) -> None:
    _, _, _, _, finding_fields = cache.layout()
    rows = [cache.finding_row(f, finding_fields) for f in findings]
    try:
        payload = b"r" + marshal.dumps((FORMAT, key, files, lines, rows, external_classes.consulted()))
    except ValueError:  # something marshal cannot write: not cached
        return
    store.put_file(_name(run_id), cache.framed(payload))
