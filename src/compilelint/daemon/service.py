"""The daemon: `compilelint check` runs, served one at a time in a process that has
libcst, the rules and the report formats imported.

Each request runs the very command line (`cli.main`) in this process, in the caller's
working directory and environment, with its stdin, and sends back what it wrote and its
exit status: the results are the command line's by construction. Only the user who owns
the daemon may connect (the socket's folder is private; the peer's uid is checked).
"""

from __future__ import annotations

import base64
import contextlib
import io
import os
import socket
import struct
import sys
import time

from compilelint.daemon import client

IDLE_SECONDS = 3 * 3600  # a daemon nobody uses for this long goes away


class _Captured(io.StringIO):
    """Captured output that answers `isatty()` as the caller's terminal would."""

    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def warm_up() -> None:
    """Import what a run that analyses a file needs (what the command line pays per call)."""
    from compilelint import cli, config, engine, parallel  # noqa: F401
    from compilelint.report import render

    engine.rules_for(config.Settings())
    for fmt in ("text", "concise", "json"):
        render(fmt, [])


def run_cli(request: dict) -> dict:
    """Run `compilelint ARGV` as the caller would have: its stdout, stderr and exit status."""
    from compilelint import engine
    from compilelint.cli import main

    tty = request.get("tty") or {}
    out, err = _Captured(bool(tty.get("stdout"))), _Captured(bool(tty.get("stderr")))
    stdin = io.TextIOWrapper(io.BytesIO(base64.b64decode(request.get("stdin") or "")), encoding="utf-8")
    saved_env, saved_cwd, saved_stdin = dict(os.environ), os.getcwd(), sys.stdin
    code = 0
    try:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request.get("env") or {})
        sys.stdin = stdin
        # Packages may have gained or lost an __init__.py since the last run.
        engine._package_parts.cache_clear()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main.main(args=list(request["argv"]), prog_name="compilelint", standalone_mode=True)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                if isinstance(exc.code, str):
                    err.write(exc.code + "\n")
            except Exception as exc:  # noqa: BLE001 - a bug in one run must not end the daemon
                err.write(f"compilelint: internal error (daemon): {type(exc).__name__}: {exc}\n")
                code = 2
    except OSError as exc:  # the working directory is gone
        return {"stdout": "", "stderr": f"compilelint: error: {exc}\n", "code": 2}
    finally:
        sys.stdin = saved_stdin
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "code": code}


def _peer_is_us(conn: socket.socket) -> bool:
    creds = getattr(socket, "SO_PEERCRED", None)
    if creds is None:
        return True  # the private folder is the guard where the OS cannot say
    pid, uid, gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, creds, struct.calcsize("3i")))
    return uid == os.getuid()


def serve(idle: float = IDLE_SECONDS) -> int:
    """Listen on this checkout's socket until stopped, idle for `idle` seconds, or the
    code it runs changes on disk. Returns an exit status."""
    path = client.socket_path()
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    if not client.private(folder):
        print(f"compilelint daemon: {folder} is not a private folder of this user; not serving", file=sys.stderr)
        return 2
    if client.connect(timeout=2) is not None:
        print("compilelint daemon: already running", file=sys.stderr)
        return 0
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # left by a daemon that was killed
    signature = client.signature()
    warm_up()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o600)
    listener.listen(16)
    listener.settimeout(min(idle, 60))
    started, served, last = time.time(), 0, time.monotonic()
    try:
        while time.monotonic() - last < idle:
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            last = time.monotonic()
            with conn:
                conn.settimeout(None)
                if not _peer_is_us(conn):
                    continue
                request = client.receive(conn)
                if request is None:
                    continue
                op = request.get("op")
                if op == "ping":
                    client.send(conn, {"pid": os.getpid(), "started": started, "served": served,
                                       "signature": signature})
                elif op == "stop":
                    client.send(conn, {"stopped": os.getpid()})
                    return 0
                elif op == "run":
                    if request.get("signature") != signature:
                        client.send(conn, {"refused": "compilelint changed since the daemon started"})
                        return 0  # out of date: make way for a new one
                    client.send(conn, run_cli(request))
                    served += 1
        return 0
    finally:
        listener.close()
        with contextlib.suppress(OSError):
            os.unlink(path)
