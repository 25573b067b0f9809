import { beforeEach, test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import * as fake from "./fakeEditor";

fake.install();
// Required after install() so that its `vscode` imports get the stand-ins.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const extension = require("../src/extension") as typeof import("../src/extension");

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
const defaults: Record<string, unknown> = Object.fromEntries(
  Object.entries(manifest.contributes.configuration.properties as Record<string, { default: unknown }>).map(
    ([key, entry]) => [key, entry.default],
  ),
);

const bin = fs.mkdtempSync(path.join(os.tmpdir(), "distaff-bin-"));
fs.writeFileSync(path.join(bin, "distaff"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
const pathWithServer = [bin, process.env.PATH ?? ""].join(path.delimiter);
const pathWithoutServer = "/nonexistent-distaff-dir";

function context() {
  return { subscriptions: [] as { dispose(): unknown }[] };
}

function cEditor(line: number, character: number) {
  return {
    document: { languageId: "c", uri: { toString: () => "file:///tmp/race.c" }, isDirty: false },
    selection: { active: { line, character } },
  };
}

beforeEach(async () => {
  await extension.deactivate();
  fake.reset(defaults);
  process.env.PATH = pathWithServer;
});

test("activation registers exactly the palette commands package.json contributes", async () => {
  await extension.activate(context() as never);
  const contributed = (manifest.contributes.commands as { command: string }[]).map((c) => c.command).sort();
  assert.deepEqual([...fake.state.commands.keys()].sort(), contributed);
  assert.deepEqual(contributed, [
    "distaff.editor.checkFile",
    "distaff.editor.checkFromHere",
    "distaff.editor.clearContext",
    "distaff.editor.pinThread",
    "distaff.editor.writeReproducer",
    "distaff.restartServer",
    "distaff.showOutput",
  ]);
});

test("palette ids do not clash with the server's commands, which the client registers itself", async () => {
  await extension.activate(context() as never);
  for (const serverId of ["distaff.checkFile", "distaff.checkFromHere", "distaff.pinThread", "distaff.clearContext",
    "distaff.writeReproducer"]) {
    assert.equal(fake.state.commands.has(serverId), false, serverId);
  }
});

test("the client starts `distaff lsp` over stdio for C documents", async () => {
  await extension.activate(context() as never);
  assert.equal(fake.state.clients.length, 1);
  const client = fake.state.clients[0];
  assert.equal(client.id, "distaff");
  assert.equal(client.serverOptions.command, path.join(bin, "distaff"));
  assert.deepEqual(client.serverOptions.args, ["lsp"]);
  assert.equal(client.serverOptions.transport, fake.TransportKind.stdio);
  assert.deepEqual(
    client.clientOptions.documentSelector.map((s) => s.language),
    ["c", "c"],
  );
  assert.equal(client.isRunning(), true);
  assert.deepEqual(fake.state.messages, []);
});

test("with distaff.server.pythonPath the server is `PYTHON -m distaff.server`", async () => {
  fake.state.config["distaff.server.pythonPath"] = process.execPath; // any executable file
  await extension.activate(context() as never);
  assert.equal(fake.state.clients[0].serverOptions.command, process.execPath);
  assert.deepEqual(fake.state.clients[0].serverOptions.args, ["-m", "distaff.server"]);
});

test("settings reach the server mapped, in initializationOptions and workspace/configuration", async () => {
  fake.state.config["distaff.mode"] = "dpor";
  fake.state.config["distaff.unwind"] = 4;
  await extension.activate(context() as never);
  const client = fake.state.clients[0];
  assert.equal(client.clientOptions.initializationOptions.mode, "dpor");
  assert.equal(client.clientOptions.initializationOptions.unwind, 4);
  assert.equal("server.command" in client.clientOptions.initializationOptions, false);
  fake.state.config["distaff.unwind"] = 2;
  const answer = client.clientOptions.middleware.workspace.configuration(
    { items: [{ section: "distaff" }] },
    undefined,
    () => assert.fail("the distaff section is answered by the extension"),
  ) as Record<string, unknown>[];
  assert.equal(answer.length, 1);
  assert.equal(answer[0].unwind, 2);
  assert.equal(answer[0].mode, "dpor");
  let forwarded = false;
  client.clientOptions.middleware.workspace.configuration({ items: [{ section: "C_Cpp" }] }, undefined, () => {
    forwarded = true;
    return [null];
  });
  assert.equal(forwarded, true);
});

test("an invalid setting is reported to the user once", async () => {
  fake.state.config["distaff.mode"] = "fastest";
  await extension.activate(context() as never);
  const client = fake.state.clients[0];
  client.clientOptions.middleware.workspace.configuration({ items: [{ section: "distaff" }] }, undefined, () => null);
  const warnings = fake.state.messages.filter((m) => m.level === "warning");
  assert.equal(warnings.length, 1);
  assert.match(warnings[0].text, /distaff\.mode: "fastest"/);
  assert.equal(client.clientOptions.initializationOptions.mode, "dpor-ag");
});

test("Check From Here sends the server command with the cursor's position", async () => {
  await extension.activate(context() as never);
  fake.state.activeTextEditor = cEditor(11, 4);
  await fake.state.commands.get("distaff.editor.checkFromHere")!();
  await fake.state.commands.get("distaff.editor.pinThread")!();
  await fake.state.commands.get("distaff.editor.clearContext")!();
  await fake.state.commands.get("distaff.editor.checkFile")!();
  assert.deepEqual(fake.state.clients[0].requests, [
    { method: "workspace/executeCommand", params: { command: "distaff.checkFromHere", arguments: [{ uri: "file:///tmp/race.c", line: 11, character: 4 }] } },
    { method: "workspace/executeCommand", params: { command: "distaff.pinThread", arguments: [{ uri: "file:///tmp/race.c", line: 11, character: 4 }] } },
    { method: "workspace/executeCommand", params: { command: "distaff.clearContext", arguments: [{ uri: "file:///tmp/race.c" }] } },
    { method: "workspace/executeCommand", params: { command: "distaff.checkFile", arguments: [{ uri: "file:///tmp/race.c" }] } },
  ]);
});

test("a command without a C editor says so and sends nothing", async () => {
  await extension.activate(context() as never);
  await fake.state.commands.get("distaff.editor.checkFromHere")!();
  assert.deepEqual(fake.state.clients[0].requests, []);
  assert.match(fake.state.messages[0].text, /needs an open C file/);
});

test("a missing server gives one error with the fix, and no client", async () => {
  process.env.PATH = pathWithoutServer;
  await extension.activate(context() as never);
  assert.equal(fake.state.clients.length, 0);
  const errors = fake.state.messages.filter((m) => m.level === "error");
  assert.equal(errors.length, 1);
  assert.match(errors[0].text, /could not be started with `distaff lsp`/);
  assert.match(errors[0].text, /pip install distaff/);
  assert.deepEqual(errors[0].actions, ["Open Settings", "Show Output"]);
  assert.equal(fake.state.statusItems[0].text, "$(error) distaff");
});

test("a server that fails during start is reported the same way", async () => {
  fake.state.startError = new Error("Server initialization failed");
  await extension.activate(context() as never);
  const errors = fake.state.messages.filter((m) => m.level === "error");
  assert.equal(errors.length, 1);
  assert.match(errors[0].text, /Server initialization failed/);
  assert.equal(fake.state.statusItems[0].text, "$(error) distaff");
});

test("Restart Server replaces the client, picking up a changed command", async () => {
  await extension.activate(context() as never);
  const first = fake.state.clients[0];
  fake.state.config["distaff.server.pythonPath"] = process.execPath;
  await fake.state.commands.get("distaff.restartServer")!();
  assert.equal(first.isRunning(), false);
  assert.equal(fake.state.clients.length, 2);
  assert.deepEqual(fake.state.clients[1].serverOptions.args, ["-m", "distaff.server"]);
  assert.equal(fake.state.clients[1].isRunning(), true);
});

test("work-done progress from the server drives the status bar item and still reaches the client", async () => {
  await extension.activate(context() as never);
  const item = fake.state.statusItems[0];
  assert.equal(item.shown, true);
  assert.equal(item.text, "$(check) distaff");
  const progress = fake.state.clients[0].clientOptions.middleware.handleWorkDoneProgress;
  let delivered = 0;
  progress("tok", { kind: "begin", title: "checking race.c", percentage: 0 }, () => delivered++);
  progress("tok", { kind: "report", percentage: 50, message: "1/2" }, () => delivered++);
  assert.equal(item.text, "$(loading~spin) distaff 50%");
  progress("tok", { kind: "end", message: "1 fails, 1 holds" }, () => delivered++);
  assert.equal(item.text, "$(check) distaff: 1 fails, 1 holds");
  assert.equal(delivered, 3);
});

test("a settings change is pushed to the server as the mapped section", async () => {
  await extension.activate(context() as never);
  const client = fake.state.clients[0];
  fake.state.config["distaff.unwind"] = 5;
  fake.changeConfiguration("distaff.unwind");
  assert.equal(client.notifications.length, 1);
  const sent = client.notifications[0];
  assert.equal(sent.method, "workspace/didChangeConfiguration");
  const section = (sent.params as { settings: { distaff: Record<string, unknown> } }).settings.distaff;
  assert.equal(section.unwind, 5);
  assert.equal("server.command" in section, false);
  assert.deepEqual(fake.state.messages, []);
  fake.changeConfiguration("editor.fontSize");
  assert.equal(client.notifications.length, 1);
});

test("changing how the server starts offers a restart", async () => {
  await extension.activate(context() as never);
  fake.changeConfiguration("distaff.server.command");
  assert.deepEqual(fake.state.messages.map((m) => m.actions), [["Restart Server"]]);
});
