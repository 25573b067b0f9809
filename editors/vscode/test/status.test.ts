import { test } from "node:test";
import * as assert from "node:assert/strict";

import { CheckStatus } from "../src/status";

test("the status follows a check from begin to end and keeps its result", () => {
  const status = new CheckStatus();
  assert.match(status.view().text, /loading~spin/);
  status.setServer("running");
  assert.equal(status.view().text, "$(check) distaff");
  status.progress("t1", { kind: "begin", title: "distaff: checking race.c", percentage: 0 });
  assert.equal(status.view().text, "$(loading~spin) distaff 0%");
  status.progress("t1", { kind: "report", message: "2/5 assertions", percentage: 40 });
  assert.equal(status.view().text, "$(loading~spin) distaff 40%");
  assert.match(status.view().tooltip, /checking race\.c: 2\/5 assertions/);
  status.progress("t1", { kind: "end", message: "1 fails, 4 hold" });
  assert.equal(status.view().text, "$(check) distaff: 1 fails, 4 hold");
});

test("concurrent checks are counted; an end for an unknown token is harmless", () => {
  const status = new CheckStatus();
  status.setServer("running");
  status.progress(1, { kind: "begin", title: "a" });
  status.progress(2, { kind: "begin", title: "b" });
  assert.equal(status.view().text, "$(loading~spin) distaff (+1 more)");
  status.progress(1, { kind: "end" });
  status.progress(99, { kind: "end" });
  status.progress(99, { kind: "report", percentage: 50 });
  assert.equal(status.view().text, "$(loading~spin) distaff");
  status.progress(2, { kind: "end" });
  assert.equal(status.view().text, "$(check) distaff");
});

test("a stopped server shows as an error and forgets running checks", () => {
  const status = new CheckStatus();
  status.setServer("running");
  status.progress("t", { kind: "begin", title: "a" });
  status.setServer("stopped");
  assert.equal(status.view().error, true);
  assert.equal(status.view().text, "$(error) distaff");
  status.setServer("running");
  assert.equal(status.view().text, "$(check) distaff");
});
