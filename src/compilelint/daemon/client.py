"""Hand a `compilelint check` to a running daemon (`compilelint daemon start`), if any.

The command line pays for starting Python and, when a file changed, for importing libcst
and the rules (0.2-0.4 s: most of a one-file call). A daemon has them imported; the
command line then only sends its arguments, working directory, environment and stdin
over a Unix socket and prints what comes back. Standard library only, imported before
click: without a daemon this costs one `stat`.

The socket lives in a private folder (mode 0700, ours) named for this Python and this
copy of compilelint, so another interpreter or checkout never reaches it; a daemon whose
source files changed since it started (`signature`) refuses and the command runs here.
"""

from __future__ import annotations

import os
import stat
import sys
import zlib

# socket, json and the rest are imported once a daemon is found: without one, starting
# the command line must cost nothing more.
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DELEGATED = ("check",)
_HEADER_SIZE = 8  # a message: its length (8 bytes, big-endian), then JSON
_MAX_MESSAGE = 1 << 30


def folder() -> str:
    """The private folder of this user's daemons: $COMPILELINT_DAEMON_DIR, else
    $XDG_RUNTIME_DIR/compilelint, else <tmp>/compilelint-<uid>."""
    chosen = os.environ.get("COMPILELINT_DAEMON_DIR")
    if chosen:
        return chosen
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "compilelint")
    return os.path.join(os.environ.get("TMPDIR") or "/tmp", f"compilelint-{os.getuid()}")


def socket_path() -> str:
    """This interpreter's and this checkout's socket (short: Unix socket paths are limited)."""
    key = zlib.crc32(f"{sys.executable}\0{PACKAGE}".encode())  # a name, not a secret: the folder guards
    return os.path.join(folder(), f"{key:08x}.sock")


def private(path: str) -> bool:
    """Whether `path` is a folder of ours that nobody else may enter."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077


def signature() -> str:
    """Which code a process runs: every module of the package, by path, size and mtime
    (a stat each; no reading)."""
    import hashlib

    digest = hashlib.blake2b(digest_size=12)
    stack = [PACKAGE]
    while stack:
        top = stack.pop()
        try:
            entries = sorted(os.scandir(top), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if not entry.name.startswith((".", "__pycache__")):
                    stack.append(entry.path)
            elif entry.name.endswith(".py"):
                info = entry.stat()
                digest.update(f"{entry.path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def send(conn, message: dict) -> None:
    import json

    data = json.dumps(message).encode()
    conn.sendall(len(data).to_bytes(_HEADER_SIZE, "big") + data)


def receive(conn) -> dict | None:
    """One message, or None when the other side closed or sent something else."""
    import json

    head = _read(conn, _HEADER_SIZE)
    if head is None:
        return None
    size = int.from_bytes(head, "big")
    if size > _MAX_MESSAGE:
        return None
    body = _read(conn, size)
    if body is None:
        return None
    try:
        message = json.loads(body)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


def _read(conn, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = conn.recv(min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def connect(timeout: float | None = None):
    """A connection (a socket) to this checkout's daemon, or None (none running, or not ours)."""
    path = socket_path()
    if not os.path.exists(path) or not private(os.path.dirname(path)):
        return None
    import socket

    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(timeout)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        return None
    return conn


def delegate(argv: list[str]) -> int | None:
    """Run `compilelint ARGV` in the daemon: its exit status, or None to run it here (no
    daemon, not a `check`, --probe, the daemon runs other code, or it went away)."""
    if not argv or argv[0] not in DELEGATED or "--probe" in argv or os.environ.get("COMPILELINT_NO_DAEMON"):
        return None
    conn = connect()
    if conn is None:
        return None
    import base64

    request = {
        "op": "run", "argv": argv, "cwd": os.getcwd(), "env": dict(os.environ), "signature": signature(),
        "tty": {"stdout": _isatty(sys.stdout), "stderr": _isatty(sys.stderr)},
    }
    if "--stdin-filename" in argv or any(a.startswith("--stdin-filename=") for a in argv):
        request["stdin"] = base64.b64encode(sys.stdin.buffer.read()).decode()
    try:
        with conn:
            send(conn, request)
            reply = receive(conn)
    except OSError:
        reply = None
    if reply is None or "code" not in reply:
        if "stdin" in request:  # consumed: run here on what was read
            sys.stdin = _Stdin(base64.b64decode(request["stdin"]))
        return None
    _write(sys.stdout, reply.get("stdout", ""))
    _write(sys.stderr, reply.get("stderr", ""))
    return int(reply["code"])


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _write(stream, text: str) -> None:
    if not text:
        return
    try:
        stream.write(text)
    except UnicodeEncodeError:
        stream.flush()
        stream.buffer.write(text.encode(getattr(stream, "encoding", None) or "utf-8", "backslashreplace"))
    stream.flush()


class _Stdin:
    """Standard input already read: what `sys.stdin.buffer.read()` returns again."""

    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)

    def read(self) -> str:
        return self.buffer.read().decode()
