"""The `compilelint` command: a `check` goes to a running daemon when there is one
(`compilelint daemon start`), else the command line runs here. Imports nothing heavy
before it knows which."""

from __future__ import annotations

import sys


def main() -> None:
    from compilelint.daemon.client import delegate

    code = delegate(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from compilelint.cli import main as cli_main

    cli_main()
