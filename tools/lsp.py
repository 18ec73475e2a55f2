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

import sys
from pathlib import Path

from .assist import Session, fixes, pack_folder

try:
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer
    from pygls.uris import from_fs_path, to_fs_path
except ImportError:  # the optional extra is missing: `main` says what to install
    LanguageServer = None

NAME = "wonderforge"
SOURCE = "wonderforge"  # the diagnostics' source, as editors show it
_SEVERITY = {"error": 1, "warning": 2}  # lsprotocol's DiagnosticSeverity.Error, Warning


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
    if LanguageServer is None:
        print("wonderforge lsp: error: the language server needs pygls, which is not installed\n"
              "  hint: pip install 'wonderforge[lsp]' (pip install '.[lsp]' in a clone)", file=sys.stderr)
        return 2
    server().start_io()
    return 0


def server() -> "LanguageServer":
    """The language server, its features registered."""
    from .. import __version__
    ls = LanguageServer(NAME, __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
    sessions: dict[Path, Session] = {}
    published: dict[Path, set[str]] = {}  # per pack folder, the files given diagnostics last time

    def session_of(uri: str) -> Session | None:
        path = Path(to_fs_path(uri))
        folder = pack_folder(path)
        if folder is None:
            return None
        held = sessions.setdefault(folder, Session(folder))
        held.texts = {Path(to_fs_path(d.uri)).resolve(): d.source for d in ls.workspace.text_documents.values()
                      if folder in Path(to_fs_path(d.uri)).resolve().parents}
        return held

    def publish(uri: str) -> None:
        held = session_of(uri)
        if held is None:
            return
        by_file: dict[str, list] = {uri: []}  # the file edited is always told, if only that all is well
        for d in held.check():
            by_file.setdefault(from_fs_path(str(Path(d.file).resolve())), []).append(_diagnostic(d))
        for file in published.get(held.folder, set()) - set(by_file):
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=file, diagnostics=[]))
        for file, found in by_file.items():
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=file, diagnostics=found))
        published[held.folder] = {file for file, found in by_file.items() if found}

    @ls.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @ls.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        publish(params.text_document.uri)  # the file on disk counts again

    def ask(params):
        """The session, file and 1-based line and column of a request at a position."""
        held = session_of(params.text_document.uri)
        if held is None:
            return None
        if held.pack is None:
            held.check()
        return held, Path(to_fs_path(params.text_document.uri)), params.position.line + 1, params.position.character + 1

    @ls.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> types.Hover | None:
        asked = ask(params)
        said = asked and asked[0].hover(*asked[1:])
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, said)) if said else None

    @ls.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", ":"]))
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
        at = types.Position(place.line - 1, place.column - 1)
        return types.Location(from_fs_path(str(path)), types.Range(at, at))

    @ls.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    def code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        actions = []
        for d in params.context.diagnostics:
            word = (d.data or {}).get("replace") if isinstance(d.data, dict) else None
            if word is None:
                continue
            edit = types.WorkspaceEdit(changes={params.text_document.uri: [types.TextEdit(d.range, word)]})
            actions.append(types.CodeAction(title=f"Replace with '{word}'", kind=types.CodeActionKind.QuickFix,
                                            diagnostics=[d], edit=edit, is_preferred=True))
        return actions

    return ls


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
    return types.Diagnostic(
        range=types.Range(start, end), message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
        severity=types.DiagnosticSeverity(_SEVERITY.get(d.severity, 3)), code=d.code, source=SOURCE,
        data={"replace": replace} if replace else None)
