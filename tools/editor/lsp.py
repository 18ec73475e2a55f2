"""`wonderforge lsp`: a Language Server Protocol server for pack files, over stdio (pygls).

What `wonderforge check` says, as the author types: every open file's pack is checked again on each
change, with the unsaved texts, and each file of the pack gets its diagnostics at their exact
spans (what a change breaks in another file is reported there). Hover shows a word's entry in the
language reference or a component's definition; completion offers the language's words and the
pack's names where a sentence expects them; go-to-definition finds an id's component (or a base
pack); a quick fix applies a "did you mean". The answers come from tools/assist.py; this module
only speaks the protocol.
"""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from pathlib import Path

from .assist import Session, fixes, pack_folder
from .lspframes import Frames

types = LanguageServer = from_fs_path = to_fs_path = None  # the optional library: see `_load`

NAME = "wonderforge"
SOURCE = "wonderforge"  # the diagnostics' source, as editors show it
_SEVERITY = {"error": 1, "warning": 2}  # lsprotocol's DiagnosticSeverity.Error, Warning
SETTLE = 0.05  # seconds an edit waits for the next before the pack is checked
_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


def add_parser(commands) -> None:
    p = commands.add_parser("lsp", help="a language server for pack files, for editors (over stdio)",
                            description="Run a Language Server Protocol server over stdin/stdout: diagnostics "
                                        "as you type, hover, completion, go-to-definition and quick fixes for "
                                        "pack files. Needs pip install 'wonderforge[lsp]'; docs/editors.md says "
                                        "how to use it from VS Code, Neovim or any LSP client.")
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default, and the only way)")
    p.set_defaults(run=main)


def main(args) -> int:
    """`wonderforge lsp`: serve until the editor closes the connection."""
    if not _load():
        print("wonderforge lsp: error: the language server needs pygls, which is not installed\n"
              "  hint: pip install 'wonderforge[lsp]' (pip install '.[lsp]' in a clone)", file=sys.stderr)
        return 2
    interrupted = []

    def interrupt(signum, frame):  # the library ends its loop on Ctrl-C: the command still ends with 130
        interrupted.append(signum)
        signal.default_int_handler(signum, frame)

    before = signal.signal(signal.SIGINT, interrupt)
    try:
        server().start_io(Frames(sys.stdin.buffer))  # a broken message is skipped, not the end of the server
    finally:
        signal.signal(signal.SIGINT, before)
    if interrupted:
        raise KeyboardInterrupt
    return 0


def _load() -> bool:
    """Import the language-server library, False when the optional extra is missing. Only the
    server does: it takes a third of a second, which every other command would pay."""
    global types, LanguageServer, from_fs_path, to_fs_path
    try:
        from lsprotocol import types
        from pygls.lsp.server import LanguageServer
        from pygls.uris import from_fs_path, to_fs_path
    except ImportError:
        return False
    return True


def server() -> "LanguageServer":
    """The language server, its features registered."""
    from ... import __version__
    ls = LanguageServer(NAME, __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
    sessions: dict[Path, Session] = {}
    published: dict[Path, set[str]] = {}  # per pack folder, the files given diagnostics last time
    typed: dict[str, int] = {}  # per document, the version of its last change

    def open_files() -> dict[Path, object]:
        """The documents the editor holds, by resolved path (files only: not `untitled:` buffers)."""
        out = {}
        for doc in list(ls.workspace.text_documents.values()):
            path = _path(doc.uri)
            if path is not None:
                out[path.resolve()] = doc
        return out

    def session_of(uri: str) -> Session | None:
        path = _path(uri)
        folder = pack_folder(path) if path is not None else None
        if folder is None:
            return None
        held = sessions.setdefault(folder, Session(folder))
        held.texts = {p: doc.source for p, doc in open_files().items() if folder in p.parents}
        return held

    def client_uri(file: Path, docs: dict) -> str:
        """A file's URI as the editor names it when open (through the links it came by), else its own."""
        doc = docs.get(file.resolve())
        return doc.uri if doc is not None else from_fs_path(str(file.absolute()))

    def to_client(file: Path, docs: dict, found: types.Range, read: dict | None = None) -> types.Range:
        """A range of code points in a file, in the position encoding agreed with the editor: the
        lines of its open document, else of the file (kept in `read` for the next diagnostic)."""
        key = file.resolve()
        doc = docs.get(key)
        if doc is not None:
            lines = doc.lines
        elif read is not None and key in read:
            lines = read[key]
        else:
            lines = _lines(key)
            if read is not None:
                read[key] = lines
        return ls.workspace.position_codec.range_to_client_units(lines, found)

    def publish(uri: str) -> None:
        held = session_of(uri)
        if held is None:
            return
        docs, read = open_files(), {}
        by_file: dict[str, list] = {uri: []}  # the file edited is always told, if only that all is well
        for d in held.check():
            file = Path(d.file)
            converted = _diagnostic(d)
            converted.range = to_client(file, docs, converted.range, read)
            by_file.setdefault(client_uri(file, docs), []).append(converted)
        for file in published.get(held.folder, set()) - set(by_file):
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=file, diagnostics=[]))
        for file, found in by_file.items():
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=file, diagnostics=found))
        published[held.folder] = {file for file, found in by_file.items() if found}

    @ls.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(params: types.DidChangeTextDocumentParams) -> None:
        uri, version = params.text_document.uri, params.text_document.version
        typed[uri] = version
        await asyncio.sleep(SETTLE)  # keys typed in a burst: only the last text is checked
        if typed.get(uri) == version:
            publish(uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        publish(params.text_document.uri)  # the file on disk counts again

    def ask(params):
        """The session, file and 1-based line and column (in code points) of a request at a position."""
        held = session_of(params.text_document.uri)
        if held is None:
            return None
        if held.pack is None:
            held.check()
        doc = ls.workspace.get_text_document(params.text_document.uri)
        at = doc.position_codec.position_from_client_units(doc.lines, params.position)
        return held, _path(params.text_document.uri), at.line + 1, at.character + 1

    @ls.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> types.Hover | None:
        asked = ask(params)
        said = asked and asked[0].hover(*asked[1:])
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, said)) if said else None

    @ls.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", ":", "["]))
    def completion(params: types.CompletionParams) -> types.CompletionList:
        asked = ask(params)
        offered = asked[0].complete(*asked[1:]) if asked else []
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(label=word, detail=what, kind=types.CompletionItemKind.Keyword
                                 if what == "word of the language" else types.CompletionItemKind.Value)
            for word, what in offered])

    @ls.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(params: types.DefinitionParams) -> types.Location | None:
        asked = ask(params)
        found = asked and asked[0].definition(*asked[1:])
        if not found:
            return None
        path, place = found
        docs = open_files()
        at = types.Position(place.line - 1, place.column - 1)
        return types.Location(client_uri(path, docs), to_client(path, docs, types.Range(at, at)))

    @ls.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        actions = []
        for d in params.context.diagnostics:
            word = d.data.get("replace") if isinstance(d.data, dict) else None
            if word is None:
                continue
            edit = types.WorkspaceEdit(changes={params.text_document.uri: [types.TextEdit(d.range, word)]})
            actions.append(types.CodeAction(title=f"Replace with '{word}'", kind=types.CodeActionKind.QuickFix,
                                            diagnostics=[d], edit=edit, is_preferred=True))
        return actions

    return ls


def _path(uri: str) -> Path | None:
    """The file of a `file:` URI; None for another scheme (an editor's unsaved `untitled:` buffer)."""
    found = to_fs_path(uri) if uri.startswith("file:") else None
    return Path(found) if found else None


def _lines(file: Path) -> list[str]:
    try:
        return file.read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeError):
        return []


def _diagnostic(d) -> "types.Diagnostic":
    """A diagnostic of ours for the protocol: 0-based, the message with its hint, and the word a
    "did you mean" offers, for the quick fix."""
    line = max(d.line, 1) - 1
    start = types.Position(line, max(d.column, 1) - 1)
    if d.end_line and (d.end_line, d.end_column) > (d.line, d.column):
        end = types.Position(d.end_line - 1, d.end_column - 1)
    else:
        end = types.Position(line, start.character + 1)
    replace = fixes(d)
    spanned = d.source[d.column - 1:d.end_column - 1] if d.source and d.end_line == d.line else ""
    if not _WORD.fullmatch(spanned) or spanned == replace:  # the fix replaces the word pointed at, nothing else
        replace = None
    return types.Diagnostic(
        range=types.Range(start, end), message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
        severity=types.DiagnosticSeverity(_SEVERITY.get(d.severity, 3)), code=d.code, source=SOURCE,
        data={"replace": replace} if replace else None)
