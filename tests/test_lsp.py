"""`wonderforge lsp`, driven by a real client over stdio (pytest-lsp): diagnostics on open and as
the author types (in the file and where a change breaks another file), hover, completion,
go-to-definition and the quick fix of a "did you mean" (tools/lsp.py, tools/assist.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from wonderforge.tools.cli import main  # noqa: E402

SERVER = [sys.executable, "-m", "wonderforge.tools.cli", "lsp"]
CARD = """- id: clay_pool
  name: Clay Pool
  colour: brown
  copies: {1: [3, 5]}
  cost: 2 stonee
  chain_from: [altar]
  effect: |
    on build: produce wood
"""


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    """A pack extending 7 Wonders, as `wonderforge new` writes it."""
    assert main(["new", "my-mod", "--extends", "7-wonders", "--out", str(tmp_path / "my-mod")]) == 0
    return tmp_path / "my-mod"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities("visual-studio-code")))
    yield
    await lsp_client.shutdown_session()


def uri(path: Path) -> str:
    return path.resolve().as_uri()


async def opened(client: LanguageClient, path: Path, text: str) -> list[types.Diagnostic]:
    """Open a file with this text; the diagnostics the server publishes for it."""
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri(path), language_id="yaml", version=1, text=text)))
    return await published(client, path)


async def changed(client: LanguageClient, path: Path, text: str, version: int) -> list[types.Diagnostic]:
    """Type a new text (unsaved); the diagnostics published for the file."""
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))
    return await published(client, path)


async def published(client: LanguageClient, path: Path) -> list[types.Diagnostic]:
    while True:
        note = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if note.uri == uri(path):
            return list(note.diagnostics)


def position(text: str, needle: str, into: int = 0) -> types.Position:
    for line, content in enumerate(text.splitlines()):
        if needle in content:
            return types.Position(line, content.index(needle) + into)
    raise AssertionError(f"{needle!r} not in the text")


@pytest.mark.asyncio
async def test_diagnostics_as_the_author_types_and_the_quick_fix(client: LanguageClient, mod: Path):
    cards = mod / "cards.yaml"
    text = cards.read_text() + CARD
    found = await opened(client, cards, text)
    assert [d.code for d in found] == ["E-DSL-PARSE"]
    wrong = found[0]
    assert wrong.range.start == position(text, "stonee") and wrong.range.end == position(text, "stonee", 6)
    assert "found 'stonee'" in wrong.message and "did you mean 'stone'?" in wrong.message
    assert wrong.severity == types.DiagnosticSeverity.Error and wrong.source == "wonderforge"
    # the quick fix writes what the hint offers
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri(cards)), wrong.range, types.CodeActionContext([wrong])))
    (action,) = actions
    (edit,) = action.edit.changes[uri(cards)]
    assert edit.new_text == "stone" and edit.range == wrong.range and action.title == "Replace with 'stone'"
    # an edit, not saved: the file on disk never changes, the diagnostics do
    assert await changed(client, cards, text.replace("stonee", "stone"), 2) == []
    assert "stonee" not in cards.read_text() and "my_card" not in cards.read_text()
    found = await changed(client, cards, text.replace("stonee", "stone").replace("produce wood", "produce wod"), 3)
    assert [(d.code, d.range.start) for d in found] == [("E-DSL-NAME", position(text, "wood"))] or \
        [d.range.start for d in found] == [position(text, "wood")]


@pytest.mark.asyncio
async def test_what_an_edit_breaks_in_another_file_is_reported_there(client: LanguageClient, mod: Path):
    """pack.yaml modifies `altar`, which cards.yaml writes whole: the conflict is pack.yaml's; renaming
    the card in cards.yaml, unsaved, clears it."""
    pack = mod / "pack.yaml"
    text = pack.read_text() + "modify:\n  cards:\n    altar:\n      cost: wood\n"
    found = await opened(client, pack, text)
    assert [d.code for d in found] == ["E-PACK-MODIFY"]
    cards = mod / "cards.yaml"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri(cards), language_id="yaml", version=1,
                               text=cards.read_text().replace("id: altar", "id: altar_two"))))
    assert await published(client, pack) == []


@pytest.mark.asyncio
async def test_hover_completion_and_definition(client: LanguageClient, mod: Path):
    cards = mod / "cards.yaml"
    text = cards.read_text() + CARD.replace("stonee", "stone")
    assert await opened(client, cards, text) == []
    said = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(cards)), position(text, "produce wood", 2)))
    assert "produce [private] [N] <resources>" in said.contents.value
    said = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(cards)), position(text, "[altar]", 2)))
    assert "card `altar`" in said.contents.value and "vp 3" in said.contents.value  # the mod's own altar (2 in the base)
    # completion where the grammar expects a resource, and in an id list
    offered = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(cards)), position(text, "wood")))
    labels = {item.label for item in offered.items}
    assert {"wood", "stone", "private"} <= labels and "produce" not in labels
    offered = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri(cards)), position(text, "[altar]", 1)))
    assert {"altar", "temple", "lighthouse"} <= {item.label for item in offered.items}
    # the definition of an id: the card that chain_from names, in the mod's own file
    found = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri(cards)), position(text, "[altar]", 2)))
    assert found.uri == uri(cards) and found.range.start == position(text, "id: altar", 4)


def test_the_server_ends_when_the_editor_closes_the_connection():
    import subprocess
    done = subprocess.run(SERVER, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
