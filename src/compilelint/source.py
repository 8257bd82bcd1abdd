"""Reading a file's bytes into text the way Python itself would, or saying why not."""

from __future__ import annotations

import io
import os
import stat
import tokenize
from dataclasses import dataclass


class SourceError(Exception):
    """The file cannot be checked; the message says why, for a CL000 diagnostic."""


@dataclass(slots=True)
class Source:
    text: str
    encoding: str


def decode(data: bytes) -> Source:
    if b"\x00" in data[:8192]:
        raise SourceError("binary file (contains NUL bytes), not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise SourceError(f"cannot determine the encoding: {exc}") from None
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise SourceError(f"not valid {encoding} text: {exc}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return Source(text, encoding)


def read(path: str) -> Source:
    try:
        # O_NONBLOCK: opening a FIFO (or a device) named *.py must not hang the run.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with open(fd, "rb", closefd=True) as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if stat.S_ISDIR(mode):
                raise SourceError("is a directory")
            if not stat.S_ISREG(mode):
                raise SourceError("not a regular file (a FIFO, socket or device)")
            data = handle.read()
    except FileNotFoundError:
        raise SourceError("file vanished or is a dangling link") from None
    except IsADirectoryError:
        raise SourceError("is a directory") from None
    except PermissionError:
        raise SourceError("permission denied") from None
    except OSError as exc:
        raise SourceError(f"cannot read: {exc.strerror or exc}") from None
    return decode(data)
