"""Analysing files across processes, through the cache.

`make_analyzer(jobs=, cache=, cache_dir=)` returns the analyzer `engine.check` takes:
``analyzer(files, settings) -> Iterable[(FileAnalysis, lines)]``, yielding in the order of
`files` (the order the sequential analyzer uses, so results cannot depend on `--jobs`).

1. Look-up, in this process: each file's bytes are read and hashed; an entry in the cache
   (see `compilelint.cache`) is a hit. A warm run ends here: no pool, no parsing.
2. Misses: a handful are analysed here, as a pool costs more to start than it saves —
   unless hundreds of hits are to be decoded meanwhile: then a worker analyses them while
   this process decodes. Many misses go to a pool of `jobs` processes, largest files
   first, small files in chunks.
   Each worker sets up the rules once, analyses the bytes it read itself (so the entry it
   writes matches what it analysed, even if the file changes meanwhile), writes the cache
   entry, and sends back the same compact bytes. Results stream back as they finish.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterable, Iterator

# Below this much source to analyse, or this many files, a pool costs more than it saves.
IN_PROCESS_BYTES = 200_000
IN_PROCESS_FILES = 3
OVERLAP_HITS = 500  # this many cached files take longer to decode than a worker to start
CHUNK_BYTES = 64_000  # files are sent to workers in chunks of about this much source
CHUNK_FILES = 16


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Analyzer:
    """The analyzer for `engine.check`: `jobs` processes (default: the cores this process
    may use), reading and writing the cache unless `cache` is false."""

    def __init__(self, jobs: int | None = None, cache: bool = True, cache_dir: str | None = None) -> None:
        self.jobs, self.cache, self.cache_dir = jobs or default_jobs(), cache, cache_dir
        self._stores: dict[str, object] = {}
        self._keys: dict[str, str] | None = None  # entry keys `recall` worked out, for the analysis next
        self._run: tuple[str, str] | None = None  # (identity, content key) of this run's entry

    def store(self, settings):
        """The cache for `settings` (made once), or None: no cache, or it cannot be written."""
        if not self.cache:
            return None
        key = settings.fingerprint()
        if key not in self._stores:
            from compilelint import cache as cache_mod

            store = cache_mod.Cache(self.cache_dir or cache_mod.default_folder(settings), settings)
            self._stores[key] = store if store.prepare() else None
        return self._stores[key]

    def __call__(self, files: list[str], settings) -> Iterator:
        keys, self._keys = self._keys, None
        return analyze_files(files, settings, jobs=self.jobs, store=self.store(settings), keys=keys)

    def recall(self, files: list[str], settings):
        """The last run's (findings, files, lines) when this run would select the same
        (`compilelint.run_cache`), else None."""
        store = self.store(settings)
        self._keys = self._run = None
        if store is None:
            return None
        from compilelint import cache as cache_mod, run_cache
        from compilelint.engine import module_name

        keys, memo = {}, {}
        for path in files:
            data = _read(path)
            if data is None:  # unreadable: analysed (and reported) as usual
                return None
            keys[path] = cache_mod.entry_key(data, path, module_name(path), memo)
        self._keys = keys
        self._run = (run_cache.identity(settings, files), run_cache.content_key(settings, list(keys.values())))
        return run_cache.load(store, *self._run)

    def remember(self, settings, result) -> None:
        """Keep this run's selection for the next `recall`."""
        store, run, self._run = self.store(settings), self._run, None
        if store is not None and run is not None and not result.crashed:
            from compilelint import run_cache

            run_cache.save(store, *run, result.findings, result.files, result.lines)


def make_analyzer(jobs: int | None = None, cache: bool = True, cache_dir: str | None = None) -> Analyzer:
    return Analyzer(jobs, cache, cache_dir)


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _read(path: str) -> bytes | None:
    from compilelint.source import SourceError, read_bytes

    try:
        return read_bytes(path)  # never blocks on a FIFO named *.py
    except SourceError:
        return None  # analyze_path reads it again and says why


# ---- one file, here or in a worker ----------------------------------------------------

_WORKER: dict = {}


def _analyze_one(path: str, settings, rule_classes, store):
    """The cache entry's bytes for `path` (written to `store`), or (analysis, lines) when
    the analysis cannot be an entry."""
    from compilelint.cache import encode, entry_key
    from compilelint.engine import analyze_path, module_name

    data = _read(path)
    analysis, lines = analyze_path(path, settings, rule_classes, data=data)
    blob = encode(analysis, lines)
    if blob is None:
        return analysis, lines
    if store is not None and data is not None and not any(d.code == "CL001" for d in analysis.diagnostics):
        store.put(entry_key(data, path, module_name(path)), blob)
    return blob


def _init_worker(settings, store) -> None:
    from compilelint.engine import rules_for

    _WORKER["settings"] = settings
    _WORKER["rules"] = rules_for(settings)
    _WORKER["store"] = store


def _work(chunk: list[tuple[int, str]]) -> list[tuple[int, bytes]]:
    settings, rules, store = _WORKER["settings"], _WORKER["rules"], _WORKER["store"]
    return [(index, _analyze_one(path, settings, rules, store)) for index, path in chunk]


def _chunks(misses: list[tuple[int, str, int]]) -> list[list[tuple[int, str]]]:
    """Largest files first (the pool finishes evenly), small ones grouped."""
    chunks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    size = 0
    for index, path, nbytes in sorted(misses, key=lambda m: -m[2]):
        current.append((index, path))
        size += nbytes
        if size >= CHUNK_BYTES or len(current) >= CHUNK_FILES:
            chunks.append(current)
            current, size = [], 0
    if current:
        chunks.append(current)
    return chunks


def _context():
    import multiprocessing

    # fork: workers start in milliseconds with libcst and the rules already imported.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


# ---- the analyzer ---------------------------------------------------------------------

def analyze_files(files: list[str], settings, *, jobs: int = 1, store=None, keys=None) -> Iterator:
    """(FileAnalysis, lines) for each of `files`, in order; through `store` (a
    `cache.Cache`) when given. `keys`: each file's entry key, when already worked out."""
    from compilelint import cache as cache_mod
    from compilelint.engine import module_name, rules_for

    results: list = [None] * len(files)  # entry bytes (or an (analysis, lines) pair) per file
    misses: list[tuple[int, str, int]] = []
    for index, path in enumerate(files):
        if store is not None:
            key = keys.get(path) if keys else None
            data = _read(path) if key is None else None
            if key is None and data is not None:
                key = cache_mod.entry_key(data, path, module_name(path))
            if key is not None:
                blob = store.get(key)
                if blob is not None and cache_mod.intact(blob):  # else damaged: a miss
                    results[index] = blob
                    continue
            misses.append((index, path, len(data) if data is not None else _size(path)))
        else:
            misses.append((index, path, _size(path)))

    @functools.cache
    def rule_classes() -> list:  # imported only when something is analysed here
        return rules_for(settings)

    def decoded(index: int, item):
        if type(item) is tuple:
            return item
        try:
            return cache_mod.decode(item, checked=True)
        except ValueError:  # an intact entry of another format: analyse again
            again = _analyze_one(files[index], settings, rule_classes(), None)
            return again if type(again) is tuple else cache_mod.decode(again)

    position = 0

    def ready() -> Iterable:
        nonlocal position
        while position < len(files) and results[position] is not None:
            item, results[position] = results[position], None
            yield decoded(position, item)
            position += 1

    total = sum(m[2] for m in misses)
    # A few misses among many hits: analysed in a worker while this process decodes the
    # hits (on 2 cores, one changed file in a large project costs about the larger of the
    # two instead of their sum).
    overlap = bool(misses) and jobs > 1 and len(files) - len(misses) >= OVERLAP_HITS
    if not overlap and (jobs <= 1 or len(misses) <= IN_PROCESS_FILES or total <= IN_PROCESS_BYTES):
        for index, path, _ in sorted(misses):
            yield from ready()
            results[index] = _analyze_one(path, settings, rule_classes(), store)
        yield from ready()
        return

    # Only now: a warm run or a few changed files never import the pool machinery.
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    chunks = _chunks(misses)
    pending: list[list[tuple[int, str]]] = []
    if not overlap:
        rule_classes()  # before the fork: workers start with the rules imported, pages shared
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), mp_context=_context(),
                             initializer=_init_worker, initargs=(settings, store)) as pool:
        futures = {pool.submit(_work, chunk): chunk for chunk in chunks}
        try:
            if overlap:
                for index, item in enumerate(results):
                    if item is not None:
                        results[index] = decoded(index, item)
            while futures:
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in done:
                    chunk = futures.pop(future)
                    try:
                        for index, blob in future.result():
                            results[index] = blob
                    except BrokenProcessPool:  # a worker died (killed, out of memory)
                        pending.append(chunk)
                yield from ready()
        finally:
            for future in futures:
                future.cancel()
    for chunk in pending:  # what the dead pool did not finish: here, one by one
        for index, path in chunk:
            results[index] = _analyze_one(path, settings, rule_classes(), store)
    yield from ready()
