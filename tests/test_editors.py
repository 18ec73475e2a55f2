"""The editor set-ups of docs/editors.md, run for real where the editor is here: Neovim's snippet
(editors/neovim/wonderforge.lua) in a headless Neovim on a pack made by `wonderforge new`; the
VS Code extension (editors/vscode/) in node, VS Code's API stubbed, to see the server it starts.
A test whose editor, node or pygls is missing skips, unless WONDERFORGE_NEED_EDITORS=1 (CI), where
it fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wonderforge.tools.cli.commands import main

pytestmark = pytest.mark.slow  # a real language server or editor per test: -m "not slow" leaves it out

ROOT = Path(__file__).resolve().parent.parent
VSCODE = ROOT / "editors" / "vscode"
NEOVIM_SNIPPET = ROOT / "editors" / "neovim" / "wonderforge.lua"
DOCS = ROOT / "docs" / "editors.md"
NEED_EDITORS = os.environ.get("WONDERFORGE_NEED_EDITORS") == "1"
CARD = """- id: clay_pool
  name: Clay Pool
  colour: brown
  copies: {1: [3, 5]}
  cost: 2 stonee
  effect: |
    on build: produce wood
"""


def need(program: str) -> str:
    """The path of a program this test runs; skip without it (fail under WONDERFORGE_NEED_EDITORS=1)."""
    found = shutil.which(program)
    if found is None:
        why = f"{program} is not installed (apt-get install {'neovim' if program == 'nvim' else 'nodejs'})"
        if NEED_EDITORS:
            pytest.fail(f"WONDERFORGE_NEED_EDITORS=1 but {why}")
        pytest.skip(why)
    return found


def need_server() -> None:
    """The language server's extra (pygls); skip without it, fail under WONDERFORGE_NEED_EDITORS=1."""
    try:
        import pygls  # noqa: F401
    except ImportError:
        if NEED_EDITORS:
            pytest.fail("WONDERFORGE_NEED_EDITORS=1 but pygls is not installed (pip install 'wonderforge[lsp]')")
        pytest.skip("pygls is not installed (pip install 'wonderforge[lsp]')")


@pytest.fixture
def path_with_wonderforge(tmp_path: Path) -> str:
    """A PATH whose `wonderforge` is this checkout's, as an editor finds it after `pip install`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "wonderforge"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m wonderforge.tools.cli.commands "$@"\n')
    script.chmod(0o755)
    return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"


# ---- VS Code --------------------------------------------------------------------------------------


def manifest() -> dict:
    return json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))


def test_the_vscode_manifest_has_what_vs_code_needs():
    found = manifest()
    assert {"name", "publisher", "version", "engines", "main", "activationEvents", "contributes"} <= set(found)
    assert found["engines"]["vscode"].startswith("^1.")
    assert found["activationEvents"] == ["workspaceContains:**/pack.yaml"]
    assert (VSCODE / found["main"]).is_file()
    assert "vscode-languageclient" in found["dependencies"]
    assert "redhat.vscode-yaml" in found.get("extensionPack", []) + found.get("extensionDependencies", [])
    settings = found["contributes"]["configuration"]["properties"]
    assert settings["wonderforge.server.command"]["default"] == "wonderforge"
    assert settings["wonderforge.server.args"]["default"] == ["lsp"]
    # what is built and installed from the folder is committed; what npm and vsce write is not
    assert (VSCODE / "package-lock.json").is_file()
    assert {"node_modules/", "*.vsix"} <= set((VSCODE / ".gitignore").read_text().split())


def test_extension_js_reads_the_settings_the_manifest_declares():
    """Without node too: the client library, the selector, and every setting read is declared."""
    code = (VSCODE / "extension.js").read_text(encoding="utf-8")
    assert "require('vscode-languageclient/node')" in code
    assert "{ scheme: 'file', language: 'yaml' }" in code
    declared = manifest()["contributes"]["configuration"]["properties"]
    for key in ("server.command", "server.args"):
        assert f"settings.get('{key}'" in code and f"wonderforge.{key}" in declared


# Loads extension.js with `vscode` and `vscode-languageclient/node` stubbed, the settings those of
# package.json overlaid with argv[3]; activates it and prints the clients it made and its commands.
HARNESS = r"""
const Module = require('module');
const path = require('path');
const [extension, settingsJson] = process.argv.slice(2);
const declared = require(path.join(path.dirname(extension), 'package.json')).contributes.configuration.properties;
const settings = JSON.parse(settingsJson);
const seen = { clients: [], commands: [], errors: [] };
const vscode = {
  workspace: {
    workspaceFolders: [{ uri: { fsPath: '/home/modder/mods' } }],
    getConfiguration: (section) => ({
      get: (key, fallback) => {
        const name = `${section}.${key}`;
        if (name in settings) return settings[name];
        return name in declared ? declared[name].default : fallback;
      },
    }),
    onDidChangeConfiguration: () => ({ dispose() {} }),
  },
  window: { showErrorMessage: (message) => seen.errors.push(message) },
  commands: { registerCommand: (name) => { seen.commands.push(name); return { dispose() {} }; } },
};
class LanguageClient {
  constructor(id, name, server, client) { seen.clients.push({ id, name, server, client }); }
  start() { return Promise.resolve(); }
  stop() { return Promise.resolve(); }
}
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'vscode') return vscode;
  if (request === 'vscode-languageclient/node') return { LanguageClient };
  return load.call(this, request, ...rest);
};
require(extension).activate({ subscriptions: [] }).then(() => console.log(JSON.stringify(seen)));
"""


def activated(tmp_path: Path, settings: dict) -> dict:
    """What extension.js does on activation in VS Code with these settings (node, API stubbed)."""
    node = need("node")
    subprocess.run([node, "--check", str(VSCODE / "extension.js")], check=True, timeout=60)
    harness = tmp_path / "harness.js"
    harness.write_text(HARNESS)
    done = subprocess.run([node, str(harness), str(VSCODE / "extension.js"), json.dumps(settings)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("settings, command, args", [
    ({}, "wonderforge", ["lsp"]),
    ({"wonderforge.server.command": "${workspaceFolder}/.venv/bin/wonderforge"},
     "/home/modder/mods/.venv/bin/wonderforge", ["lsp"]),
    ({"wonderforge.server.command": "python3", "wonderforge.server.args": ["-m", "wonderforge.tools.cli.commands", "lsp"]},
     "python3", ["-m", "wonderforge.tools.cli.commands", "lsp"]),
])
def test_the_extension_starts_the_server_the_settings_name(tmp_path: Path, settings, command, args):
    seen = activated(tmp_path, settings)
    (client,) = seen["clients"]
    assert client["server"] == {"command": command, "args": args}  # stdio, no argument added
    assert client["client"]["documentSelector"] == [{"scheme": "file", "language": "yaml"}]
    assert seen["errors"] == []
    declared = {c["command"] for c in manifest()["contributes"]["commands"]}
    assert set(seen["commands"]) == declared == {"wonderforge.restartServer"}


def a_session(path: str) -> tuple[list[dict], subprocess.CompletedProcess]:
    """Run the command and arguments VS Code runs by default, as an editor does: initialize, then
    shut down and exit. The server's messages, and how its process ended."""
    need_server()
    settings = manifest()["contributes"]["configuration"]["properties"]
    argv = [settings["wonderforge.server.command"]["default"], *settings["wonderforge.server.args"]["default"]]
    said = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"processId": None, "rootUri": None, "capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"}]
    frames = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                      for body in (json.dumps(message).encode() for message in said))
    done = subprocess.run(argv, input=frames, capture_output=True, timeout=120, env={**os.environ, "PATH": path})
    answers = [json.loads(part.split(b"Content-Length")[0]) for part in done.stdout.split(b"\r\n\r\n")[1:]]
    return answers, done


def test_the_extension_default_command_serves_over_stdio(path_with_wonderforge: str):
    """`wonderforge lsp`, as configured by default (no `--stdio` added), answers over stdin/stdout."""
    answers, _ = a_session(path_with_wonderforge)
    assert [answer["id"] for answer in answers] == [1, 2]
    capabilities = answers[0]["result"]["capabilities"]
    assert capabilities["hoverProvider"] and capabilities["definitionProvider"] and capabilities["codeActionProvider"]
    assert answers[0]["result"]["serverInfo"]["name"] == "wonderforge"


def test_the_server_exits_cleanly_when_the_editor_closes(path_with_wonderforge: str):
    """Shut down then exit, as every editor does on closing: status 0 and nothing on stderr."""
    _, done = a_session(path_with_wonderforge)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode()


# ---- Neovim ---------------------------------------------------------------------------------------


# Run in Neovim once the broken card file is open: wait for the diagnostics, note them and the
# client, apply the quick fix (unsaved) and wait for them to clear, then open a YAML file outside
# any pack. Writes what it saw to $PROBE_OUT as JSON, and always quits.
PROBE = r"""
local seen = {}
local function clients()
  local found = {}
  for _, c in ipairs((vim.lsp.get_clients or vim.lsp.get_active_clients)()) do
    if vim.lsp.buf_is_attached(0, c.id) then
      table.insert(found, { name = c.name, root_dir = c.config.root_dir })
    end
  end
  return found
end
local function probe()
  vim.o.hidden = true
  seen.waited = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  seen.diagnostics = vim.diagnostic.get(0)
  seen.clients = clients()
  local d = seen.diagnostics[1]
  local lsp = (d.user_data or {}).lsp or {}
  local range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } }
  local asked = { textDocument = { uri = vim.uri_from_bufnr(0) }, range = range, context = { diagnostics = {
    { range = range, message = d.message, severity = d.severity, code = d.code, source = d.source, data = lsp.data } } } }
  for _, answer in pairs(vim.lsp.buf_request_sync(0, 'textDocument/codeAction', asked, 30000) or {}) do
    for _, action in ipairs(answer.result or {}) do
      seen.fix = action.title
      vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
    end
  end
  seen.fixed_line = vim.api.nvim_buf_get_lines(0, d.lnum, d.lnum + 1, false)[1]
  seen.cleared = vim.wait(60000, function() return #vim.diagnostic.get(0) == 0 end, 50)
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('OUTSIDE')))
  seen.outside_filetype = vim.bo.filetype
  seen.outside_clients = clients()
end
local ok, err = pcall(probe)
seen.error = (not ok) and tostring(err) or nil
vim.fn.writefile({ vim.fn.json_encode(seen) }, os.getenv('PROBE_OUT'))
vim.cmd('qa!')
"""


def test_the_neovim_snippet_checks_a_pack_as_it_is_typed(tmp_path: Path, path_with_wonderforge: str):
    """A broken card in a pack made by `wonderforge new`, opened in Neovim configured by the snippet
    alone: the server's diagnostic at the misspelling, the client rooted at the pack's folder, the
    quick fix applied clears it without saving, and a YAML file outside the pack gets no client."""
    nvim = need("nvim")
    need_server()
    pack = tmp_path / "my-mod"
    assert main(["new", "my-mod", "--extends", "7-wonders", "--out", str(pack)]) == 0
    cards = pack / "cards.yaml"
    text = cards.read_text(encoding="utf-8") + CARD
    cards.write_text(text, encoding="utf-8")
    outside = tmp_path / "elsewhere" / "notes.yaml"
    outside.parent.mkdir()
    outside.write_text("cost: 2 stonee\n")
    (tmp_path / "probe.lua").write_text(PROBE)
    home = tmp_path / "home"  # Neovim's own files (state, logs) kept out of the user's
    env = {**os.environ, "PATH": path_with_wonderforge, "PROBE_OUT": str(tmp_path / "seen.json"),
           "OUTSIDE": str(outside), "HOME": str(home), **{f"XDG_{d}_HOME": str(home / d.lower())
                                                         for d in ("CONFIG", "DATA", "STATE", "CACHE")}}
    subprocess.run([nvim, "--headless", "-i", "NONE", "-u", str(NEOVIM_SNIPPET), str(cards),
                    "-c", f"luafile {tmp_path / 'probe.lua'}"], cwd=tmp_path, env=env, timeout=240,
                   stdin=subprocess.DEVNULL, capture_output=True)
    seen = json.loads((tmp_path / "seen.json").read_text())
    assert seen.get("error") is None and seen["waited"]
    (wrong,) = seen["diagnostics"]
    line = text.splitlines().index("  cost: 2 stonee")
    assert (wrong["lnum"], wrong["col"], wrong["end_lnum"], wrong["end_col"]) == (line, 10, line, 16)
    assert wrong["code"] == "E-DSL-PARSE" and wrong["source"] == "wonderforge" and wrong["severity"] == 1
    assert "did you mean 'stone'?" in wrong["message"]
    assert seen["clients"] == [{"name": "wonderforge", "root_dir": str(pack)}]
    assert seen["fix"] == "Replace with 'stone'" and seen["fixed_line"] == "  cost: 2 stone" and seen["cleared"]
    assert "stonee" in cards.read_text(encoding="utf-8")  # the fix is in the buffer, not saved
    assert seen["outside_filetype"] == "yaml" and seen["outside_clients"] == []


# ---- the page -------------------------------------------------------------------------------------


def test_docs_give_the_tested_set_ups():
    """docs/editors.md shows the Neovim snippet as tested here, and the VS Code settings as declared."""
    page = DOCS.read_text(encoding="utf-8")
    assert NEOVIM_SNIPPET.read_text(encoding="utf-8").strip() in page
    for name in manifest()["contributes"]["configuration"]["properties"]:
        assert f"`{name}`" in page
    assert "pip install 'wonderforge[lsp]'" in page and "code --install-extension" in page
