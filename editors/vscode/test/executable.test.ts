import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

import { findExecutable } from "../src/executable";

test("an executable is found on the search path, a plain file or a missing one is not", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "distaff-exe-"));
  const exe = path.join(dir, "distaff");
  fs.writeFileSync(exe, "#!/bin/sh\n", { mode: 0o755 });
  fs.writeFileSync(path.join(dir, "plain"), "", { mode: 0o644 });
  assert.equal(findExecutable("distaff", ["/nonexistent", dir].join(path.delimiter)), exe);
  assert.equal(findExecutable(exe, ""), exe);
  if (process.platform !== "win32") {
    assert.equal(findExecutable("plain", dir), undefined);
  }
  assert.equal(findExecutable("distaff", "/nonexistent"), undefined);
  assert.equal(findExecutable(path.join(dir, "missing"), ""), undefined);
});
