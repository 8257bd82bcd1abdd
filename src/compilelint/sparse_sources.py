"""Which names a file imports from project modules that build sparse tensors: ptwt's
`from .sparse_math import construct_strided_conv_matrix`, torch-harmonics'
`from ._disco_utils import _get_psi`. CL153's model of a file (rules._sparse) then reads those
modules to learn which of the names return a sparse tensor, so what a file's analysis decides
depends on their bytes too: `cache.entry_key` hashes `sparse_on(...)`.

A module "builds sparse tensors" when its text names a sparse builder, conversion or product
(MARKERS); only modules of the file's own package are read (a relative import, or an absolute
one under the same top-level package). No libcst here: the key is computed on every run,
cache hits included, so reading is by regular expression and each module's bytes are read
once per run (kept while its size and mtime stay the same)."""

from __future__ import annotations

import hashlib
import os
import re

from compilelint.handed_torch import resolve_relative, source_base

# a file whose text names none of these builds, converts or unpacks no sparse tensor
MARKERS = ("torch.sparse", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "sparse_compressed",
           "to_sparse", "._values(", "._indices(", ".coalesce(", "crow_indices", "spmm", "smm(")
_MARKER_BYTES = tuple(m.encode() for m in MARKERS)
# fewer needles that every marker contains: most modules are scanned with these alone
_ROUGH = (b"sparse", b"_values(", b"_indices", b"coalesce(", b"smm(", b"spmm")
FROM_IMPORT = re.compile(rb"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]*(\([^)]*\)|[^\n#;]*)", re.MULTILINE)
_NAME = re.compile(r"^([A-Za-z_]\w*)(?:\s+as\s+([A-Za-z_]\w*))?$")
DEPTH = 3  # modules followed from a file: its imports, theirs, and theirs

_read: dict[str, tuple[tuple[int, int], bytes | None]] = {}  # path -> ((mtime_ns, size), bytes if it builds sparse)
_files: dict[str, str] = {}  # a module's path without `.py` (handed_torch.source_base) -> its file


def names_text(text: str) -> bool:
    """Whether a file's text names a sparse builder, conversion or product."""
    return any(m in text for m in MARKERS)


def module_file(path: str, module: str, source: str) -> str | None:
    """The file of project module `source`, seen from the file at `path` (module `module`)."""
    base = source_base(path, module, source)
    found = _files.get(base)
    if found is None:  # (only what exists is kept: a module made later, in a daemon's life, is found)
        found = next((c for c in (base + ".py", os.path.join(base, "__init__.py")) if os.path.isfile(c)), None)
        if found is not None:
            _files[base] = found  # the files of a package import the same few modules
    return found


def sparse_bytes(path: str) -> bytes | None:
    """The bytes of the module at `path` when its text names a sparse marker, else None."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    stamp = (stat.st_mtime_ns, stat.st_size)
    kept = _read.get(path)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        data = b""
    found = data if any(m in data for m in _ROUGH) and any(m in data for m in _MARKER_BYTES) else None
    _read[path] = (stamp, found)
    return found


def sources(data: bytes, path: str, module: str, memo: dict | None = None) -> dict[str, tuple[str, str, str]]:
    """local name -> (module file, module name, imported name) of each name the file imports
    from a module of its own package that builds sparse tensors. `memo` (one run's, see
    `sparse_on`) keeps what each import resolved to and each module's bytes."""
    if not path or not module or b"from" not in data:
        return {}
    top = module.split(".")[0]
    # (the files of one folder and package resolve an import alike: `from ..x import` drops the
    # file's own name first, and source_base's depth is the package's)
    package = module if path.endswith(("__init__.py", "__init__.pyi")) else module.rpartition(".")[0]
    folder = os.path.dirname(path)
    out: dict[str, tuple[str, str, str]] = {}
    for match in _from_imports(data):
        level, name = len(match.group(1)), match.group(2).decode("ascii", "replace")
        if not level and name.split(".")[0] != top:
            continue  # (another package's module: not read)
        key = (folder, package, level, name)
        resolved = memo.get(key) if memo is not None else None
        if resolved is None:
            source = resolve_relative(module, path, level, name or None) if level else name
            found = module_file(path, module, source) if source else None
            resolved = (source, found if found is not None and _builds(found, memo) else None)
            if memo is not None:
                memo[key] = resolved
        source, found = resolved
        if found is None or source == module:
            continue
        for item in match.group(3).decode("utf-8", "replace").strip("()").replace("\\\n", " ").split(","):
            named = _NAME.match(item.strip())
            if named:
                out[named.group(2) or named.group(1)] = (found, source, named.group(1))
    return out


def _builds(path: str, memo: dict | None) -> bytes | None:
    """sparse_bytes, looked up once per run when there is a run's memo."""
    if memo is None:
        return sparse_bytes(path)
    if path not in memo:
        memo[path] = sparse_bytes(path)
    return memo[path]


def _from_imports(data: bytes):
    """FROM_IMPORT's matches, found from each `from ` rather than by trying every position
    (four times faster: the key is computed for every file on every run)."""
    starts = set()
    for needle in (b"from ", b"from\t"):
        at = data.find(needle)
        while at != -1:
            line = data.rfind(b"\n", 0, at) + 1
            if not data[line:at].strip(b" \t"):
                starts.add(line)
            at = data.find(needle, at + 5)
    for line in sorted(starts):
        if match := FROM_IMPORT.match(data, line):
            yield match


def sparse_on(data: bytes, path: str, module: str, memo: dict | None = None) -> bytes:
    """For a file's cache key: the modules its sparse model reads, with a digest of each
    one's bytes, followed as far as the model follows them (b"" when none). A run that keys
    many files passes one `memo` (a dict it drops when the run ends): each import is resolved
    and each module stat'ed once per run instead of once per file importing it."""
    seen: dict[str, bytes] = {}
    frontier = [(data, path, module)]
    for _ in range(DEPTH):
        nxt = []
        for data_, path_, module_ in frontier:
            for found, source, _ in sources(data_, path_, module_, memo).values():
                if found not in seen and found != path:
                    body = _builds(found, memo) or b""
                    seen[found] = hashlib.blake2b(body, digest_size=8).digest()
                    nxt.append((body, found, source))
        frontier = nxt
    return b"".join(p.encode("utf-8", "surrogateescape") + b"=" + d for p, d in sorted(seen.items()))
