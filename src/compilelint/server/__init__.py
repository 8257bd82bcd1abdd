"""`compilelint server`: the language server. pygls is imported only when it starts."""

from __future__ import annotations

import sys

import click


@click.command("server")
def server_command() -> None:
    """Run the language server over stdin/stdout (LSP), for editors: docs/editors.md."""
    try:
        from compilelint.server.lsp import serve
    except ImportError as exc:
        click.echo(f"compilelint: error: the server needs pygls and lsprotocol: "
                   f"pip install 'compilelint[server]' ({exc})", err=True)
        sys.exit(2)
    import os

    code = serve()
    # Threads still indexing (and their worker processes) must not keep a server whose
    # client has gone alive: leave now (pygls has closed stdout already).
    os._exit(code)
