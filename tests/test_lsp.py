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

from wonderforge.tools.cli.commands import main  # noqa: E402

pytestmark = pytest.mark.slow  # a real language server or editor per test: -m "not slow" leaves it out

SERVER = [sys.executable, "-m", "wonderforge.tools.cli.commands", "lsp"]
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
    text = cards.read_text().replace("effect: vp 2", "effect: vp 3") + CARD.replace("stonee", "stone")
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


@pytest.mark.asyncio
async def test_columns_are_the_editor_s_and_a_linked_folder_keeps_its_name(client: LanguageClient, mod: Path,
                                                                           tmp_path: Path):
    """The editor counts columns in UTF-16 units (an emoji is two), and names a file through the
    link it opened it by: the diagnostics come back so."""
    (tmp_path / "linked").symlink_to(mod, target_is_directory=True)
    cards = tmp_path / "linked" / "cards.yaml"
    line = '- {id: tavern_2, name: "Tavern 🎉", colour: yellow, copies: {1: [3]}, cost: 2 stonee}\n'
    text = cards.read_text() + line
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=cards.absolute().as_uri(), language_id="yaml", version=1, text=text)))
    while True:
        note = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if note.uri == cards.absolute().as_uri():
            break
    wrong = next(d for d in note.diagnostics if d.code == "E-DSL-PARSE")
    column = line.index("stonee") + 1  # the emoji before it counts twice
    assert (wrong.range.start.character, wrong.range.end.character) == (column, column + 6)


@pytest.mark.asyncio
async def test_an_untitled_buffer_and_a_new_unsaved_file(client: LanguageClient, mod: Path):
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri="untitled:Untitled-1", language_id="yaml", version=1, text="a: 1\n")))
    progress = mod / "progress.yaml"  # not on disk yet: checked as the editor holds it
    found = await opened(client, progress, "- id: my_token\n  name: Mine\n  effect: vpp 2\n")
    assert "E-DSL-VERB" in [d.code for d in found] and not progress.exists()
    said = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri(progress)), types.Position(2, 12)))
    assert said is None or "vpp" not in said.contents.value  # the server still answers


@pytest.mark.asyncio
@pytest.mark.parametrize("typed, offered, absent", [
    ("  cost: 2 ", {"stone", "wood"}, {"produce"}),
    ('  effect: "on ', {"build", "stage"}, {"produce"}),
    ("  effect: ", {"produce", "on", "at"}, set()),
    ("  chain_from: [alt", {"altar"}, {"temple"}),
    ("  colour: ", {"blue", "green"}, set()),
])
async def test_completion_at_the_end_of_a_line_being_typed(client: LanguageClient, mod: Path, typed, offered, absent):
    cards = mod / "cards.yaml"
    text = cards.read_text() + "- id: new_card\n  name: New\n" + typed
    await opened(client, cards, text)
    where = types.Position(len(text.splitlines()) - 1, len(typed))
    got = await client.text_document_completion_async(types.CompletionParams(types.TextDocumentIdentifier(uri(cards)),
                                                                             where))
    labels = {item.label for item in got.items}
    assert offered <= labels and not absent & labels


@pytest.mark.parametrize("sig, status", [(2, 130), (15, 143)])
def test_the_server_ends_on_a_signal_as_every_command_does(sig, status):
    import subprocess
    server = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        body = b'{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}'
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()
        assert server.stdout.readline().startswith(b"Content-Length")  # answered: started, its handlers set
        server.send_signal(sig)
        _, err = server.communicate(timeout=20)
    finally:
        server.kill()
    assert server.returncode == status and b"Traceback" not in err
