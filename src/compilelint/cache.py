"""The analysis cache: one entry per file analysis, keyed by what the analysis depends on.

A file's analysis (`engine.analyze_path`) is a pure function of the file's bytes, its
displayed path and module name, the settings, and the code doing the analysis — and of the
one fact it reads from other files, which `from SRC import torch` hand it torch
(`handed_torch`), hashed into the key too. The key
of an entry hashes exactly these, never a modification time (a CI checkout resets
those), so an entry is either right or never looked up. Which functions are compiled is
recomputed each run from every file's (cached) summary, so a change in one module is
seen by the files that call into it without re-analysing them.

Layout, in `<project root>/.compilelint_cache/` by default::

    CACHEDIR.TAG  .gitignore (``*``)
    <salt>/<2 hex>/<30 hex>      one entry per file analysis

where `<salt>` hashes the tool version, `Settings.fingerprint()` (the settings a file's
analysis reads; not which rules are selected, nor `roots`: every rule runs on every
file, and the engine selects afterwards), the source of the analysing modules (rules
included: editing a rule invalidates its results), the Python and libcst versions. An
entry is written to a temporary file and renamed into place, so readers see a whole entry
or none; entries carry a checksum, and a damaged one (a killed run, a full disk, an edit
by hand) reads as a miss and is rewritten. Two runs sharing the folder at once write
identical entries for identical keys.

Entries are `marshal` data (plain tuples, lists, dicts and strings, the summary as
`ModuleSummary.to_json()` gives it: fast to load, no code runs when loading; never pickle, since the folder sits in the checked tree and a pull
request could plant an entry); the same bytes carry results from worker processes to the
parent. A planted entry can at most claim results for a file, which the same pull
request could get by editing the file.
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
import os
import re
import sys
from functools import lru_cache

from compilelint import __version__
from compilelint.atomic import write_bytes
from compilelint.handed_torch import handed_on
from compilelint.sparse_sources import sparse_on

FORMAT = 41  # 2: summaries carry loop positions; 3: findings carry `help` and their edits;
# 4: summaries are `summary.ModuleSummary` rows; 5: call edges carry their `when`;
# 6: `given:` labels (semantic.facts), call edges mark `**` and literal flags;
# 7: a forward-swapping decorator says whether it keeps the original (summary.KEEPS);
# 8: classes list the attributes set from constructor parameters; 9: functions say whether
# they are property accessors; 10: a call edge may name a registry's classes ("A|B"), and
# methods called on a local built from a class are `ctorcall` edges; a top-level package's
# summary lists its re-exports; 11: functions returning tuple displays keep each element's kind;
# 12: an attribute may hold an autograd Function's `apply` ("apply:C"); 13: a guessed
# parameter the body uses as text or a mapping is a Python value; 14: functions say whether
# they are `@torch.no_grad()` / `@torch.inference_mode()` methods (API entry points);
# 15: an attribute may hold bound methods of the instance ("self:a|b"), and a call through
# a local name bound to functions names each ("a|b", kind name or dotted); 16: classes list
# their tensor attributes (a subclass in another file reads them); 17: call edges name the
# caller's parameters they pass on (`forwards`), and `given:=NAME` labels; 18: star imports
# (`from ._neurons import *`) are in the import table as "*" + module; 21: functions name the
# nested functions they return (`closures`); 22: an attribute set to a different class in
# each branch of the class holds them all ("A|B"); 23: functions say whether they are
# `functools.cached_property` getters, and `self.a.x` reads are `attrprop` edges (CL147);
# 24: call edges name the caller's `self.` attributes they pass (`attrs`); 25: functions that
# return nothing say what their return annotation promises (`promised`); 26: functions list their
# `self.x = v` writes and `.parameters()` reads in order (`state`), classes their registered state;
# 27: calling an object just built (`Bands(n)(x)`, `Bands(n).to(x)(x)`) is an `instance` edge;
# 28: classes hold the buffers they register under a computed name, as `indices_{}`; methods say
# whether they run a training step (`trains`); 29: those names are globs (`indices_*`, kinds.name_pattern);
# 30: a subpackage `__init__` that declares `__all__` lists its exports (index_roots._library);
# 31: an attribute built from a local that picks a class (`rnn_cls = nn.GRU if gru else nn.LSTM`) holds "A|B"
# 32: an attribute annotated `X | None` holds an X; 33: functions say whether they are pydantic validators
# 34: call edges name the arguments that are sparse tensors (`sparse`); 35: functions handed to a
# call, `self(...)` and a method of a factory's result are call edges, and a factory's return
# annotation says what it builds; 36: functions say whether they walk a module tree (`walks`);
# 37: methods say whether their bodies show a parameter is a tensor (`shows`, index_roots._object_methods)
# 38: calling a closure an enclosing function defines is a `name` edge (semantic.calls._enclosing_def)
# 40: an attribute may hold a function the method defines (`attr_functions`: `Cls.m.<locals>.f`)
# 41: a class a function defines is a class: its methods are methods (`build.<locals>.Net.forward`)
MAGIC = b"CLC1"
FOLDER = ".compilelint_cache"
CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by compilelint.\n"
    "# For information about cache directory tags, see https://bford.info/cachedir/\n"
)
GITIGNORE = "# Automatically created by compilelint.\n*\n"
_PACKAGE = os.path.dirname(os.path.abspath(__file__))
# Parts of the package that take no part in a file's analysis.
_NOT_ANALYSIS = ("probe", "report", "cli.py", "cache.py", "parallel.py", "pages.py", "__main__.py",
                 "index.py", "discovery.py", "baseline.py", "fixes.py", "atomic.py", "registry.py",
                 "registry_data.py", "registry_gen.py", "run_cache.py")


# ---- the salt: everything every entry depends on ---------------------------------------

@lru_cache(maxsize=1)
def code_hash() -> str:
    """A hash of the source of every module that takes part in analysing a file (the
    engine, the walker, inference, every rule, ...)."""
    return source_hash(_NOT_ANALYSIS)


def source_hash(leaving_out: tuple[str, ...] = ()) -> str:
    """A hash of the package's modules, but for the top-level files and folders named."""
    digest = hashlib.blake2b(digest_size=16)
    for folder, dirs, files in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d not in leaving_out and not d.startswith(("_", ".")))
        for name in sorted(files):
            if not name.endswith(".py") or (folder == _PACKAGE and name in leaving_out):
                continue
            path = os.path.join(folder, name)
            digest.update(os.path.relpath(path, _PACKAGE).encode())
            try:
                with open(path, "rb") as handle:
                    digest.update(handle.read())
            except OSError:
                digest.update(b"?")
    return digest.hexdigest()


def _schema() -> str:
    _, _, fields, _, finding_fields = layout()
    return ",".join(fields) + "/" + ",".join(finding_fields)


@lru_cache(maxsize=1)
def _libcst_version() -> str:
    """libcst's version, read from its `_version.py` without importing libcst (the import
    is most of the time a run spends when every file is cached)."""
    import importlib.util

    spec = importlib.util.find_spec("libcst")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        try:
            with open(os.path.join(folder, "_version.py"), encoding="utf-8") as handle:
                match = re.search(r"""^__version__\s*=\s*(?:version\s*=\s*)?["']([^"']+)["']""",
                                  handle.read(), re.MULTILINE)
        except OSError:
            continue
        if match:
            return match.group(1)
    from importlib.metadata import version

    return version("libcst")


def salt(settings) -> str:
    libcst_version = _libcst_version()
    parts = (
        f"format={FORMAT}", f"compilelint={__version__}", f"settings={settings.fingerprint()}",
        f"code={code_hash()}", f"python={sys.version_info[0]}.{sys.version_info[1]}",
        f"libcst={libcst_version}", f"schema={_schema()}",
    )
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=8).hexdigest()


def entry_key(data: bytes, path: str, module: str, memo: dict | None = None) -> str:
    """The key of one file's analysis: its bytes, its displayed path and module name, which of
    its `from SRC import torch` hand it the torch module, and the bytes of the project modules
    it imports from that build sparse tensors (both read from other files; `memo`: one run's,
    for `sparse_on`)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(path.encode("utf-8", "surrogateescape"))
    digest.update(b"\0")
    digest.update(module.encode("utf-8", "surrogateescape"))
    digest.update(b"\0")
    digest.update(data)
    if handed := handed_on(data, path, module):
        digest.update(b"\0" + handed)
    if sparse := sparse_on(data, path, module, memo):
        digest.update(b"\1" + sparse)
    return digest.hexdigest()


# ---- (de)serialisation --------------------------------------------------------------

@lru_cache(maxsize=1)
def layout():
    from compilelint.finding import FileAnalysis, Finding

    fields = [f.name for f in dataclasses.fields(FileAnalysis)]
    finding_lists = frozenset(f.name for f in dataclasses.fields(FileAnalysis) if "Finding" in str(f.type))
    finding_fields = [f.name for f in dataclasses.fields(Finding)]
    return FileAnalysis, Finding, fields, finding_lists, finding_fields


def finding_row(finding, finding_fields) -> tuple:
    """A Finding as a plain tuple (its edits as tuples too: marshal writes no dataclass)."""
    return tuple(tuple(edit.as_tuple() for edit in finding.edits) if name == "edits" else getattr(finding, name)
                 for name in finding_fields)


def finding_from_row(row, Finding, finding_fields):
    from compilelint.finding import Edit

    finding = Finding(*row)
    if finding.edits:
        finding.edits = tuple(Edit(*edit) for edit in finding.edits)
    return finding


def encode(analysis, lines: int) -> bytes | None:
    """A FileAnalysis and its line count as bytes (with a checksum), or None when it holds
    something `marshal` cannot write (then it is not cached)."""
    _, _, fields, finding_lists, finding_fields = layout()
    values = []
    for name in fields:
        value = getattr(analysis, name)
        if name in finding_lists:
            value = [finding_row(f, finding_fields) for f in value]
        elif name == "summary":
            value = value.to_json()
        values.append(value)
    try:
        payload = b"m" + marshal.dumps((FORMAT, lines, _shared(tuple(values), {})))
    except ValueError:  # an object marshal cannot write
        return None
    return framed(payload)


def _shared(value, tuples: dict):
    """`value` with its strings interned and equal tuples made one object. marshal writes
    an object it has seen once, then back-references, and reads interned strings back
    interned: entries shrink, and a run holding thousands of analyses (the summaries of a
    million lines are mostly the same few thousand names) keeps one copy of each name."""
    kind = type(value)
    if kind is str:
        return sys.intern(value)
    if kind is list:
        return [_shared(item, tuples) for item in value]
    if kind is dict:
        return {_shared(key, tuples): _shared(item, tuples) for key, item in value.items()}
    if kind is tuple:
        value = tuple(_shared(item, tuples) for item in value)
        try:
            return tuples.setdefault(value, value)
        except TypeError:  # holds a list or a dict
            return value
    return value


def framed(payload: bytes) -> bytes:
    return MAGIC + hashlib.blake2b(payload, digest_size=8).digest() + payload


def intact(blob: bytes) -> bool:
    """Whether `blob` is whole: `encode`'s bytes with a checksum that matches."""
    return len(blob) >= 13 and blob[:4] == MAGIC and \
        hashlib.blake2b(blob[12:], digest_size=8).digest() == blob[4:12]


def decode(blob: bytes, *, checked: bool = False):
    """(FileAnalysis, lines) from `encode`'s bytes; ValueError when they are damaged or not
    an entry. Only `marshal` data is ever read back: never pickle, as an entry may have
    been planted in the checked tree, and loading marshal data runs no code."""
    if not checked and not intact(blob):
        raise ValueError("damaged cache entry")
    from compilelint.summary import ModuleSummary

    FileAnalysis, Finding, fields, finding_lists, finding_fields = layout()
    if blob[12:13] != b"m":
        raise ValueError("not a cache entry")
    try:
        record = marshal.loads(blob[13:])
        fmt, lines, values = record
        if fmt != FORMAT or type(lines) is not int or type(values) is not tuple or len(values) != len(fields):
            raise ValueError("cache entry of another format")
        kwargs = dict(zip(fields, values))
        for name in finding_lists:
            kwargs[name] = [finding_from_row(row, Finding, finding_fields) for row in kwargs[name]]
        kwargs["summary"] = ModuleSummary.from_json(kwargs["summary"])
        return FileAnalysis(**kwargs), lines
    except ValueError:
        raise
    except Exception as exc:  # noqa: BLE001 - any damage reads as a miss
        raise ValueError(f"damaged cache entry: {exc}") from None


# ---- the store ------------------------------------------------------------------------

def default_folder(settings) -> str:
    return os.path.join(settings.root, FOLDER)


class Cache:
    """Entries under `folder/<salt>/`. Every failure to read is a miss; every failure to
    write is silent (the run's results never depend on the cache)."""

    def __init__(self, folder: str, settings) -> None:
        self.folder = os.path.abspath(folder)
        self.salt = salt(settings)
        self.base = os.path.join(self.folder, self.salt)
        self._made: set[str] = set()
        self.writable = True

    def get(self, key: str) -> bytes | None:
        """The entry's bytes, unchecked (decode checks), or None."""
        return self.get_file(_entry_name(key))

    def get_file(self, name: str) -> bytes | None:
        try:
            with open(os.path.join(self.base, name), "rb") as handle:
                return handle.read()
        except OSError:
            return None

    def prepare(self) -> bool:
        """Create the folder with its CACHEDIR.TAG and .gitignore; False when it cannot be."""
        try:
            os.makedirs(self.base, exist_ok=True)
            for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", GITIGNORE)):
                target = os.path.join(self.folder, name)
                if not os.path.exists(target):
                    write_bytes(target, text.encode(), prefix=".tmp-")
        except OSError:
            self.writable = False
        return self.writable

    def put(self, key: str, blob: bytes) -> None:
        self.put_file(_entry_name(key), blob)

    def put_file(self, name: str, blob: bytes) -> None:
        if not self.writable:
            return
        path = os.path.join(self.base, name)
        folder = os.path.dirname(path)
        try:
            if folder not in self._made:
                os.makedirs(folder, exist_ok=True)
                self._made.add(folder)
            write_bytes(path, blob, prefix=".tmp-")
        except OSError:
            self.writable = False  # read-only or full: stop trying, keep checking


def _entry_name(key: str) -> str:
    return os.path.join(key[:2], key[2:])
