"""`compilelint server`: a language server over stdio (pygls).

Diagnostics for the open documents on open, change and save; code actions (`# noqa:
CODE`, the safe fixes); hover with the rule's page. One `Session` per workspace folder
keeps the settings, libcst, the rules and every file's analysis warm: the project is
indexed in a background thread (through the cache), and a change re-analyses only the
changed buffer. pyproject.toml is re-read when the client reports it changed (watched
files) or saves it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import traceback
from collections.abc import Sequence

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from compilelint import __version__
from compilelint.discovery import display_path
from compilelint.finding import Finding
from compilelint.related import CallChains, loop_cause
import compilelint.server.convert as convert
from compilelint.session import Session

log = logging.getLogger("compilelint.server")
FIX_ALL = f"{lsp.CodeActionKind.SourceFixAll.value}.compilelint"
WATCHERS = ("**/pyproject.toml", "**/*.py", "**/*.pyi", "**/.gitignore")


class State:
    """What the server knows: workspace folders, a session per folder, what it showed."""

    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.folders: list[str] = []
        self.sessions: dict[str, Session] = {}
        self.shown: dict[str, list[tuple[Finding, lsp.Range]]] = {}  # uri -> findings shown
        self.sent: dict[str, list] = {}  # uri -> the diagnostics last published
        self.chains: dict[str, tuple[int, CallChains]] = {}  # session key -> (generation, chains)
        self.shutdown = False

    # ---- sessions ---------------------------------------------------------------------

    def session_for(self, path: str) -> tuple[str, Session]:
        """The session of the workspace folder holding `path` (the innermost), else one
        for the file's own folder (bounded by a pyproject.toml, if any)."""
        absolute = os.path.abspath(path)
        inside = [f for f in self.folders if absolute == f or absolute.startswith(f.rstrip(os.sep) + os.sep)]
        folder = max(inside, key=len) if inside else os.path.dirname(absolute)
        if folder not in self.sessions:
            session = Session(folder, workspace=folder if inside else None)
            self.sessions[folder] = session
            self.report_config(session)
            self.index_in_background(folder, session)
        return folder, self.sessions[folder]

    def index_in_background(self, key: str, session: Session) -> None:
        """Analyse the project's saved files in a thread (through the cache); the open
        documents are checked meanwhile against what is known, and again when it is done."""
        loop = asyncio.get_running_loop()  # handlers run on the server's event loop
        settings = session.settings

        def work() -> None:
            try:
                analyses = session.analyse_saved(session.project_files())
            except Exception:  # noqa: BLE001 - the open documents are still checked
                log.error("indexing %s failed:\n%s", key, traceback.format_exc())
                return
            loop.call_soon_threadsafe(self.indexed, key, session, settings, analyses)

        threading.Thread(target=work, name="compilelint-index", daemon=True).start()

    def indexed(self, key: str, session: Session, settings, analyses) -> None:
        if self.sessions.get(key) is not session or session.settings is not settings:
            return  # the settings changed meanwhile: a newer indexing is under way
        session.keep(analyses)
        self.server.window_log_message(lsp.LogMessageParams(
            type=lsp.MessageType.Info, message=f"compilelint: indexed {len(analyses)} files under {key}"))
        self.publish(key, session)

    def report_config(self, session: Session) -> None:
        if session.config_error:
            self.server.window_show_message(lsp.ShowMessageParams(
                type=lsp.MessageType.Error,
                message=f"compilelint: {session.config_error} (the previous settings stay in force)"))

    def config_changed(self, *, packages: bool = False) -> None:
        """pyproject.toml or a .gitignore changed, or (`packages`) an `__init__.py` came
        or went, which renames modules: analyse everything again."""
        if packages:
            from compilelint import engine

            engine._package_parts.cache_clear()  # memoised folder -> package names
        for key, session in list(self.sessions.items()):
            changed = session.reload(force=packages)
            self.report_config(session)
            if changed:
                for path, text in list(session.buffers.items()):
                    session.open(path, text)
                self.publish(key, session)
                self.index_in_background(key, session)

    # ---- documents --------------------------------------------------------------------

    def document(self, uri: str, *, closed: bool = False) -> None:
        """Check the document (open or changed), or forget it (closed)."""
        path = to_fs_path(uri)
        if path is None:
            return
        key, session = self.session_for(path)
        shown = display_path(path)
        if closed:
            session.close(path)
            self.clear(uri)
        elif not session.checks(shown):
            self.clear(uri)
            return
        else:
            try:
                session.open(path, self.server.workspace.get_text_document(uri).source)
            except Exception:  # noqa: BLE001 - a bug of ours is a diagnostic, never a dead server
                self.internal_error(uri, shown)
                return
        self.publish(key, session, uri)

    def file_changed(self, uri: str, deleted: bool) -> None:
        path = to_fs_path(uri)
        if path is None:
            return
        key, session = self.session_for(path)
        if deleted:
            session.forget(path)
        elif session.checks(display_path(path)):
            session.refresh(path)
        self.publish(key, session)

    def clear(self, uri: str) -> None:
        self.shown.pop(uri, None)
        if self.sent.pop(uri, None):
            self.server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def internal_error(self, uri: str, shown: str) -> None:
        trace = traceback.format_exc()
        log.error("checking %s failed:\n%s", shown, trace)
        finding = Finding(path=shown, line=1, col=1, code="CL001", severity="error", name="rule-crash",
                          message=f"compilelint failed on this file: {trace.strip().splitlines()[-1]}")
        self.send(uri, [(finding, [])])

    # ---- publishing -------------------------------------------------------------------

    def publish(self, key: str, session: Session, uri: str | None = None) -> None:
        """Diagnostics for `uri` (just checked: always sent, with its version) and every
        other open document of the session whose diagnostics changed."""
        try:
            findings = session.findings()
        except Exception:  # noqa: BLE001
            for path in session.buffers:
                self.internal_error(self.uri(path), path)
            return
        for path in session.buffers:
            own = findings.get(path, [])
            target = self.uri(path)
            self.send(target, [(f, self.related(key, session, f, findings)) for f in own], force=target == uri)

    def send(self, uri: str, items: Sequence[tuple[Finding, list]], force: bool = True) -> None:
        document = self.server.workspace.get_text_document(uri)
        lines, encoding = document.lines, self.encoding()
        diagnostics = [convert.diagnostic(f, lines, encoding, related) for f, related in items]
        self.shown[uri] = [(f, d.range) for (f, _), d in zip(items, diagnostics)]
        if not force and self.sent.get(uri) == diagnostics:
            return
        self.sent[uri] = diagnostics
        self.server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, diagnostics=diagnostics, version=document.version))

    def related(self, key: str, session: Session, finding: Finding, findings: dict) -> list:
        """(uri, range, message) of the places that explain `finding`."""
        places = []
        cause = loop_cause(finding, lambda p: findings.get(p, ()))
        if cause is not None:
            places.append(cause)
        if finding.scope is not None and finding.code not in ("CL000", "CL001"):
            chains = self.chains.get(key)
            if chains is None or chains[0] != session.generation:
                chains = self.chains[key] = (session.generation, CallChains(
                    session.analyses.values(), session.settings.roots, session.text_of))
            analysis = session.analyses.get(finding.path)
            if analysis is not None:
                places.extend(chains[1].places(finding, analysis.module))
        out = []
        for place in places:
            lines = (session.text_of(place.path) or "").splitlines()
            out.append((self.uri(place.path), convert.place_range(place, lines, self.encoding()), place.message))
        return out

    def encoding(self) -> str:
        return self.server.workspace.position_encoding or lsp.PositionEncodingKind.Utf16

    @staticmethod
    def uri(path: str) -> str:
        return from_fs_path(os.path.abspath(path))

    # ---- requests ---------------------------------------------------------------------

    def at(self, uri: str, where: lsp.Range) -> list[Finding]:
        """The findings shown in `uri` that overlap `where`."""
        def before(a: lsp.Position, b: lsp.Position) -> bool:
            return (a.line, a.character) < (b.line, b.character)

        return [f for f, r in self.shown.get(uri, ())
                if not before(r.end, where.start) and not before(where.end, r.start)]

    def code_actions(self, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        from compilelint import fixes, registry

        uri = params.text_document.uri
        document = self.server.workspace.get_text_document(uri)
        text, lines, encoding = document.source, document.lines, self.encoding()
        wanted = params.context.only
        findings = self.at(uri, params.range)
        actions: list[lsp.CodeAction] = []
        quick = not wanted or any(lsp.CodeActionKind.QuickFix.value.startswith(k) or
                                  k.startswith(lsp.CodeActionKind.QuickFix.value) for k in wanted)
        for finding in findings if quick else ():
            diagnostic = convert.diagnostic(finding, lines, encoding)
            if finding.edits:
                new, fixed = fixes.plan_and_apply(text, [finding])
                if fixed:
                    what = getattr(registry.get(finding.code), "autofix", "") or "apply the safe fix"
                    actions.append(self._action(f"Fix {finding.code}: {what}",
                                                lsp.CodeActionKind.QuickFix, uri,
                                                convert.whole_text_edit(text, new, encoding), [diagnostic], True))
            edit = convert.noqa_edit(finding, lines, encoding)
            if edit is not None:
                actions.append(self._action(f"Suppress {finding.code} on this line (# noqa: {finding.code})",
                                            lsp.CodeActionKind.QuickFix, uri, edit, [diagnostic]))
        if not wanted or any(FIX_ALL.startswith(k) for k in wanted):
            every = [f for f, _ in self.shown.get(uri, ()) if f.edits]
            new, fixed = fixes.plan_and_apply(text, every) if every else (text, [])
            if fixed:
                actions.append(self._action("Fix all safe compilelint fixes", FIX_ALL, uri,
                                            convert.whole_text_edit(text, new, encoding), None))
        return actions

    @staticmethod
    def _action(title, kind, uri, edit, diagnostics, preferred=False) -> lsp.CodeAction:
        return lsp.CodeAction(title=title, kind=kind, diagnostics=diagnostics, is_preferred=preferred or None,
                              edit=lsp.WorkspaceEdit(changes={uri: [edit]}))

    def hover(self, params: lsp.HoverParams) -> lsp.Hover | None:
        from compilelint.pages import page_text

        point = lsp.Range(start=params.position, end=params.position)
        findings = self.at(params.text_document.uri, point)
        if not findings:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown,
                                                    value=convert.hover_text(findings, page_text)))


def build() -> LanguageServer:
    server = LanguageServer("compilelint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
    state = State(server)
    server.compilelint_state = state  # for introspection when debugging

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: LanguageServer, params: lsp.InitializeParams) -> None:
        folders = [to_fs_path(f.uri) for f in params.workspace_folders or ()]
        if not folders and (params.root_uri or params.root_path):
            folders = [to_fs_path(params.root_uri) if params.root_uri else params.root_path]
        state.folders = [os.path.abspath(f) for f in folders if f]
        if state.folders and os.path.isdir(state.folders[0]):
            # Paths show, and cache entries are keyed, as `compilelint check` run there has them.
            os.chdir(state.folders[0])

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: LanguageServer, params: lsp.InitializedParams) -> None:
        for folder in state.folders:
            state.session_for(os.path.join(folder, "__init__.py"))
        watch = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
        if watch and watch.dynamic_registration:
            ls.client_register_capability(lsp.RegistrationParams(registrations=[lsp.Registration(
                id="compilelint-watch", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=lsp.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[lsp.FileSystemWatcher(glob_pattern=g) for g in WATCHERS]))]))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        state.document(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        state.document(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri.endswith("pyproject.toml"):
            state.config_changed()
        else:
            state.document(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        state.document(params.text_document.uri, closed=True)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: LanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        packages = any(change.uri.endswith("/__init__.py") and change.type != lsp.FileChangeType.Changed
                       for change in params.changes)
        if packages or any(change.uri.endswith(("pyproject.toml", ".gitignore")) for change in params.changes):
            state.config_changed(packages=packages)
        for change in params.changes:
            if change.uri.endswith((".py", ".pyi")):
                state.file_changed(change.uri, change.type == lsp.FileChangeType.Deleted)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL]))
    def code_action(ls: LanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        return state.code_actions(params)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        return state.hover(params)

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: LanguageServer, params) -> None:
        state.shutdown = True

    return server


def serve() -> int:
    """Serve over stdin/stdout until the client says exit or goes away; the exit code
    (0 after a shutdown request, else 1, as the protocol asks)."""
    logging.basicConfig(level=logging.WARNING, format="compilelint server: %(message)s")
    server = build()
    server.start_io()
    return 0 if server.compilelint_state.shutdown else 1
