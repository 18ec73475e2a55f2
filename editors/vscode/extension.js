// The WonderForge extension: runs `wonderforge lsp` (or the command the settings name) over stdio
// for YAML files. The server finds the pack of each file (the folder holding pack.yaml) and leaves
// YAML files outside a pack alone, so the selector need not know where packs are.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

const SECTION = 'wonderforge';
let client;

/** The server to run, from the settings `wonderforge.server.command` and `.args`, with
 * `${workspaceFolder}` replaced so that a project's own virtual environment can be named. */
function serverOptions() {
  const settings = vscode.workspace.getConfiguration(SECTION);
  const folders = vscode.workspace.workspaceFolders;
  const folder = folders && folders.length ? folders[0].uri.fsPath : '';
  const expand = (text) => text.split('${workspaceFolder}').join(folder);
  // No `transport`: the client would add `--stdio` to the arguments; without it, the command runs
  // exactly as configured, and talks over stdin/stdout all the same.
  return {
    command: expand(settings.get('server.command', 'wonderforge')),
    args: settings.get('server.args', ['lsp']).map(expand),
  };
}

/** Start the server for the YAML files on disk; say how to install it when it cannot start. */
async function start() {
  const server = serverOptions();
  client = new LanguageClient(SECTION, 'WonderForge', server, {
    documentSelector: [{ scheme: 'file', language: 'yaml' }],
  });
  try {
    await client.start();
  } catch (err) {
    client = undefined;
    const line = [server.command, ...server.args].join(' ');
    vscode.window.showErrorMessage(
      `WonderForge: could not start \`${line}\` (${err && err.message ? err.message : err}). ` +
      "Install it with pip install 'wonderforge[lsp]', or set wonderforge.server.command.");
  }
}

/** Stop the server, if one runs. */
async function stop() {
  const running = client;
  client = undefined;
  if (running) {
    await running.stop();
  }
}

async function restart() {
  await stop();
  await start();
}

/** VS Code calls this once a folder holding a pack.yaml is opened. */
async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('wonderforge.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration(`${SECTION}.server`)) {
        restart();
      }
    }));
  await start();
}

/** VS Code calls this on closing the window or disabling the extension. */
function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
