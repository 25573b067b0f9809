"""The regression gate: programs in the styles real users check, each with its
true answer, decided as a user runs distaff, against what the last release
decided.

    python bench/regress_bench.py [--before REV] [--baseline bench/regress/baseline.json]
                                  [--write-baseline] [--timeout 30] [--mode M] [--out bench/results/regress.md]
                                  [PROGRAM.c ...]

Each program of ``bench/regress/programs`` (or those given) carries in its
header ``EXPECT: true | false`` (does some execution reach an error call or
fail an assertion) and ``PROPERTY: unreach-call | assert``; it is checked by
``python -m distaff check --timeout T --format json`` (with ``--property
unreach-call`` for the error-call programs) in a fresh process, as a user
runs it, and stopped if it runs past ``T + 30`` s (then it is an overrun). Its
answer is ``true`` (every assertion proven), ``false`` (one violated),
``bounded`` (no violation within the unwind bound, not a proof), ``unknown``
(anything else) or ``overrun``. An answer is *decided* when it is true or
false within the budget, *correct* when it is the expected one, *wrong* when
it is decided and not the expected one.

With ``--before REV`` the revision is checked out in a temporary worktree,
its compiled core built in place (as ``pip install`` would; pure Python
where that fails: the table says which), and every program is run by both
trees one after the other (``--write-baseline`` also writes the before
tree's answers to ``--baseline``). Without it the current tree is compared
with the committed baseline.

The gate (exit status 1 when it fails, the table says why): a program the
baseline decided correctly that is no longer decided correctly; any wrong
answer; a program decided both times that took more than ten times as long
(and over ``SLOW_FLOOR_S``). A baseline entry with an ``unsound`` note (its
answer was right by luck: the release proved it after exploring less than
every execution, as its deepening bug let it) is not held against a tree.
With ``--mode M`` this checkout checks every program in mode ``M`` (the
before side keeps its default): whether making ``M`` the default would lose
a decided answer; ``--memory-model X`` likewise for a memory model.

Not a test: timings depend on the machine; the CI slice is
``tests/test_regress_gate.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "bench" / "regress" / "programs"
BASELINE = ROOT / "bench" / "regress" / "baseline.json"
SLOW_FACTOR = 10.0
SLOW_FLOOR_S = 2.0  # a program under this is never "ten times slower": start-up noise
OVERRUN_S = 30.0  # past the budget by this much a run is stopped and counted an overrun


def header(text: str) -> dict[str, str]:
    """The ``KEY: value`` lines of a program's header comment."""
    head = text.split("*/", 1)[0]
    return dict(re.findall(r"^\s*\*?\s*(STYLE|EXPECT|PROPERTY):\s*(\S+)", head, re.M))


def programs(given: list[Path]) -> list[Path]:
    return given or sorted(PROGRAMS.glob("*.c"))


def answer_of(doc: dict, prop: str) -> str:
    """``true``, ``false``, ``bounded`` or ``unknown`` from a JSON result of
    either format version (1: ``holds`` with ``bounded``; 2: ``bounded``)."""
    statuses = []
    for f in doc.get("files", []):
        for a in f.get("assertions", []):
            if a.get("reason") == "skipped":  # not part of the property
                continue
            s = a["status"]
            if s == "holds" and a.get("bounded"):
                s = "bounded"
            statuses.append(s)
        if any(x.get("kind") in ("syntax", "unsupported") for x in f.get("findings", [])):
            statuses.append("unknown")
    if "violated" in statuses:
        return "false"
    if statuses and all(s in ("holds", "unreachable") for s in statuses):
        return "true"
    if statuses and all(s in ("holds", "unreachable", "bounded") for s in statuses):
        return "bounded"
    return "unknown"


def check_json(tree: Path | None, args: list[str], timeout: float) -> tuple[dict | None, float, int | None, str]:
    """``distaff check --timeout T --format json ARGS`` by ``tree`` (None:
    this checkout's installed distaff) in a fresh process, stopped ``OVERRUN_S``
    past its budget: (its JSON, or None when it printed none or was stopped;
    its wall time; its exit status, None when stopped; what went wrong, in a
    line: ``overrun`` when stopped)."""
    argv = [sys.executable, "-m", "distaff", "check", "--timeout", f"{timeout:g}", "--format", "json", *args]
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    t0 = time.monotonic()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=str(tree or ROOT), env=env,
                              timeout=timeout + OVERRUN_S)
    except subprocess.TimeoutExpired:
        return None, round(time.monotonic() - t0, 2), None, "overrun"
    took = round(time.monotonic() - t0, 2)
    try:
        return json.loads(proc.stdout), took, proc.returncode, ""
    except json.JSONDecodeError:
        return None, took, proc.returncode, (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]


def run(tree: Path | None, path: Path, timeout: float, mode: str | None = None, model: str | None = None) -> dict:
    """One check of ``path`` as a user runs it, by ``tree`` (None: this
    checkout's installed distaff), in ``mode`` under memory model ``model``
    (None: the defaults)."""
    prop = header(path.read_text()).get("PROPERTY", "assert")
    args = ["--property", "unreach-call"] if prop == "unreach-call" else []
    if mode is not None:
        args += ["--mode", mode]
    if model is not None:
        args += ["--memory-model", model]
    doc, took, code, error = check_json(tree, args + [str(path)], timeout)
    if error == "overrun":
        return {"answer": "overrun", "time_s": took, "exit": None}
    if doc is None:
        return {"answer": "unknown", "time_s": took, "exit": code, "error": error}
    answer = answer_of(doc, prop)
    if took > timeout + 1.0 and answer not in ("true", "false"):
        answer = "overrun"  # it did not hold its own budget
    return {"answer": answer, "time_s": took, "exit": code}


def judge(expect: str, got: dict) -> str:
    a = got["answer"]
    if a in ("true", "false"):
        return "correct" if a == expect else "wrong"
    return a  # bounded, unknown, overrun: undecided


def regressions(expect: dict[str, str], before: dict, after: dict) -> list[str]:
    """What fails the gate, one line each."""
    out = []
    for name, exp in sorted(expect.items()):
        b, a = before.get(name), after.get(name)
        if a is None:
            continue
        ja = judge(exp, a)
        if ja == "wrong":
            out.append(f"{name}: wrong answer {a['answer']} (expected {exp})")
        if b is None or b.get("unsound"):  # a right answer for a wrong reason is no decision to keep
            continue
        jb = judge(exp, b)
        if jb == "correct" and ja != "correct":
            out.append(f"{name}: decided before ({b['answer']} in {b['time_s']} s), now {a['answer']}")
        if jb == "correct" and ja == "correct" and a["time_s"] > max(SLOW_FLOOR_S, SLOW_FACTOR * b["time_s"]):
            out.append(f"{name}: {a['time_s']} s, more than {SLOW_FACTOR:g} times the {b['time_s']} s before")
    return out


def tally(expect: dict[str, str], results: dict) -> dict[str, int]:
    counts = {"programs": 0, "decided": 0, "correct": 0, "wrong": 0, "bounded": 0, "unknown": 0, "overrun": 0}
    for name, exp in expect.items():
        r = results.get(name)
        if r is None:
            continue
        counts["programs"] += 1
        j = judge(exp, r)
        if j in ("correct", "wrong"):
            counts["decided"] += 1
        counts[j] = counts.get(j, 0) + 1
    return counts


def worktree(rev: str) -> tuple[Path, str]:
    """``rev`` checked out in a temporary worktree with its core built in
    place; (the tree, which core it runs)."""
    tmp = Path(tempfile.mkdtemp(prefix="distaff-regress-"))
    tree = tmp / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), rev], cwd=ROOT, check=True)
    built = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree,
                           capture_output=True, text=True)
    probe = subprocess.run([sys.executable, "-m", "distaff", "--version"], cwd=tree, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(tree)})
    core = probe.stdout.strip() if built.returncode == 0 else f"{probe.stdout.strip()} (build failed)"
    return tree, core


def trees(before: str | None) -> list[tuple[str, Path | None, str]]:
    """(label, tree, core) of each tree a bench compares: ``before`` checked
    out and built (:func:`worktree`) when given, then this checkout (tree
    None: its installed distaff)."""
    out: list[tuple[str, Path | None, str]] = []
    if before:
        tree, core = worktree(before)
        out.append((before, tree, core))
    probe = subprocess.run([sys.executable, "-m", "distaff", "--version"], cwd=ROOT, capture_output=True, text=True)
    out.append(("this checkout", None, probe.stdout.strip()))
    return out


def remove_trees(compared: list[tuple[str, Path | None, str]]) -> None:
    """Remove the worktrees :func:`trees` checked out."""
    for _, tree, _ in compared:
        if tree is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default=None, help="git revision to run beside this checkout")
    ap.add_argument("--baseline", type=Path, default=BASELINE)
    ap.add_argument("--write-baseline", action="store_true",
                    help="write the before revision's answers to --baseline (needs --before)")
    ap.add_argument("--timeout", type=float, default=30.0, help="--timeout of each check (s)")
    ap.add_argument("--mode", default=None, help="check with this mode in this checkout (default: its default)")
    ap.add_argument("--memory-model", default=None, dest="model",
                    help="check under this memory model in this checkout (default: its default)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "regress.md")
    ap.add_argument("programs", nargs="*", type=Path)
    args = ap.parse_args(argv)
    paths = programs(args.programs)
    expect = {p.name: header(p.read_text()).get("EXPECT", "?") for p in paths}
    styles = {p.name: header(p.read_text()).get("STYLE", "?") for p in paths}
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip()
    before, before_label, core_before = {}, "", ""
    tree = None
    if args.before:
        tree, core_before = worktree(args.before)
        before_label = subprocess.run(["git", "rev-parse", "--short", args.before], cwd=ROOT, capture_output=True,
                                      text=True).stdout.strip()
    elif args.baseline.exists():
        stored = json.loads(args.baseline.read_text())
        before, before_label, core_before = stored["results"], stored["revision"], stored.get("core", "")
    after: dict = {}
    started = time.time()
    for p in paths:
        if tree is not None:
            before[p.name] = run(tree, p, args.timeout)
        after[p.name] = run(None, p, args.timeout, args.mode, args.model)
        b, a = before.get(p.name), after.get(p.name)
        print(f"{p.name}: expect {expect[p.name]}; before {b and b['answer']} {b and b['time_s']} s; "
              f"after {a and a['answer']} {a and a['time_s']} s", flush=True)
    if args.write_baseline:
        if tree is None:
            ap.error("--write-baseline needs --before")
        args.baseline.write_text(json.dumps({"revision": before_label, "core": core_before, "timeout_s": args.timeout,
                                             "date": time.strftime("%Y-%m-%d"), "results": before},
                                            indent=1, sort_keys=True) + "\n")
        print(f"wrote {args.baseline}")
    core_after = subprocess.run([sys.executable, "-m", "distaff", "--version"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
    failures = regressions(expect, before, after)
    tb, ta = tally(expect, before), tally(expect, after)
    lines = [
        "# Regression gate: decided within the budget, before and after",
        "",
        f"`python bench/regress_bench.py{' --before ' + args.before if args.before else ''} --timeout {args.timeout:g}"
        f"{' --mode ' + args.mode if args.mode else ''}{' --memory-model ' + args.model if args.model else ''}` "
        f"on {platform.machine()} {platform.system()}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}: before = {before_label} ({core_before}), after = {head} with any uncommitted "
        f"changes ({core_after}{', mode ' + args.mode if args.mode else ''}{', memory model ' + args.model if args.model else ''}); {len(paths)} programs of `bench/regress/programs`, each checked as a user runs "
        f"it (`distaff check --timeout {args.timeout:g} --format json`, `--property unreach-call` for the error-call "
        f"programs), in a fresh process; {time.time() - started:.0f} s in all.",
        "",
        "*decided*: a proof (`true`) or a violation (`false`) within the budget; *correct*: the expected one; "
        "*wrong*: decided and not the expected one; *bounded*: no violation within the unwind bound (not a proof); "
        "*unknown*: undecided; *overrun*: ran more than a second past its `--timeout`.",
        "",
        "| | programs | decided | correct | wrong | bounded | unknown | overrun |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
        f"| before | {tb['programs']} | {tb['decided']} | {tb['correct']} | {tb['wrong']} | {tb['bounded']} | "
        f"{tb['unknown']} | {tb['overrun']} |",
        f"| after | {ta['programs']} | {ta['decided']} | {ta['correct']} | {ta['wrong']} | {ta['bounded']} | "
        f"{ta['unknown']} | {ta['overrun']} |",
        "",
        "Gate: " + ("passed (no decided answer lost, no wrong answer, nothing ten times slower)." if not failures
                    else f"{len(failures)} failure(s):"),
    ]
    lines += [f"- {f}" for f in failures]
    lines += ["", "| program | style | expected | before | s | after | s |", "|---|---|---|---|---:|---|---:|"]
    for p in paths:
        b, a = before.get(p.name, {}), after.get(p.name, {})
        lines.append(f"| {p.stem} | {styles[p.name]} | {expect[p.name]} | {b.get('answer', '-')} | "
                     f"{b.get('time_s', '-')} | {a.get('answer', '-')} | {a.get('time_s', '-')} |")
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines[:16]))
    if tree is not None:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
