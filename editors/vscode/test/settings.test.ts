import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

import { SERVER_SETTINGS, serverLaunch, serverSettings, startFailureMessage } from "../src/settings";

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
const contributed: Record<string, Record<string, unknown>> = manifest.contributes.configuration.properties;

function reader(values: Record<string, unknown>) {
  return (key: string) => values[key];
}

test("unset settings reach the server as their defaults, and only the server's keys", () => {
  const { settings, problems } = serverSettings(reader({ "server.command": "/opt/distaff", "trace.server": "verbose" }));
  assert.deepEqual(problems, []);
  assert.deepEqual(Object.keys(settings).sort(), SERVER_SETTINGS.map((s) => s.key).sort());
  for (const spec of SERVER_SETTINGS) {
    assert.equal(settings[spec.key], spec.default, spec.key);
  }
});

test("valid user values are passed through unchanged", () => {
  const values = { checkOn: "change", debounceMs: 250, mode: "baseline", unwind: 3, timeout: 1.5, workers: 2, maxMemoryMB: 0, traceInMessage: "always", races: true, spuriousWakeups: false, findingsTimeout: 2, memoryModel: "rc11", symArgs: 1, symArgLen: 4 };
  const { settings, problems } = serverSettings(reader(values));
  assert.deepEqual(problems, []);
  assert.deepEqual(settings, values);
});

test("invalid values fall back to the default and are named", () => {
  const { settings, problems } = serverSettings(
    reader({ mode: "fast", unwind: 0, debounceMs: 2.5, workers: "4", checkOn: null, maxMemoryMB: null, timeout: -1 }),
  );
  assert.equal(settings.mode, "dpor-ag");
  assert.equal(settings.unwind, 8);
  assert.equal(settings.debounceMs, 500);
  assert.equal(settings.workers, 1);
  assert.equal(settings.checkOn, "save");
  assert.equal(settings.maxMemoryMB, 2048);
  assert.equal(settings.timeout, 30);
  assert.equal(problems.length, 7);
  const upper = serverSettings(reader({ unwind: 1001, workers: 257, timeout: null }));
  assert.deepEqual([upper.settings.unwind, upper.settings.workers, upper.settings.timeout], [8, 1, null]);
  assert.equal(upper.problems.length, 2);
  assert.match(problems.join("\n"), /distaff\.mode: "fast" is not accepted, using "dpor-ag"/);
  assert.match(problems.join("\n"), /distaff\.unwind: 0/);
});

test("package.json contributes every server setting with the same default and constraints", () => {
  for (const spec of SERVER_SETTINGS) {
    const entry = contributed[`distaff.${spec.key}`];
    assert.ok(entry !== undefined, `distaff.${spec.key} is not contributed`);
    assert.equal(entry.default, spec.default, spec.key);
    if (spec.choices !== undefined) {
      assert.deepEqual(entry.enum, spec.choices, spec.key);
    }
    assert.equal(entry.minimum, spec.minimum, spec.key);
    assert.equal(entry.maximum, spec.maximum, spec.key);
    const types = ([] as unknown[]).concat(entry.type);
    assert.equal(types.includes("null"), spec.nullable === true, `${spec.key} nullable`);
    assert.equal(types.includes("integer"), spec.integer === true, `${spec.key} integer`);
  }
});

test("package.json contributes no server setting the server does not read", () => {
  const clientOnly = new Set(["distaff.server.command", "distaff.server.pythonPath", "distaff.trace.server"]);
  const serverKeys = new Set(SERVER_SETTINGS.map((s) => `distaff.${s.key}`));
  for (const key of Object.keys(contributed)) {
    assert.ok(clientOnly.has(key) || serverKeys.has(key), `${key} is contributed but unknown to the server`);
  }
});

test("the server starts as `distaff lsp` unless a Python interpreter is configured", () => {
  assert.deepEqual(serverLaunch(reader({})), { command: "distaff", args: ["lsp"], from: "distaff.server.command" });
  assert.deepEqual(serverLaunch(reader({ "server.command": " /opt/bin/distaff " })).command, "/opt/bin/distaff");
  assert.deepEqual(serverLaunch(reader({ "server.command": "x", "server.pythonPath": "/venv/bin/python" })), {
    command: "/venv/bin/python",
    args: ["-m", "distaff.server"],
    from: "distaff.server.pythonPath",
  });
  assert.equal(serverLaunch(reader({ "server.pythonPath": "  " })).command, "distaff");
});

test("a start failure says what was run, why it failed and how to fix it", () => {
  const text = startFailureMessage(serverLaunch(reader({})), new Error("spawn distaff ENOENT"));
  assert.match(text, /`distaff lsp`/);
  assert.match(text, /spawn distaff ENOENT/);
  assert.match(text, /pip install distaff/);
  assert.match(text, /distaff\.server\.command/);
  const python = startFailureMessage(serverLaunch(reader({ "server.pythonPath": "/usr/bin/python3" })), "exit 1");
  assert.match(python, /`\/usr\/bin\/python3 -m distaff.server`/);
  assert.match(python, /\/usr\/bin\/python3 -m pip install distaff/);
});
