"""Writing a file so that readers see the old content or the new, never part of either.

Every file compilelint writes goes through here: reports (`-o`), baselines, fixed
sources, cache entries, the probe's results, the generated registry.
"""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache


def write_bytes(path: str | os.PathLike[str], data: bytes, *, mode: int | None = None, sync: bool = False,
                make_folder: bool = False, prefix: str = ".compilelint-", suffix: str = "") -> None:
    """Write `data` to a temporary file beside `path`, then rename it into place.

    `mode`: the permission bits (default: what a plain `open()` would give, the umask
    applied; mkstemp alone would make it private). `sync`: flush to disk before the
    rename, for files a user keeps (a fixed source, a baseline). `make_folder`: create
    the folder first. Raises OSError; the temporary file never outlives a failure."""
    folder = os.path.dirname(os.path.abspath(path))
    if make_folder:
        os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, _default_mode() if mode is None else mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_text(path: str | os.PathLike[str], text: str, *, errors: str = "strict", **options) -> None:
    """`text` as UTF-8, line ends as given (`errors="backslashreplace"` keeps a file name
    that is not valid UTF-8 from stopping a report); `options` as for `write_bytes`."""
    write_bytes(path, text.encode("utf-8", errors), **options)


@lru_cache(maxsize=1)
def _default_mode() -> int:
    mask = os.umask(0o022)  # the umask can only be read by setting it
    os.umask(mask)
    return 0o666 & ~mask
