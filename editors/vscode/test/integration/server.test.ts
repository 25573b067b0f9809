/**
 * The extension with the real language client and the real distaff server
 * of this checkout, in a headless stand-in for VS Code: the server starts
 * from `distaff.server.pythonPath`, the failing assertion's error and the
 * holding one's note arrive, hover and the "Check from here" code action
 * go through the client to the server, the palette's Check From Here works,
 * and the status bar item follows the check.
 *
 * DISTAFF_TEST_PYTHON: the Python to run `-m distaff.server` with (default python3).
 */
import { after, test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import * as headless from "./headlessVscode";

headless.install();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const extension = require("../../src/extension") as typeof import("../../src/extension");

const repo = path.resolve(__dirname, "..", "..", "..", "..", "..");
const fixture = path.join(repo, "editors", "nvim", "test", "lost_update.c");
const TIMEOUT_MS = Number(process.env.DISTAFF_TEST_TIMEOUT ?? "240") * 1000;

type Diagnostic = {
  range: { start: { line: number } };
  message: string;
  severity: number;
  source?: string;
  relatedInformation?: { message: string }[];
};
type Command = { title: string; command: string; arguments?: unknown[] };
type CommandOrAction = Command | { title: string; command?: Command };
const ERROR = 0;
const INFORMATION = 2;

async function waitFor<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      const output = headless.recorded.output.slice(-20).join("\n");
      throw new Error(`timed out waiting for ${what}; diagnostics: ${JSON.stringify([...headless.recorded.diagnostics])}\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function diagnosticsAt(document: headless.TextDocument, line: number, source: string): Diagnostic[] {
  const all = (headless.recorded.diagnostics.get(document.uri.toString()) ?? []) as unknown as Diagnostic[];
  return all.filter((d) => d.range.start.line === line && d.source === source);
}

function markerLine(text: string, marker: string): number {
  const line = text.split("\n").findIndex((l) => l.includes(`distaff-test: ${marker}`));
  assert.ok(line >= 0, marker);
  return line;
}

after(async () => {
  await extension.deactivate();
});

test("the extension runs the real server: diagnostics, hover, Check from here, status", { timeout: TIMEOUT_MS * 4 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "distaff-vscode-"));
  const file = path.join(dir, "lost_update.c");
  const text = fs.readFileSync(fixture, "utf8");
  fs.writeFileSync(file, text);
  const document = new headless.TextDocument(file, text);
  headless.recorded.documents.push(document);
  headless.recorded.config["distaff.server.pythonPath"] = process.env.DISTAFF_TEST_PYTHON ?? "python3";
  headless.recorded.config["distaff.unwind"] = 4;
  process.env.PYTHONPATH = [repo, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter);

  await extension.activate({ subscriptions: [] } as never);
  assert.deepEqual(headless.recorded.messages.filter((m) => m.level === "error"), []);

  const fails = markerLine(text, "fails");
  const holds = markerLine(text, "holds");
  const here = markerLine(text, "check from here");
  // A verdict, once published for this (unchanging) text, is final: wait for
  // one on each assertion, then judge it, so a wrong one fails at once.
  const error = await waitFor("a verdict on the failing assertion", () => diagnosticsAt(document, fails, "distaff")[0]);
  assert.equal(error.severity, ERROR, error.message);
  assert.match(error.message, /can fail/);
  // VS Code shows related information, so the schedule is there, step by step, not in the message.
  assert.doesNotMatch(error.message, /Schedule:/);
  const steps = (error.relatedInformation ?? []).map((r) => r.message);
  assert.ok(steps.length >= 2, JSON.stringify(steps));
  assert.match(steps.join("\n"), /^1\. main: /m);
  assert.match(steps.join("\n"), /increment/);
  const note = await waitFor("a verdict on the holding assertion", () => diagnosticsAt(document, holds, "distaff")[0]);
  assert.equal(note.severity, INFORMATION);
  assert.match(note.message, /holds/);

  // The server's commands were registered by the client, beside the palette's.
  for (const id of ["distaff.checkFile", "distaff.checkFromHere", "distaff.pinThread", "distaff.clearContext"]) {
    assert.ok(headless.recorded.commands.has(id), id);
  }
  assert.ok(headless.recorded.commands.has("distaff.editor.checkFromHere"));

  const token = new (headless.vscode.CancellationTokenSource as new () => { token: unknown })().token;
  const Position = headless.vscode.Position as new (l: number, c: number) => unknown;
  const Range = headless.vscode.Range as new (a: unknown, b: unknown) => unknown;

  const hoverProvider = headless.recorded.providers.get("hover")?.[0] as {
    provideHover(d: unknown, p: unknown, t: unknown): Promise<{ contents: { value: string }[] }>;
  };
  const column = text.split("\n")[fails].indexOf("assert");
  const hover = await hoverProvider.provideHover(document, new Position(fails, column), token);
  const hoverText = hover.contents.map((c) => c.value).join("\n");
  assert.match(hoverText, /can fail/);
  assert.match(hoverText, /\d+ runs/);

  const actionProvider = headless.recorded.providers.get("codeAction")?.[0] as {
    provideCodeActions(d: unknown, r: unknown, c: unknown, t: unknown): Promise<CommandOrAction[]>;
  };
  const column0 = text.split("\n")[here].search(/\S/);
  const at = new Position(here, column0);
  const actions = await actionProvider.provideCodeActions(document, new Range(at, at), { diagnostics: [], triggerKind: 1 }, token);
  const titles = actions.map((a) => a.title);
  assert.ok(titles.includes("Check from here"), titles.join(", "));
  assert.ok(titles.includes("Pin this thread here"), titles.join(", "));
  // What VS Code does when the user picks it: run its command (a code action
  // carries one; a plain command is one).
  const picked = actions.find((a) => a.title === "Check from here")!;
  const command = typeof picked.command === "string" ? (picked as Command) : picked.command!;
  const run = headless.recorded.commands.get(command.command);
  assert.ok(run !== undefined, `the client registered no command ${command.command}`);
  const answer = (await run(...(command.arguments ?? []))) as Record<string, unknown>;
  assert.equal(answer.error, undefined, JSON.stringify(answer));
  const context = await waitFor("context results", () => diagnosticsAt(document, fails, "distaff (context)")[0]);
  assert.notEqual(context.severity, INFORMATION, context.message);
  // The full context (issue 7) is no longer approximate; the message names it.
  assert.match(context.message, /from line \d+, context/);

  // The palette: clear, then Check From Here at the cursor.
  (headless.vscode.window as { activeTextEditor: unknown }).activeTextEditor = { document, selection: { active: at } };
  await headless.recorded.commands.get("distaff.editor.clearContext")!();
  await waitFor("the context results to be cleared", () =>
    diagnosticsAt(document, fails, "distaff (context)").length === 0 ? true : undefined,
  );
  const fromPalette = (await headless.recorded.commands.get("distaff.editor.checkFromHere")!()) as Record<string, unknown>;
  assert.equal(fromPalette.error, undefined, JSON.stringify(fromPalette));
  const again = await waitFor("context results from the palette", () => diagnosticsAt(document, fails, "distaff (context)")[0]);
  assert.equal(again.message, context.message);

  // The status bar item went through a check and shows its summary.
  const item = headless.recorded.statusItems[0];
  await waitFor("the status bar to show the last check", () => (item.text.startsWith("$(check) distaff: ") ? true : undefined));
  assert.deepEqual(headless.recorded.messages.filter((m) => m.level !== "info"), []);
});
