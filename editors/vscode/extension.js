// Starts `memwarden server` (the language server, over stdio) for memory files: Markdown notes and
// indexes, YAML facts, JSON and JSONL logs. The server itself decides which files are memory.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("memwarden");
  const serverOptions = {
    command: config.get("path") || "memwarden",
    args: ["server", ...(config.get("args") || [])],
    transport: TransportKind.stdio,
  };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "markdown" },
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "json" },
      { scheme: "file", language: "jsonl" },
      { scheme: "file", pattern: "**/*.jsonl" },
    ],
  };
  client = new LanguageClient("memwarden", "memwarden", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
