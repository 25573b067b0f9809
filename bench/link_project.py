"""A generated C project of many files for the linking bench (bench/link_bench.py).

``generate(root, files=50, lines=10_000)`` writes ``main.c`` and ``files - 1``
modules ``mod_NN.c`` of about ``lines / files`` lines each, one header, and a
``compile_commands.json`` giving each module its own ``-DSCALE=N``. Each
module has a ``static`` counter, lock and helpers of the same names as every
other module's (so linking renames them apart), an external setup function
that calls one of the helpers (every fifth module's has an assertion, which
holds), an adder under its lock and an external total. ``main`` runs every
module's setup, one after the other, then two threads add to the first few
modules' totals and ``main`` asserts the sum after joining them: a program
whose every file is reached and whose threads interleave on a few locks.
Nothing random: the same arguments write the same files.
"""

from __future__ import annotations

import json
from pathlib import Path

SHARED = 3  # modules whose totals the two threads add to
ASSERT_EVERY = 5  # modules with an assertion in their setup: every fifth


def module(k: int, last: int, helpers: int) -> str:
    lines = [f"/* module {k}: helpers, a setup with an assertion, a total under a lock */",
             "#include <assert.h>", "#include <pthread.h>", '#include "project.h"', "",
             "static int calls;", "static int table[8];",
             "static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;", f"int mod_{k:02d}_total;", ""]
    for j in range(helpers):
        lines += [f"static int step_{j}(int x) {{",
                  f"    int y = x * {j % 5 + 2} + SCALE;",
                  f"    if (y > {1000 + 37 * j}) {{",
                  f"        y = y % {97 + j};",
                  "    } else {",
                  f"        y = y + {j + 1};",
                  "    }",
                  "    calls++;",
                  f"    table[{j % 8}] = y;",
                  "    return y;",
                  "}",
                  ""]
    body = [f"int mod_{k:02d}_setup(int seed) {{", "    int v = seed;"]
    body += [f"    v = step_{k % helpers}(v);"]
    if k % ASSERT_EVERY == 0:
        body += ["    assert(v >= 0 && calls > 0);"]
    body += ["    return v % 50;", "}", ""]
    adder = [f"void mod_{k:02d}_add(int amount) {{", "    pthread_mutex_lock(&lock);",
             f"    mod_{k:02d}_total += amount;", "    pthread_mutex_unlock(&lock);", "}"]
    return "\n".join(lines + body + adder) + "\n"


def header(last: int) -> str:
    lines = ["#ifndef PROJECT_H", "#define PROJECT_H", ""]
    for k in range(1, last + 1):
        lines += [f"int mod_{k:02d}_setup(int seed);", f"void mod_{k:02d}_add(int amount);",
                  f"extern int mod_{k:02d}_total;"]
    return "\n".join(lines + ["", "#endif"]) + "\n"


def main_file(last: int) -> str:
    adds = [f"        mod_{k:02d}_add(1);" for k in range(1, SHARED + 1)]
    totals = " + ".join(f"mod_{k:02d}_total" for k in range(1, SHARED + 1))
    return "\n".join([
        "/* main: every module's setup, then two threads adding to the first modules' totals */",
        "#include <assert.h>", "#include <pthread.h>", '#include "project.h"', "",
        "static void *adder(void *arg) {", "    for (int i = 0; i < 2; i++) {", *adds, "    }", "    return 0;", "}",
        "", "int main(void) {", "    pthread_t a, b;", "    int v = 1;",
        *(f"    v = mod_{k:02d}_setup(v);" for k in range(1, last + 1)),
        "    pthread_create(&a, 0, adder, 0);", "    pthread_create(&b, 0, adder, 0);",
        "    pthread_join(a, 0);", "    pthread_join(b, 0);", f"    assert({totals} == {4 * SHARED});",
        "    return 0;", "}"]) + "\n"


def generate(root: Path, files: int = 50, lines: int = 10_000) -> dict:
    """Write the project into ``root``; what was written (files, lines)."""
    root.mkdir(parents=True, exist_ok=True)
    last = files - 1
    helpers = max(1, (lines // files - 20) // 12)  # a helper is 12 lines, the rest about 20
    texts = {"main.c": main_file(last)}
    for k in range(1, last + 1):
        texts[f"mod_{k:02d}.c"] = module(k, last, helpers)
    (root / "project.h").write_text(header(last))
    entries = []
    for name, text in texts.items():
        (root / name).write_text(text)
        scale = int(name[4:6]) if name.startswith("mod_") else 0
        entries.append({"directory": ".", "file": name,
                        "arguments": ["cc", f"-DSCALE={scale}", "-c", name, "-o", name[:-2] + ".o"]})
    (root / "compile_commands.json").write_text(json.dumps(entries, indent=1))
    return {"files": len(texts), "lines": sum(t.count("\n") for t in texts.values()),
            "header_lines": header(last).count("\n"),
            "assertions": sum(t.count("    assert(") for t in texts.values())}


if __name__ == "__main__":
    import sys

    print(generate(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/link_project")))
