"""Reading a file's bytes into text the way Python itself would, or saying why not."""

from __future__ import annotations

import errno
import io
import os
import stat
import tokenize
from dataclasses import dataclass

from compilelint.limits import MAX_BYTES


class SourceError(Exception):
    """The file cannot be checked; the message says why, for a CL000 diagnostic."""


@dataclass(slots=True)
class Source:
    text: str
    encoding: str


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _not_utf8(data: bytes, declared: bool = False) -> str:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"byte 0x{data[exc.start]:02X} on line {_line_of(data, exc.start)}"
        if declared:
            return f"not valid UTF-8 ({where}) although it declares UTF-8"
        return (f"not valid UTF-8 ({where}) and no encoding declared: save it as UTF-8 or "
                "declare its encoding (`# -*- coding: latin-1 -*-`)")
    return "invalid or missing encoding declaration"


def decode(data: bytes) -> Source:
    if len(data) > MAX_BYTES:
        raise SourceError(f"file too large to analyse ({len(data) / 2**20:.1f} MiB; the limit is "
                          f"{MAX_BYTES // 2**20} MiB): exclude it if it is generated data")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise SourceError("UTF-16 text (byte order mark): Python source must be UTF-8 or an 8-bit encoding")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise SourceError(f"binary file (a NUL byte on line {_line_of(data, nul)}), not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "invalid or missing encoding declaration" in str(exc):
            raise SourceError(_not_utf8(data)) from None
        raise SourceError(f"cannot determine the encoding: {exc}") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding in ("utf-8", "utf-8-sig"):
            declared = b"coding" in b"\n".join(data.split(b"\n", 2)[:2])
            raise SourceError(_not_utf8(data[3:] if encoding == "utf-8-sig" else data, declared)) from None
        raise SourceError(f"not valid {encoding} text (byte 0x{data[exc.start]:02X} on line "
                          f"{_line_of(data, exc.start)}): {exc.reason}") from None
    except LookupError as exc:
        raise SourceError(f"cannot decode: {exc}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return Source(text, encoding)


def read(path: str) -> Source:
    return decode(read_bytes(path))


def read_bytes(path: str) -> bytes:
    """The file's bytes, or SourceError saying why not; never blocks on a FIFO or device."""
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
        if exc.errno == errno.ELOOP:
            raise SourceError("symbolic link loop (too many levels of symbolic links)") from None
        raise SourceError(f"cannot read: {exc.strerror or exc}") from None
    return data
