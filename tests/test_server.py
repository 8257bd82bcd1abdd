"""`compilelint server`: a real server process, spoken to over its pipes by pygls's client.

Each test starts `python -m compilelint server` in a small project of its own, opens,
changes and saves documents as an editor would, and checks what comes back against the
command line's findings, the rule pages and `check --fix`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from cli_helpers import make_project  # noqa: E402
from conftest import REPO, run_cli  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import BaseLanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

TIMEOUT = 60  # seconds for anything the server should answer (a loaded 2-core machine)

MODELS = """
import torch
from torch import nn

from proj.helpers import scale


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = self.lin(x)
        if y.abs().max() > 50:
            y = y.clamp(-50, 50)
        return scale(y)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(3)])

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return x
"""
HELPERS = """
def scale(y):
    print("scaling")
    return y * 2


def unused(y):
    print("never compiled")
    return y
"""
TRAIN = """
import torch


def fit(model, loader, epochs=2):
    for epoch in range(epochs):
        model = torch.compile(model)
        model.train()
        for x in loader:
            model(x).sum().backward()
"""
PYPROJECT = "[tool.compilelint]\n"


def project(tmp_path: Path, **extra: str) -> Path:
    files = {"pyproject.toml": PYPROJECT, "proj/__init__.py": "", "proj/models.py": MODELS,
             "proj/helpers.py": HELPERS, "proj/train.py": TRAIN}
    files.update({name.replace("__", "/"): text for name, text in extra.items()})
    return make_project(tmp_path, files)


def cli_findings(root: Path, *args: str) -> list[dict]:
    result = run_cli("check", "--no-cache", "--format", "json", *args, cwd=root)
    return json.loads(result.stdout)["findings"]


class Editor:
    """A language client with a server process, and what the server sent it."""

    def __init__(self, root: Path, argv: list[str] | None = None) -> None:
        self.root = root
        self.argv = argv or ["-m", "compilelint", "server"]
        self.client = BaseLanguageClient("compilelint-tests", "1")
        self.diagnostics: dict[str, list[lsp.PublishDiagnosticsParams]] = {}
        self.messages: list[str] = []
        self.registrations: list[lsp.Registration] = []
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            self.diagnostics.setdefault(params.uri, []).append(params)

        @self.client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
        def register(params: lsp.RegistrationParams) -> None:
            self.registrations.extend(params.registrations)

        @self.client.feature(lsp.WINDOW_SHOW_MESSAGE)
        def show(params: lsp.ShowMessageParams) -> None:
            self.messages.append(params.message)

    @property
    def process(self) -> asyncio.subprocess.Process:
        return self.client._server

    async def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        await self.client.start_io(sys.executable, *self.argv, cwd=str(self.root), env=env)
        await asyncio.wait_for(self.client.initialize_async(lsp.InitializeParams(
            process_id=os.getpid(), root_uri=from_fs_path(str(self.root)),
            workspace_folders=[lsp.WorkspaceFolder(uri=from_fs_path(str(self.root)), name="proj")],
            capabilities=lsp.ClientCapabilities(
                workspace=lsp.WorkspaceClientCapabilities(
                    did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)),
                text_document=lsp.TextDocumentClientCapabilities(
                    publish_diagnostics=lsp.PublishDiagnosticsClientCapabilities(related_information=True))),
        )), TIMEOUT)
        self.client.initialized(lsp.InitializedParams())

    async def stop(self) -> int:
        if self.process.returncode is None:
            await asyncio.wait_for(self.client.shutdown_async(None), TIMEOUT)
            self.client.exit(None)
        return await asyncio.wait_for(self.process.wait(), TIMEOUT)

    def uri(self, name: str) -> str:
        return from_fs_path(str(self.root / name))

    def open(self, name: str, text: str | None = None) -> str:
        uri = self.uri(name)
        text = (self.root / name).read_text(encoding="utf-8") if text is None else text
        self.versions[uri], self.texts[uri] = 1, text
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
            uri=uri, language_id="python", version=1, text=text)))
        return uri

    def change(self, uri: str, text: str) -> None:
        """The whole text replaced (as a full-document change)."""
        self.versions[uri] += 1
        self.texts[uri] = text
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))

    def save(self, uri: str, name: str) -> None:
        (self.root / name).write_text(self.texts[uri], encoding="utf-8")
        self.client.text_document_did_save(lsp.DidSaveTextDocumentParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri)))

    async def published(self, uri: str, check=lambda diagnostics: True, *, version: bool = True,
                        timeout: float = TIMEOUT) -> list[lsp.Diagnostic]:
        """The latest diagnostics for `uri` (for its current version) once `check` holds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            sent = self.diagnostics.get(uri)
            if sent:
                last = sent[-1]
                if (not version or last.version == self.versions.get(uri)) and check(list(last.diagnostics)):
                    return list(last.diagnostics)
            if self.process.returncode is not None:
                raise AssertionError(f"the server died: {await self.process.stderr.read()!r}")
            await asyncio.sleep(0.05)
        self.process.kill()
        log = (await self.process.stderr.read()).decode(errors="replace")[-4000:]
        raise AssertionError(f"no such diagnostics for {uri}; last: {self.diagnostics.get(uri, [None])[-1]}\n{log}")

    async def code_actions(self, uri: str, diagnostic: lsp.Diagnostic, only=None) -> list[lsp.CodeAction]:
        return await asyncio.wait_for(self.client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
            context=lsp.CodeActionContext(diagnostics=[diagnostic], only=only))), TIMEOUT)


def run(scenario) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 4 * TIMEOUT))


@contextlib.asynccontextmanager
async def serving(root: Path, argv: list[str] | None = None, *, stop: bool = True):
    """A started server and its client; the server is shut down (and must exit 0) at the
    end, or killed if the test failed."""
    editor = Editor(root, argv)
    await editor.start()
    try:
        yield editor
        if stop:
            assert await editor.stop() == 0
    finally:
        if editor.process.returncode is None:
            editor.process.kill()


def apply_edits(text: str, edits: list[lsp.TextEdit]) -> str:
    """Apply LSP edits to `text` (ASCII text: UTF-16 units are characters)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(pos: lsp.Position) -> int:
        return starts[min(pos.line, len(lines))] + pos.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def by_code(diagnostics: list[lsp.Diagnostic]) -> dict[str, list[lsp.Diagnostic]]:
    out: dict[str, list[lsp.Diagnostic]] = {}
    for d in diagnostics:
        out.setdefault(d.code, []).append(d)
    return out


# ---- diagnostics ------------------------------------------------------------------------


def test_diagnostics_match_the_cli_with_pages_and_related_places(tmp_path):
    root = project(tmp_path)
    expected = cli_findings(root)

    async def scenario():
        async with serving(root) as editor:
            for name in ("proj/models.py", "proj/helpers.py"):
                uri = editor.open(name)
                want = sorted((f["line"], f["col"], f["code"], f["severity"]) for f in expected if f["path"] == name)
                assert want, f"the CLI finds nothing in {name}: the project no longer tests anything"
                # Indexing runs in the background: wait for the project-wide answer.
                got = await editor.published(uri, lambda ds, want=want: sorted(
                    (d.range.start.line + 1, d.range.start.character + 1, d.code,
                     {1: "error", 2: "warning", 3: "note"}[d.severity]) for d in ds) == want)
                for d in got:
                    assert d.source == "compilelint"
                    page = Path(d.code_description.href.removeprefix("file://"))
                    assert page.name == f"{d.code}.md" and page.read_text(encoding="utf-8").startswith(f"# {d.code}")
            models = by_code(editor.diagnostics[editor.uri("proj/models.py")][-1].diagnostics)
            # CL150 at the loop points at the break that makes it eager, in the other frame.
            (loop,) = models["CL150"]
            (cause,) = loop.related_information
            assert cause.location.uri == editor.uri("proj/models.py")
            assert cause.location.range.start.line + 1 == 14 and "CL102" in cause.message
            # The print in helpers.scale is compiled because Block.forward (a root) calls it.
            (printed,) = by_code(editor.diagnostics[editor.uri("proj/helpers.py")][-1].diagnostics)["CL110"]
            assert printed.range.start.line + 1 == 2
            (chain,) = printed.related_information
            assert chain.location.uri == editor.uri("proj/models.py")
            assert chain.location.range.start.line + 1 == 12  # `def forward` of Block
            assert "Block.forward" in chain.message and "scale" in chain.message

    run(scenario)


def test_diagnostics_follow_edits_and_clear_when_fixed(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root) as editor:
            uri = editor.open("proj/helpers.py")
            await editor.published(uri, lambda ds: [d.code for d in ds] == ["CL110"])
            fixed = HELPERS.lstrip().replace('    print("scaling")\n', "")
            editor.change(uri, fixed)
            assert await editor.published(uri) == []
            # Unfixed again: back.
            editor.change(uri, HELPERS.lstrip())
            assert [d.code for d in await editor.published(uri)] == ["CL110"]
            # Another document's edit changes this one's findings: scale no longer called.
            models = editor.open("proj/models.py")
            await editor.published(models, lambda ds: ds)
            editor.change(models, MODELS.lstrip().replace("return scale(y)", "return y"))
            await editor.published(models, lambda ds: "CL110" not in {d.code for d in ds})
            assert await editor.published(uri, lambda ds: ds == [], version=False) == []

    run(scenario)


def test_edit_after_edit_the_diagnostics_are_the_clis(tmp_path):
    """The server re-analyses only what an edit touched (`compilelint.incremental`); after
    each edit of a run, what it shows is what `check` finds in the same text."""
    root = project(tmp_path)
    text = MODELS.lstrip()
    steps = [
        text.replace("            x = blk(x)\n", "            x = blk(x)\n            print(x.shape)\n"),  # a new finding
        None,  # (then the same with a syntax error in Block, then fixed again)
        text.replace("        if y.abs().max() > 50:\n            y = y.clamp(-50, 50)\n", ""),  # one goes
        "\n\n" + text.replace("nn.Linear(4, 4)", "nn.Linear(4, 8)"),  # everything moves down
    ]

    def shown(ds):
        return sorted((d.range.start.line + 1, d.range.start.character + 1, d.code) for d in ds)

    async def scenario():
        async with serving(root) as editor:
            uri = editor.open("proj/models.py")
            await editor.published(uri, lambda ds: ds)
            for step in steps:
                if step is None:
                    editor.change(uri, editor.texts[uri].replace("self.lin(x)", "self.lin(x"))
                    assert [d.code for d in await editor.published(uri)] == ["CL000"]
                    editor.change(uri, editor.texts[uri].replace("self.lin(x", "self.lin(x)"))
                else:
                    editor.change(uri, step)
                got = shown(await editor.published(uri))
                (root / "proj" / "models.py").write_text(editor.texts[uri], encoding="utf-8")
                want = sorted((f["line"], f["col"], f["code"]) for f in cli_findings(root)
                              if f["path"] == "proj/models.py")
                assert got == want

    run(scenario)


def test_a_syntax_error_is_one_cl000_and_the_server_lives_on(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root) as editor:
            uri = editor.open("proj/helpers.py")
            await editor.published(uri, lambda ds: ds)
            editor.change(uri, "def scale(y:\n    print('x')\n    return y\n")
            (error,) = await editor.published(uri)
            assert error.code == "CL000" and "syntax error" in error.message
            assert error.severity == lsp.DiagnosticSeverity.Error
            editor.change(uri, HELPERS.lstrip())
            assert [d.code for d in await editor.published(uri)] == ["CL110"]

    run(scenario)


def test_a_huge_buffer_is_screened_like_a_huge_file(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root) as editor:
            uri = editor.open("proj/helpers.py")
            await editor.published(uri, lambda ds: ds)
            start = time.monotonic()
            editor.change(uri, "x = 1\n" * 800_000)  # 4.6 MiB: over the limit for a file
            (error,) = await editor.published(uri)
            assert error.code == "CL000" and "too large" in error.message
            deep = "y = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
            editor.change(uri, deep)
            (error,) = await editor.published(uri)
            assert error.code == "CL000" and "nesting too deep" in error.message
            assert time.monotonic() - start < TIMEOUT
            editor.change(uri, HELPERS.lstrip())
            assert [d.code for d in await editor.published(uri)] == ["CL110"]

    run(scenario)


CRASHING_SERVER = """
import compilelint.rules as rules
from compilelint.rules.base import Rule

class Crash(Rule):
    code, name, message, severity = "CL199", "crash", "never", "error"

    def visit_Call(self, node):
        if getattr(node.func, "value", None) == "print":
            raise ZeroDivisionError("a rule with a bug")

real = rules.all_rules()
rules.all_rules = lambda: real + (Crash,)
from compilelint.cli import main
main(["server"])
"""


def test_a_crashing_rule_is_a_cl001_diagnostic_not_a_dead_server(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root, ["-c", CRASHING_SERVER]) as editor:
            uri = editor.open("proj/helpers.py")
            # (CL110 once the project is indexed: Block.forward calls scale)
            got = by_code(await editor.published(uri, lambda ds: {"CL001", "CL110"} <= {d.code for d in ds}))
            (crash,) = got["CL001"]
            assert "CL199" in crash.message and "ZeroDivisionError" in crash.message
            assert len(got["CL110"]) == 1  # the other rules still ran
            editor.change(uri, "def scale(y):\n    return y\n")  # nothing for the bad rule to trip on
            assert await editor.published(uri) == []

    run(scenario)


# ---- code actions and hover ---------------------------------------------------------------


def test_noqa_code_action_silences_the_finding(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root) as editor:
            uri = editor.open("proj/helpers.py")
            (printed,) = await editor.published(uri, lambda ds: ds)
            actions = await editor.code_actions(uri, printed)
            (noqa,) = [a for a in actions if "noqa" in a.title]
            assert noqa.kind == lsp.CodeActionKind.QuickFix
            new = apply_edits(editor.texts[uri], noqa.edit.changes[uri])
            assert new.splitlines()[1] == '    print("scaling")  # noqa: CL110'
            editor.change(uri, new)
            assert await editor.published(uri) == []
            # The command line agrees once it is saved.
            editor.save(uri, "proj/helpers.py")
            assert not [f for f in cli_findings(root) if f["path"] == "proj/helpers.py"]
            # A line with `# noqa: <other>` gets the code added to its list.
            editor.change(uri, new.replace("# noqa: CL110", "# noqa: CL101"))
            (again,) = await editor.published(uri)
            (noqa,) = [a for a in await editor.code_actions(uri, again) if "noqa" in a.title]
            assert apply_edits(editor.texts[uri], noqa.edit.changes[uri]).splitlines()[1].endswith(
                "# noqa: CL101, CL110")

    run(scenario)


def test_safe_fix_code_action_matches_check_fix(tmp_path):
    root = project(tmp_path)
    # The command line's --fix on a copy is what the editor's fix must produce.
    copy = project(tmp_path / "copy")
    run_cli("check", "--no-cache", "--fix", "proj/train.py", cwd=copy)
    fixed_by_cli = (copy / "proj/train.py").read_text(encoding="utf-8")
    assert fixed_by_cli != TRAIN.lstrip()

    async def scenario():
        async with serving(root) as editor:
            uri = editor.open("proj/train.py")
            (compile_in_loop,) = by_code(await editor.published(uri, lambda ds: "CL302" in {d.code for d in ds}))["CL302"]
            actions = await editor.code_actions(uri, compile_in_loop)
            (fix,) = [a for a in actions if a.title.startswith("Fix CL302")]
            assert fix.is_preferred
            new = apply_edits(editor.texts[uri], fix.edit.changes[uri])
            assert new == fixed_by_cli
            (fix_all,) = await editor.code_actions(uri, compile_in_loop, only=[lsp.CodeActionKind.SourceFixAll])
            assert apply_edits(editor.texts[uri], fix_all.edit.changes[uri]) == fixed_by_cli
            editor.change(uri, new)
            assert "CL302" not in {d.code for d in await editor.published(uri)}

    run(scenario)


def test_hover_on_a_finding_shows_its_rule_page(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root) as editor:
            uri = editor.open("proj/helpers.py")
            (printed,) = await editor.published(uri, lambda ds: ds)
            inside = lsp.Position(line=printed.range.start.line, character=printed.range.start.character + 2)
            hover = await asyncio.wait_for(editor.client.text_document_hover_async(lsp.HoverParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), position=inside)), TIMEOUT)
            page = (REPO / "rules" / "CL110.md").read_text(encoding="utf-8").strip()
            assert hover.contents.kind == lsp.MarkupKind.Markdown
            assert page in hover.contents.value and printed.message in hover.contents.value
            nowhere = await asyncio.wait_for(editor.client.text_document_hover_async(lsp.HoverParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=5, character=0))), TIMEOUT)
            assert nowhere is None

    run(scenario)


# ---- configuration and the cache -----------------------------------------------------------


def test_pyproject_changes_are_noticed(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root) as editor:
            assert any(r.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in editor.registrations) or \
                await _registered(editor)
            uri = editor.open("proj/helpers.py")
            await editor.published(uri, lambda ds: [d.code for d in ds] == ["CL110"])
            # Changed on disk (another program, a git checkout): the watched-files event.
            (root / "pyproject.toml").write_text('[tool.compilelint]\nignore = ["CL110"]\n', encoding="utf-8")
            editor.client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
                lsp.FileEvent(uri=editor.uri("pyproject.toml"), type=lsp.FileChangeType.Changed)]))
            await editor.published(uri, lambda ds: ds == [], version=False)
            # Saved in the editor: didSave of pyproject.toml.
            toml = editor.open("pyproject.toml", '[tool.compilelint]\nper-file-ignores = { "proj/models.py" = ["CL1"] }\n')
            editor.save(toml, "pyproject.toml")
            await editor.published(uri, lambda ds: [d.code for d in ds] == ["CL110"], version=False)
            # A bad value: said, and the settings in force stay.
            editor.texts[toml] = '[tool.compilelint]\nroots = "everything"\n'
            editor.save(toml, "pyproject.toml")
            deadline = time.monotonic() + TIMEOUT
            while not any("roots" in m for m in editor.messages) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert any("roots" in m for m in editor.messages), editor.messages
            editor.change(uri, HELPERS.lstrip() + "\n")
            assert [d.code for d in await editor.published(uri)] == ["CL110"]

    run(scenario)


def test_a_new_package_init_is_noticed(tmp_path):
    # Without proj/__init__.py, models.py's `from proj.helpers import scale` names no
    # module of the project: scale is not known to be compiled.
    root = project(tmp_path)
    (root / "proj/__init__.py").unlink()

    async def scenario():
        async with serving(root) as editor:
            assert await _registered(editor)
            uri = editor.open("proj/helpers.py")
            await editor.published(uri, lambda ds: ds == [])
            (root / "proj/__init__.py").write_text("", encoding="utf-8")
            editor.client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[
                lsp.FileEvent(uri=editor.uri("proj/__init__.py"), type=lsp.FileChangeType.Created)]))
            await editor.published(uri, lambda ds: [d.code for d in ds] == ["CL110"], version=False)

    run(scenario)


async def _registered(editor: Editor) -> bool:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if any(r.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in editor.registrations):
            return True
        await asyncio.sleep(0.05)
    return False


def _cached_functions(root: Path) -> set[str]:
    """Every function name in every cache entry under the project's cache folder."""
    from compilelint import cache

    names = set()
    for path in (root / ".compilelint_cache").rglob("*"):
        if path.is_file() and len(path.name) == 30:
            analysis, _ = cache.decode(path.read_bytes())
            names.update(analysis.summary.functions)
    return names


def test_unsaved_buffers_never_write_the_cache(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root) as editor:
            uri = editor.open("proj/helpers.py")
            await editor.published(uri, lambda ds: ds)
            # The saved files are in the cache once the project is indexed.
            deadline = time.monotonic() + TIMEOUT
            while "scale" not in _cached_functions(root) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert {"scale", "unused", "fit"} <= _cached_functions(root)
            unsaved = HELPERS.lstrip() + "\n\ndef only_in_the_buffer(y):\n    return y\n"
            editor.change(uri, unsaved)
            await editor.published(uri)
            assert "only_in_the_buffer" not in _cached_functions(root)
            editor.save(uri, "proj/helpers.py")  # now it is the file: cached as such
            deadline = time.monotonic() + TIMEOUT
            while "only_in_the_buffer" not in _cached_functions(root) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert "only_in_the_buffer" in _cached_functions(root)

    run(scenario)


# ---- the process ----------------------------------------------------------------------------


def test_shutdown_and_exit_end_the_process(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root, stop=False) as editor:
            uri = editor.open("proj/helpers.py")
            await editor.published(uri, lambda ds: ds)
            assert await editor.stop() == 0  # shutdown, then exit: 0
        async with serving(root, stop=False) as rude:  # exit without shutdown: 1, as the protocol says
            rude.client.exit(None)
            assert await asyncio.wait_for(rude.process.wait(), TIMEOUT) == 1

    run(scenario)


def test_a_client_that_goes_away_ends_the_server(tmp_path):
    root = project(tmp_path)

    async def scenario():
        async with serving(root, stop=False) as editor:
            uri = editor.open("proj/helpers.py")
            await editor.published(uri, lambda ds: ds)
            editor.process.stdin.close()  # the editor died: its end of the pipe closes
            await asyncio.wait_for(editor.process.wait(), TIMEOUT)

    run(scenario)
