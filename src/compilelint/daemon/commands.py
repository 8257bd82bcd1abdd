"""`compilelint daemon start | stop | status | run`."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import click

from compilelint.daemon import client


def _ask(op: str) -> dict | None:
    conn = client.connect(timeout=10)
    if conn is None:
        return None
    try:
        with conn:
            client.send(conn, {"op": op})
            return client.receive(conn)
    except OSError:
        return None


@click.group("daemon")
def daemon() -> None:
    """A warm process that runs `compilelint check` for this Python and this copy of
    compilelint: with one up, a changed file costs no libcst import (docs/editors.md)."""


@daemon.command("start")
@click.option("--idle", type=click.IntRange(min=1), default=3 * 3600, show_default=True,
              help="Seconds without a request after which the daemon exits.")
def start(idle: int) -> None:
    """Start the daemon in the background (nothing happens if one is up)."""
    reply = _ask("ping")
    if reply is not None and reply.get("signature") == client.signature():
        click.echo(f"compilelint daemon: already running (pid {reply['pid']})", err=True)
        return
    if reply is not None:  # running older code: replace it
        _ask("stop")
    os.makedirs(client.folder(), mode=0o700, exist_ok=True)
    log = open(os.path.join(client.folder(), "daemon.log"), "ab")  # noqa: SIM115 - the child keeps it
    subprocess.Popen([sys.executable, "-m", "compilelint", "daemon", "run", "--idle", str(idle)],
                     stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
                     cwd=os.path.expanduser("~") if os.path.isdir(os.path.expanduser("~")) else "/")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        reply = _ask("ping")
        if reply is not None:
            click.echo(f"compilelint daemon: started (pid {reply['pid']}, socket {client.socket_path()})", err=True)
            return
        time.sleep(0.05)
    raise click.ClickException(f"the daemon did not start; see {os.path.join(client.folder(), 'daemon.log')}")


@daemon.command("stop")
def stop() -> None:
    """Stop the daemon."""
    reply = _ask("stop")
    click.echo("compilelint daemon: stopped" if reply else "compilelint daemon: not running", err=True)


@daemon.command("status")
def status() -> None:
    """Say whether the daemon is up (exit 0) or not (exit 1)."""
    reply = _ask("ping")
    if reply is None:
        click.echo("compilelint daemon: not running")
        sys.exit(1)
    current = "current" if reply.get("signature") == client.signature() else "out of date (will be replaced)"
    click.echo(f"compilelint daemon: running, pid {reply['pid']}, up {time.time() - reply['started']:.0f} s, "
               f"{reply['served']} run(s) served, code {current}; socket {client.socket_path()}")


@daemon.command("run", hidden=True)
@click.option("--idle", type=click.IntRange(min=1), default=3 * 3600)
def run(idle: int) -> None:
    """Serve in the foreground (what `start` runs)."""
    from compilelint.daemon.service import serve

    sys.exit(serve(idle))
