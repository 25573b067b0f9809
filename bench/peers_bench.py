"""distaff beside two stateless model checkers, Nidhugg and GenMC: runs
against their trace and execution counts, wall time against theirs, and the
verdicts, on the same programs in one run.

    python bench/peers_bench.py [--timeout 30] [--modes dpor,rf,dpor-ag] [--programs GLOB ...]
                                [--nidhugg PATH] [--genmc PATH] [--nidhugg-unroll N]
                                [--rev REV | --tree DIR] [--jobs 1] [--no-spurious-wakeups]
                                [--out bench/results/peers.md]

The programs: Table 2's (``bench/table2/programs``), the bundled examples,
the regression programs (``bench/regress/programs``) and the reads-from
data-structure programs (``bench/rf``); ``--programs`` names other files or
globs instead. Each carries its expected answer in its header (``EXPECT:
holds | violated | true | false`` or ``VERDICT: ...``): does some execution
fail an assertion or reach an error call.

distaff: ``python -m distaff check --mode M --format json --timeout T
--workers 1 FILE`` in a fresh process for each mode (``--unwind N`` when
the header states ``UNWIND: N``, as ``bench/table2/run.py`` does), stopped
``OVERRUN_S`` past its budget. distaff checks each assertion on its own, so
``runs`` is reported both summed over the assertions and as the largest of
one assertion's check: the latter is what compares with a peer's count,
which covers every assertion in one exploration (a peer stops at its first
error, as one assertion's check does). The answer is ``violated`` (some
assertion violated), ``holds`` (every assertion holds or is unreachable),
``bounded`` (none violated, some only within the unwind bound) or
``unknown``; *decided* means no assertion is undecided.

The peers, when installed (``--nidhugg`` and ``--genmc`` name the binaries;
``/work/peers`` by default, ``$NIDHUGGC`` and ``$GENMC`` too): Nidhugg as
``nidhuggc -- -sc -optimal FILE`` (``--unroll=N`` before ``--`` with
``--nidhugg-unroll N``), its ``Trace count`` plus its await-, assume- and
sleep-set-blocked traces; GenMC as ``genmc --sc --disable-race-detection
--disable-estimation FILE`` (the estimation pass explores on its own and can
stop on an error before the count), its ``complete executions explored``
plus ``blocked executions``; when it stops on "Unordered writes" (in-place
revisiting) it is run again with ``--disable-ipr --disable-sr``. Each gets
the same budget ``T``. Their answer is ``violated`` (an assertion failure),
``holds`` (no error), ``error: KIND`` (another error), ``timeout``, or
``n/c`` (it could not compile or load the program: the notes say why).

The peers read a copy of each program, tweaked as they need and distaff does
not (written to a temporary directory; the originals are untouched): the
program's own prototypes of ``__VERIFIER_*`` and ``reach_error`` are dropped
and a prelude declares the peer's (``reach_error`` fails an assertion);
``__VERIFIER_atomic_begin/end`` become lock/unlock of one global mutex (so an
atomic block excludes other atomic blocks only: the notes say so); GenMC,
which has no atomic functions, runs a ``__VERIFIER_atomic_f`` definition
under that mutex (Nidhugg runs them atomically itself); a global mutex or
condition variable with a static initialiser, or zero-initialised and never
passed to ``pthread_*_init``, is initialised at the start of ``main``
(Nidhugg reports static initialisers as uninitialised). Neither peer explores
``__VERIFIER_nondet_*`` inputs (Nidhugg returns 0; GenMC a fixed sequence):
on a program that reads inputs a peer's "holds" is not a proof, and the notes
say "inputs fixed".

Not a test: times depend on the machine; the counts do not.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import glob
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GROUPS = {
    "table2": "bench/table2/programs/*.c",
    "examples": "examples/*.c",
    "regress": "bench/regress/programs/*.c",
    "rf": "bench/rf/*.c",
}
MODES = ("dpor", "rf", "dpor-ag")
DEFAULT_MODE = "dpor-ag"
NIDHUGGC = os.environ.get("NIDHUGGC", "/work/peers/nidhugg/src/nidhuggc")
GENMC = os.environ.get("GENMC", "/work/peers/genmc/genmc")
OVERRUN_S = 30.0  # distaff past its budget by this much is stopped (an overrun)

_VERIFIER_DECL = re.compile(
    r"^(?:extern\s+)?(?:static\s+)?(?:void|int|unsigned(?:\s+int)?|long|char|_Bool|bool)\s*\*?\s*"
    r"(__VERIFIER_\w+|reach_error)\s*\([^;{}]*\)\s*;[ \t]*$", re.M)
_SYNC_DECL = re.compile(r"^(static\s+)?pthread_(mutex|cond)_t\s+([^;()]+);[ \t]*$", re.M)
_MAIN = re.compile(r"\bint\s+main\s*\([^)]*\)\s*\{")
# what each peer has no model of (Nidhugg calls these as black boxes, which hang or mislead; GenMC
# 0.10.3 has no semaphore.h, and clang's semaphores hang it; its condition variables, rwlocks and
# pthread_once fail to compile, which the notes show as they are)
UNSUPPORTED = {
    "nidhugg": (r"\bsem_\w+", r"\bpthread_barrier_\w+", r"\bpthread_rwlock_\w+", r"\bpthread_once\b",
                r"\bpthread_spin_\w+"),
    "genmc": (r"\bsem_\w+", r"\bpthread_spin_\w+"),
}
_ATOMIC_FN = re.compile(r"^([A-Za-z_][\w \t\*]*?)\b(__VERIFIER_atomic_(?!begin\b|end\b)\w+)\s*\(([^)]*)\)\s*\{", re.M)


# ---------------------------------------------------------------- programs

def header(text: str) -> dict[str, str]:
    """The ``KEY: value`` lines of a program's header comment."""
    head = text.split("*/", 1)[0]
    return dict(re.findall(r"^\s*\*?\s*([A-Z]+):\s*(\S+)", head, re.M))


def expected(text: str) -> str:
    h = header(text)
    v = (h.get("EXPECT") or h.get("VERDICT") or "?").lower()
    return {"true": "holds", "false": "violated"}.get(v, v)


def programs(given: list[str]) -> list[tuple[str, Path]]:
    """(group, path) of every program, in a fixed order."""
    out: list[tuple[str, Path]] = []
    if given:
        for g in given:
            hits = sorted(glob.glob(g)) or sorted(glob.glob(str(ROOT / g)))
            out += [("given", Path(h).resolve()) for h in hits]
        return out
    for group, pattern in GROUPS.items():
        out += [(group, p) for p in sorted(ROOT.glob(pattern))]
    return out


def label(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


# ------------------------------------------------------------- processes

def run_cmd(argv: list[str], timeout: float, cwd: str | None = None, env: dict | None = None):
    """(stdout, stderr, exit status or None when stopped at ``timeout``,
    wall seconds); the process group is killed at the timeout."""
    t0 = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env=env,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return out, err, proc.returncode, time.monotonic() - t0
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        return out, err, None, time.monotonic() - t0


# ----------------------------------------------------------------- distaff

def distaff_answer(statuses: list[tuple[str, bool]]) -> str:
    """The program's answer from its assertions' (status, bounded flag): JSON version 2 says
    ``bounded`` as a status, version 1 as ``holds`` with the flag."""
    if any(s == "violated" for s, _ in statuses):
        return "violated"
    if statuses and all(s in ("holds", "unreachable") and not b for s, b in statuses):
        return "holds"
    if statuses and all(s in ("holds", "unreachable", "bounded") for s, _ in statuses):
        return "bounded"
    return "unknown"


# measure distaff with its byte code cached, as an installed package has it
# (pip compiles it at install); --uncached: as this workplace runs it
CACHED = True


def distaff_env(tree: Path | None) -> dict:
    """The environment distaff runs in: ``tree`` on the path, and byte code
    written and read (:data:`CACHED`: this workplace sets
    ``PYTHONDONTWRITEBYTECODE``, under which every start compiles the
    modules' sources again, 0.1 s a command that a user's install does not
    pay: ``bench/results/startup.md``)."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    if CACHED:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def warm_up(tree: Path | None) -> None:
    """One check before the rounds, so the byte code is written before the
    first program is timed."""
    subprocess.run([sys.executable, "-m", "distaff", "check", "--format", "json", str(ROOT / "examples" / "one_run.c")],
                   cwd=str(tree or ROOT), env=distaff_env(tree), capture_output=True, text=True)


def run_distaff(path: Path, mode: str, timeout: float, tree: Path | None, extra: tuple = ()) -> dict:
    argv = [sys.executable, "-m", "distaff", "check", "--mode", mode, "--format", "json",
            "--timeout", f"{timeout:g}", "--workers", "1", *extra]
    m = re.search(r"^\s*\*?\s*UNWIND:\s*(\d+)", path.read_text().split("*/", 1)[0], re.M)
    if m:
        argv += ["--unwind", m.group(1)]
    argv.append(str(path))
    out, err, rc, dt = run_cmd(argv, timeout + OVERRUN_S, cwd=str(tree or ROOT), env=distaff_env(tree))
    rec: dict = {"mode": mode, "wall_s": round(dt, 2), "exit": rc, "assertions": [], "findings": []}
    if rc is None:
        rec.update(answer="overrun", decided=False, note="overrun")
        return rec
    try:
        doc = json.loads(out)
    except json.JSONDecodeError:
        last = (err.strip().splitlines() or [f"exit {rc}"])[-1]
        rec.update(answer="n/c", decided=False, note=last[:160])
        return rec
    statuses = []
    for f in doc.get("files", []):
        for a in f.get("assertions", []):
            st = a.get("stats") or {}
            rec["assertions"].append({"id": a.get("id"), "line": a.get("line"), "status": a["status"],
                                      "bounded": bool(a.get("bounded")), "reason": a.get("reason"),
                                      "runs": st.get("runs", 0), "full_runs": st.get("full_runs", 0)})
            statuses.append((a["status"], bool(a.get("bounded"))))
        rec["findings"] += sorted({x.get("kind") for x in f.get("findings", [])})
    runs = [a["runs"] for a in rec["assertions"]]
    rec["runs_sum"] = sum(runs)
    rec["runs_max"] = max(runs, default=0)
    # the complete runs of that largest check (the rest were pruned: ended
    # sleep-set blocked or with a thread parked, as a peer's blocked executions)
    rec["full_max"] = max((a["full_runs"] for a in rec["assertions"] if a["runs"] == rec["runs_max"]), default=0)
    rec["decided"] = bool(statuses) and all(s != "unknown" for s, _ in statuses)
    rec["answer"] = distaff_answer(statuses)
    return rec


# -------------------------------------------------------------- peer copies

def _declarators(decl: str) -> list[tuple[str, bool, str | None]] | None:
    """(name, is_array, initialiser) of each declarator of a simple
    declaration list; None when one is not simple."""
    out = []
    for part in decl.split(","):
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*(?:=\s*(\w+))?\s*", part)
        if not m:
            return None
        out.append((m.group(1), bool(m.group(2)), m.group(3)))
    return out


def _wrap_atomic_functions(text: str) -> tuple[str, int]:
    """Each ``__VERIFIER_atomic_f`` definition renamed and called by a
    wrapper of that name that holds ``__peer_atomic``."""
    count = 0
    while True:
        m = next((m for m in _ATOMIC_FN.finditer(text) if "__peer_" not in m.group(2)), None)
        if m is None:
            return text, count
        ret, name, params = m.group(1).strip(), m.group(2), m.group(3).strip()
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        names = [] if params in ("", "void") else [re.findall(r"\w+", p)[-1] for p in params.split(",")]
        call = f"__peer_body{name[len('__VERIFIER_atomic'):]}({', '.join(names)})"
        if ret.split() == ["void"]:
            body = f"pthread_mutex_lock(&__peer_atomic); {call}; pthread_mutex_unlock(&__peer_atomic);"
        else:
            body = (f"pthread_mutex_lock(&__peer_atomic); {ret} __r = {call}; "
                    "pthread_mutex_unlock(&__peer_atomic); return __r;")
        wrapper = f" {ret} {name}({params or 'void'}) {{ {body} }}"  # on the closing line
        head = text[:m.start()] + text[m.start():m.end()].replace(name, "__peer_body" + name[len("__VERIFIER_atomic"):])
        text = head + text[m.end():i + 1] + wrapper + text[i + 1:]
        count += 1


def peer_copy(text: str, peer: str) -> tuple[str | None, list[str]]:
    """The program as ``peer`` ("nidhugg" or "genmc") reads it, and notes on
    what changed that bears on its answer; (None, [reason]) when it cannot be
    made."""
    notes: list[str] = []
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    missing = sorted({m.group(0) for pat in UNSUPPORTED[peer] for m in re.finditer(pat, code)
                      if not m.group(0).endswith("_t")})
    if missing:
        name = {"nidhugg": "Nidhugg", "genmc": "GenMC 0.10.3"}[peer]
        return None, [f"{name} has no model of {', '.join(missing)}"]
    used = set(re.findall(r"\b(__VERIFIER_\w+|reach_error)\b", text))
    defined = set(re.findall(r"\b(__VERIFIER_\w+|reach_error)\s*\([^;{)]*\)\s*\{", text))
    text = _VERIFIER_DECL.sub("", text)
    prelude = ["#include <assert.h>", "#include <pthread.h>"]
    if peer == "nidhugg":  # its built-ins, declared (GenMC declares __VERIFIER_assume itself)
        prelude += ["void __VERIFIER_assume(int);", "int __VERIFIER_nondet_int(void);",
                    "unsigned int __VERIFIER_nondet_uint(void);"]
    else:
        prelude += ["int __VERIFIER_nondet_int(void);"]
    for t, fn in (("_Bool", "bool"), ("char", "char"), ("long", "long"), ("short", "short")):
        if f"__VERIFIER_nondet_{fn}" in used and f"__VERIFIER_nondet_{fn}" not in defined:
            prelude.append(f"{t} __VERIFIER_nondet_{fn}(void) {{ return ({t})__VERIFIER_nondet_int(); }}")
    if peer == "genmc" and "__VERIFIER_nondet_uint" in used and "__VERIFIER_nondet_uint" not in defined:
        prelude.append("unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)__VERIFIER_nondet_int(); }")
    if any(n.startswith("__VERIFIER_nondet_") for n in used):
        notes.append("inputs fixed")
    for err in ("reach_error", "__VERIFIER_error"):
        if err in used and err not in defined:
            prelude.append(f"void {err}(void) {{ assert(0); }}")
    inits: list[str] = []
    if "__VERIFIER_atomic_begin" in used or (peer == "genmc" and _ATOMIC_FN.search(text)):
        prelude.append("pthread_mutex_t __peer_atomic;")
        inits.append("pthread_mutex_init(&__peer_atomic, 0);")
    if "__VERIFIER_atomic_begin" in used:
        text = re.sub(r"\b__VERIFIER_atomic_begin\s*\(\s*\)", "pthread_mutex_lock(&__peer_atomic)", text)
        text = re.sub(r"\b__VERIFIER_atomic_end\s*\(\s*\)", "pthread_mutex_unlock(&__peer_atomic)", text)
        notes.append("atomic blocks as one lock")
    if peer == "genmc":
        text, n = _wrap_atomic_functions(text)
        if n:
            notes.append("atomic functions under one lock")

    def sync_decl(m: re.Match) -> str:
        kind, decls = m.group(2), _declarators(m.group(3))
        if decls is None:
            return m.group(0)
        for name, is_array, init in decls:
            if init not in (None, f"PTHREAD_{kind.upper()}_INITIALIZER"):
                return m.group(0)
        for name, is_array, init in decls:
            if re.search(rf"pthread_{kind}_init\s*\(\s*&?\s*\(?\s*{name}\b", text):
                continue
            if is_array:
                inits.append(f"for (int __i = 0; __i < (int)(sizeof {name} / sizeof {name}[0]); __i++) "
                             f"pthread_{kind}_init(&{name}[__i], 0);")
            else:
                inits.append(f"pthread_{kind}_init(&{name}, 0);")
        bare = ", ".join(re.sub(r"\s*=.*$", "", p.strip()) for p in m.group(3).split(","))
        return f"{m.group(1) or ''}pthread_{kind}_t {bare};"

    text = _SYNC_DECL.sub(sync_decl, text)
    if re.search(r"PTHREAD_(MUTEX|COND)_INITIALIZER", text):
        return None, ["not run: a static mutex/cond initialiser not in a simple global declaration"]
    if inits:
        m = _MAIN.search(text)
        if m is None:
            return None, ["not run: no main to initialise its mutexes in"]
        text = text[:m.end()] + " " + " ".join(inits) + text[m.end():]  # on main's line: lines keep their numbers
    return "\n".join(prelude) + "\n#line 1\n" + text, notes


# ------------------------------------------------------------------- peers

def _first_error(text: str, src: Path) -> str:
    """The line of a peer's output that says why it failed, without the copy's directory."""
    lines = text.splitlines()
    for pat in (r"LLVM ERROR|Assertion .* failed", r"\berror:", r"Error:|ERROR", r"undefined|unsupported"):
        for line in lines:
            if re.search(pat, line) and not line.startswith("Nidhuggc Error: Command"):
                return re.sub(r"\s+", " ", line.replace(str(src.parent) + "/", "").strip())[:160]
    lines = [l for l in text.strip().splitlines() if l.strip()]
    lines = [l for l in lines if l.strip()]
    return re.sub(r"\s+", " ", lines[-1].strip())[:160] if lines else "no output"


def run_nidhugg(binary: str, src: Path, timeout: float, unroll: int | None) -> dict:
    argv = [binary] + ([f"--unroll={unroll}"] if unroll else []) + ["--", "-sc", "-optimal", str(src)]
    out, err, rc, dt = run_cmd(argv, timeout, cwd=str(src.parent))
    rec: dict = {"wall_s": round(dt, 2), "exit": rc}
    text = out + "\n" + err
    m = re.search(r"^Trace count: (\d+)", text, re.M)
    rec["count"] = int(m.group(1)) if m else None
    rec["blocked"] = sum(int(x) for x in re.findall(r"^(?:Await|Assume|Sleepset)-blocked trace count: (\d+)",
                                                      text, re.M))
    black = sorted(set(re.findall(r"unknown external function (\w+) as blackbox", text)))
    if black:
        rec["answer"] = "unsupported"
        rec["note"] = "calls " + ", ".join(black) + " as a black box"
    elif rc is None:
        rec["answer"] = "timeout"
    elif "Error detected:" in text:
        m = re.search(r"^\s*Error: (.*)$", text, re.M)
        what = m.group(1).strip() if m else "?"
        rec["answer"] = "violated" if "Assertion violation" in what else "error: " + re.sub(r" at \(.*", "", what)[:80]
    elif "No errors were detected." in text:
        rec["answer"] = "bounded" if unroll else "holds"
    else:
        rec["answer"] = "crash" if "returned an error exit code (-" in text else "n/c"
        rec["note"] = _first_error(text, src)
    return rec


def run_genmc(binary: str, src: Path, timeout: float) -> dict:
    base = [binary, "--sc", "--disable-race-detection", "--disable-estimation"]
    out, err, rc, dt = run_cmd(base + [str(src)], timeout, cwd=str(src.parent))
    text = out + "\n" + err
    rec: dict = {}
    if rc is not None and "treated as an error due to" in text:  # in-place revisiting or symmetry reduction
        out, err, rc, dt = run_cmd(base + ["--disable-ipr", "--disable-sr", str(src)], timeout, cwd=str(src.parent))
        text = out + "\n" + err
        rec["note"] = "rerun with --disable-ipr --disable-sr"
    rec.update(wall_s=round(dt, 2), exit=rc)
    m = re.search(r"^Number of complete executions explored: (\d+)", text, re.M)
    rec["count"] = int(m.group(1)) if m else None
    m = re.search(r"Number of blocked executions seen: (\d+)", text)
    rec["blocked"] = int(m.group(1)) if m else 0
    m = re.search(r"^Error: (.*?)!?\s*$", text, re.M)
    if rc is None:
        rec["answer"] = "timeout"
    elif m and "Verification unsuccessful" in text:
        what = m.group(1)
        rec["answer"] = "violated" if what == "Safety violation" and re.search(
            r"^Assertion violation", text, re.M) else "error: " + what[:80]
    elif "No errors were detected." in text:
        rec["answer"] = "holds"
    else:
        rec["answer"] = "n/c"
        rec["note"] = _first_error(text, src)
    return rec


# ------------------------------------------------------------------ bench

def measure(group: str, path: Path, args, tmp: Path) -> dict:
    text = path.read_text()
    row: dict = {"group": group, "program": label(path), "expected": expected(text), "distaff": {}, "peers": {}}
    for mode in args.modes:
        extra = ("--no-spurious-wakeups",) if args.no_spurious_wakeups else ()
        row["distaff"][mode] = run_distaff(path, mode, args.timeout, args.tree, extra)
    for peer, binary in (("nidhugg", args.nidhugg), ("genmc", args.genmc)):
        if not binary:
            row["peers"][peer] = {"answer": "not installed"}
            continue
        copy, notes = peer_copy(text, peer)
        if copy is None:
            row["peers"][peer] = {"answer": "not run", "note": notes[0]}
            continue
        d = tmp / peer / group
        d.mkdir(parents=True, exist_ok=True)
        src = d / path.name
        src.write_text(copy)
        rec = run_nidhugg(binary, src, args.timeout, args.nidhugg_unroll) if peer == "nidhugg" \
            else run_genmc(binary, src, args.timeout)
        rec["tweaks"] = notes
        row["peers"][peer] = rec
    return row


def installed(path: str | None) -> str | None:
    if not path:
        return None
    p = shutil.which(path) or (path if os.access(path, os.X_OK) else None)
    return p


def peer_version(peer: str, binary: str | None) -> str:
    if not binary:
        return "not installed"
    out, err, rc, _ = run_cmd([binary, "--version"], 20)
    line = next((l.strip() for l in (out + err).splitlines() if re.search(r"\d+\.\d+", l)), "?")
    return line[:80]


def tree_from_rev(rev: str) -> tuple[Path, str]:
    """``rev`` exported (``git archive``, nothing written to this checkout)
    to a temporary directory with its core built in place."""
    tree = Path(tempfile.mkdtemp(prefix="distaff-peers-")) / "tree"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree, capture_output=True)
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return tree, sha


# ---------------------------------------------------------------- markdown

def fmt_s(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def mark(answer: str, exp: str) -> str:
    """The answer, with ✓ when it is the expected verdict and ✗ when it is
    the other one."""
    if answer in ("holds", "violated") and exp in ("holds", "violated"):
        return answer + (" ✓" if answer == exp else " ✗")
    return answer


def distaff_cell(r: dict, exp: str) -> str:
    if "runs_max" not in r:
        return f"- / {fmt_s(r['wall_s'])} / {r['answer']}"
    runs = f"{r['runs_max']:,}" + (f" (Σ {r['runs_sum']:,})" if r["runs_sum"] != r["runs_max"] else "")
    if r.get("full_max") is not None and r["full_max"] != r["runs_max"]:
        runs += f" [{r['full_max']:,} full]"
    ans = mark(r["answer"], exp) + ("" if r["decided"] else " (undecided)" if r["answer"] != "unknown" else "")
    if r.get("findings"):
        ans += " +" + ",".join(r["findings"])
    return f"{runs} / {fmt_s(r['wall_s'])} / {ans}"


def peer_cell(r: dict, exp: str) -> str:
    if r["answer"] in ("not installed", "not run"):
        return r["answer"]
    if r["answer"] in ("n/c", "crash"):
        return f"- / {fmt_s(r['wall_s'])} / {r['answer']}"
    count = "-" if r.get("count") is None else f"{r['count']:,}" + (f" (+{r['blocked']:,})" if r.get("blocked") else "")
    return f"{count} / {fmt_s(r['wall_s'])} / {mark(r['answer'], exp)}"


def ratio(a: float | None, b: float | None) -> str:
    if a is None or not b:
        return "-"
    return f"{a / b:.2f}"


def complete(r: dict) -> bool:
    """A distaff check that explored everything: every assertion holds (a check that stops at a
    violation, or was cut by the bound or the budget, is not a full count)."""
    return r.get("answer") == "holds" and "runs_max" in r


def peer_complete(r: dict) -> bool:
    return r.get("answer") == "holds" and r.get("count") is not None


def report(rows: list[dict], args, argv: list[str], took: float, versions: dict, tree_label: str) -> str:
    modes = args.modes
    default = DEFAULT_MODE if DEFAULT_MODE in modes else modes[-1]
    dpor = "dpor" if "dpor" in modes else None
    out = [
        "# distaff beside Nidhugg and GenMC",
        "",
        f"`python bench/peers_bench.py {' '.join(argv)}` on {platform.machine()} {platform.system()}, "
        f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}; {len(rows)} programs, "
        f"{took:.0f} s in all. distaff: {tree_label}; Nidhugg: {versions['nidhugg']}; GenMC: {versions['genmc']}.",
        "",
        f"Each cell is *count / wall seconds / answer*, one program at a time (`--jobs {args.jobs}`), "
        f"each tool with the budget {args.timeout:g} s. distaff: `distaff check --mode M --format json "
        f"--timeout {args.timeout:g} --workers 1 FILE` (with `--unwind N` where the header states "
        "`UNWIND: N`), its count the **largest number of runs of one assertion's check** (Σ: summed over "
        "the assertions, when that differs). distaff checks each assertion on its own, so the largest is "
        "what compares with a peer's count, which covers every assertion in one exploration. Nidhugg: "
        "`nidhuggc -- -sc -optimal FILE`"
        + (f" with `--unroll={args.nidhugg_unroll}`" if args.nidhugg_unroll else "")
        + ", its trace count (+ await-, assume- and sleep-set-blocked traces). GenMC: `genmc --sc "
        "--disable-race-detection --disable-estimation FILE`, its complete executions (+ blocked). "
        "Wall time is the whole command's (distaff's includes its Python start-up, about 0.15 s with its "
        + ("byte code cached, as a user's install has it; " if CACHED else
           "byte code compiled again at every start (`--uncached`: PYTHONDONTWRITEBYTECODE set), about 0.3 s; ")
        + "the peers' their clang compile). In the default mode (dpor-ag) a check whose summaries nobody reads "
        "explores with plain DPOR for its first second (optimisation `plain_first`): the runs of dpor-ag are then "
        "dpor's where that decided, and the guided exploration's where it gave way (the plain runs before it "
        "counted apart, as `plain_first_runs`).",
        "",
        "Answers: `holds`, `violated` (✓ the expected verdict of the program's header, ✗ the other one), "
        "`bounded` (no violation within the unwind bound), `unknown` (distaff: an assertion undecided), "
        "`timeout`, `overrun` (distaff ran 30 s past its budget and was stopped), `error: KIND` (a peer "
        "stopped on another error), `n/c` (the peer could not compile or load the program), `crash` (it "
        "failed on it: the notes give its message), `unsupported` (Nidhugg called a function it has no model "
        "of as a black box), `not run` (the program uses what the peer has no model of, or the copy a peer "
        "needs could not be made: the notes say which). `+deadlock` and the like: distaff's findings beside the "
        "assertions. A peer stops at its first error, so its count on a violated program is of the "
        "executions explored up to it, as distaff's is of one assertion's check up to its violation.",
        "",
        "The peers read a tweaked copy of each program (see the script's docstring): notes `inputs fixed` "
        "(the program reads `__VERIFIER_nondet_*` inputs, which neither peer explores: Nidhugg returns 0, "
        "GenMC a fixed sequence, so a peer's `holds` is not a proof there and a missed violation may be "
        "that), `atomic blocks as one lock` (`__VERIFIER_atomic_begin/end` as one global mutex: it "
        "excludes other atomic blocks only, and adds lock events to the counts), `atomic functions under one "
        "lock` (GenMC: a `__VERIFIER_atomic_f` definition run holding that mutex). Both peers end the whole "
        "execution at a false `__VERIFIER_assume` (a blocked execution), where the headers' verdicts read "
        "one in a thread as that thread waiting (`gate_*`). Nidhugg's `pthread_cond_wait` does not wake "
        "spuriously, distaff's does (as POSIX allows; `ifwait_*`).",
        "",
        "distaff's wall time on a violated program includes the search for deadlocks and run-time errors "
        "that follows when no check explored every run (10 s at most by default; `--no-findings` leaves it "
        "out): the 10.4 s of the violated programs decided in one or two runs is that search.",
        "",
    ]
    # summary
    compared, over, excluded = 0, [], 0
    over_full, over_all = [], []  # complete runs against traces; all runs against traces and blocked ones
    walls, walls_fixed = [], []
    disagreements = []
    for row in rows:
        nid = row["peers"].get("nidhugg", {})
        fixed = "inputs fixed" in nid.get("tweaks", [])
        if dpor and complete(row["distaff"][dpor]) and peer_complete(nid):
            if fixed:
                excluded += 1
            else:
                compared += 1
                d = row["distaff"][dpor]
                if d["runs_max"] > nid["count"]:
                    over.append(row)
                if d.get("full_max", d["runs_max"]) > nid["count"]:
                    over_full.append(row)
                if d["runs_max"] > nid["count"] + nid.get("blocked", 0):
                    over_all.append(row)
        d = row["distaff"][default]
        if decided(d) and nid.get("answer") in ("holds", "violated") and nid.get("wall_s"):
            (walls_fixed if fixed else walls).append(d["wall_s"] / nid["wall_s"])
        answers = verdicts(row, modes)
        if len(set(answers.values())) > 1:
            disagreements.append((row, answers))
    out += ["## Summary", ""]
    out.append(f"- distaff `dpor`'s runs (the largest of one assertion's check) against Nidhugg's trace count, "
               f"on the {compared} programs where both explored everything (every assertion holds in "
               f"distaff, Nidhugg finished with no error) and the program reads no input ({excluded} more that read "
               f"inputs left out: Nidhugg fixes them, so its count is of one input): distaff ran more on "
               f"**{len(over)}**" + (": " + ", ".join(
                   f"{Path(r['program']).stem} ({r['distaff'][dpor]['runs_max']:,} vs "
                   f"{r['peers']['nidhugg']['count']:,})" for r in over) if over else "") + ".")
    if dpor:
        def named(rs, mine, theirs):
            return ": " + ", ".join(f"{Path(r['program']).stem} ({mine(r):,} vs {theirs(r):,})" for r in rs) if rs else ""
        nid_of = lambda r: r["peers"]["nidhugg"]  # noqa: E731
        out.append(f"- The same {compared} programs, like with like: distaff `dpor`'s complete runs (`[N full]` in "
                   "the tables: not pruned, that is not ended sleep-set blocked or with a thread parked after a "
                   "failed round) against Nidhugg's traces, more on "
                   f"**{len(over_full)}**" + named(over_full, lambda r: r["distaff"][dpor].get("full_max", 0),
                                                    lambda r: nid_of(r)["count"])
                   + f"; all its runs against Nidhugg's traces and blocked traces together, more on "
                   f"**{len(over_all)}**" + named(over_all, lambda r: r["distaff"][dpor]["runs_max"],
                                                   lambda r: nid_of(r)["count"] + nid_of(r).get("blocked", 0)) + ".")
    if walls:
        out.append(f"- Wall time of distaff `{default}` / Nidhugg's, over the {len(walls)} programs both decide "
                   f"(holds or violated, whether right or not) that read no input: median "
                   f"**{statistics.median(walls):.2f}** (from {min(walls):.2f} to {max(walls):.2f})"
                   + (f"; with the {len(walls_fixed)} that read inputs, median "
                      f"{statistics.median(walls + walls_fixed):.2f}" if walls_fixed else "") + ".")
    tools = [f"distaff {m}" for m in modes] + ["Nidhugg", "GenMC"]
    n_decided, n_right = dict.fromkeys(tools, 0), dict.fromkeys(tools, 0)
    for row in rows:
        for who, a in verdicts(row, modes).items():
            n_decided[who] += 1
            n_right[who] += a == row["expected"]
    out.append("- Decided (holds or violated) / of those, the header's verdict: "
               + "; ".join(f"{t} {n_decided[t]} / {n_right[t]}" for t in tools) + f" (of {len(rows)} programs).")
    if disagreements:
        out.append(f"- Verdicts that disagree ({len(disagreements)} programs; `inputs fixed`: the peer did not "
                   "explore the program's inputs):")
        for row, answers in disagreements:
            out.append(f"  - {Path(row['program']).stem} (expected {row['expected']}): "
                       + ", ".join(f"{k} {v}" for k, v in answers.items()) + notes_of(row, short=True))
    else:
        out.append("- Verdicts that disagree: none.")
    wrong = [(row, who, a) for row in rows for who, a in verdicts(row, modes).items()
             if row["expected"] in ("holds", "violated") and a != row["expected"]]
    out.append("- Decided answers that are not the header's verdict: "
               + ("; ".join(f"{Path(r['program']).stem}: {who} {a}" for r, who, a in wrong) or "none") + ".")
    out.append("")
    # tables
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row["group"], []).append(row)
    for group, rs in groups.items():
        out += [f"## {group}", "",
                "| program | expected | " + " | ".join(f"distaff {m}" for m in modes)
                + " | Nidhugg | GenMC | dpor / Nidhugg | " + f"{default} / GenMC | notes |",
                "|---|---|" + "---|" * len(modes) + "---|---|---:|---:|---|"]
        for row in rs:
            nid, gen = row["peers"]["nidhugg"], row["peers"]["genmc"]
            d_dpor = row["distaff"].get(dpor) if dpor else None
            d_def = row["distaff"][default]
            r1 = ratio(d_dpor["runs_max"], nid.get("count")) if d_dpor and complete(d_dpor) and peer_complete(nid) \
                else "-"
            r2 = ratio(d_def["runs_max"], gen.get("count")) if complete(d_def) and peer_complete(gen) else "-"
            out.append(f"| {Path(row['program']).stem} | {row['expected']} | "
                       + " | ".join(distaff_cell(row["distaff"][m], row["expected"]) for m in modes)
                       + f" | {peer_cell(nid, row['expected'])} | {peer_cell(gen, row['expected'])} | {r1} | {r2} | "
                       + notes_of(row).lstrip("; ") + " |")
        out.append("")
    out += ["Ratios compare complete counts only: distaff's every assertion holds, the peer's exploration "
            "finished with no error (`-` otherwise).", ""]
    # per assertion
    out += ["## Runs per assertion", "",
            "Each assertion's status and runs in " + ", ".join(f"`{m}`" for m in modes)
            + " (programs with more than one assertion).", ""]
    for row in rows:
        per: dict = {}
        for mode in modes:
            for a in row["distaff"][mode].get("assertions", []):
                per.setdefault(a["id"], []).append(f"{a['status']}{' (bounded)' if a['bounded'] else ''} {a['runs']:,}")
        if len(per) > 1:
            out.append(f"- {Path(row['program']).stem}: " + "; ".join(f"`{k}` " + " / ".join(v) for k, v in per.items()))
    return "\n".join(out) + "\n"


def decided(r: dict) -> bool:
    """A distaff answer that is a verdict: holds (so every assertion decided) or violated (some
    assertion, whatever the others)."""
    return r.get("answer") in ("holds", "violated")


def verdicts(row: dict, modes: list[str]) -> dict[str, str]:
    """Each tool's verdict on the program, where it gave one."""
    out = {f"distaff {m}": row["distaff"][m]["answer"] for m in modes if decided(row["distaff"][m])}
    for who, key in (("Nidhugg", "nidhugg"), ("GenMC", "genmc")):
        a = row["peers"].get(key, {}).get("answer")
        if a in ("holds", "violated"):
            out[who] = a
    return out


def notes_of(row: dict, short: bool = False) -> str:
    parts = []
    for peer, key in (("Nidhugg", "nidhugg"), ("GenMC", "genmc")):
        r = row["peers"].get(key, {})
        bits = list(r.get("tweaks", []))
        if r.get("note"):
            bits.append(r["note"].replace("|", "\\|"))
        if bits and not (short and r.get("answer") not in ("holds", "violated")):
            parts.append(f"{peer}: " + ", ".join(bits))
    for mode, r in row["distaff"].items():
        if r.get("note"):
            parts.append(f"distaff {mode}: {r['note']}".replace("|", "\\|"))
    return ("; " + "; ".join(parts)) if parts else ""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per tool per program")
    ap.add_argument("--modes", default=",".join(MODES), help="distaff's modes, comma-separated")
    ap.add_argument("--programs", nargs="+", default=[], help="files or globs instead of the default groups")
    ap.add_argument("--nidhugg", default=NIDHUGGC, help="nidhuggc ('' to skip)")
    ap.add_argument("--genmc", default=GENMC, help="genmc ('' to skip)")
    ap.add_argument("--nidhugg-unroll", type=int, default=None, help="nidhuggc --unroll=N")
    ap.add_argument("--rev", default=None,
                    help="run distaff as of this git revision (exported and built in a temporary directory) "
                         "instead of this checkout")
    ap.add_argument("--tree", type=Path, default=None,
                    help="run distaff from this checkout (its core built) instead of this one")
    ap.add_argument("--jobs", type=int, default=1, help="programs at once (1: fair timing)")
    ap.add_argument("--no-spurious-wakeups", action="store_true",
                    help="distaff's condition waits return only when signalled, as Nidhugg's do")
    ap.add_argument("--out", default=str(ROOT / "bench/results/peers.md"))
    ap.add_argument("--json", default=None, help="also write every record here")
    ap.add_argument("--uncached", action="store_true",
                    help="run distaff with PYTHONDONTWRITEBYTECODE as set here (every start compiles its sources)")
    args = ap.parse_args(argv)
    global CACHED
    CACHED = not args.uncached
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    args.nidhugg, args.genmc = installed(args.nidhugg), installed(args.genmc)
    versions = {"nidhugg": peer_version("nidhugg", args.nidhugg), "genmc": peer_version("genmc", args.genmc)}
    built = args.rev is not None
    if args.rev:
        args.tree, sha = tree_from_rev(args.rev)
        probe = subprocess.run([sys.executable, "-m", "distaff", "--version"], cwd=args.tree, capture_output=True,
                               text=True, env={**os.environ, "PYTHONPATH": str(args.tree)})
        tree_label = f"{sha} ({probe.stdout.strip()})"
    elif args.tree:
        args.tree = args.tree.resolve()
        probe = subprocess.run([sys.executable, "-m", "distaff", "--version"], cwd=args.tree, capture_output=True,
                               text=True, env={**os.environ, "PYTHONPATH": str(args.tree)})
        tree_label = f"the checkout {args.tree} ({probe.stdout.strip()})"
    else:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
        probe = subprocess.run([sys.executable, "-m", "distaff", "--version"], cwd=ROOT, capture_output=True, text=True)
        tree_label = f"this checkout, {head} with any uncommitted changes ({probe.stdout.strip()})"
    progs = programs(args.programs)
    warm_up(args.tree)
    wall = time.monotonic()
    rows: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="peers-") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(measure, g, p, args, Path(tmp)) for g, p in progs]
            for fut in futures:  # in order: the output is the same whatever --jobs
                row = fut.result()
                rows.append(row)
                d = row["distaff"]
                print(f"{row['program']}: expected {row['expected']}; "
                      + "; ".join(f"{m} {d[m].get('runs_max', '-')} runs {d[m]['wall_s']} s {d[m]['answer']}"
                                  for m in args.modes)
                      + "; " + "; ".join(f"{k} {v.get('count', '-')} {v.get('wall_s', '-')} s {v['answer']}"
                                         for k, v in row["peers"].items()), flush=True)
    if built:
        shutil.rmtree(args.tree.parent, ignore_errors=True)
    took = time.monotonic() - wall
    text = report(rows, args, argv, took, versions, tree_label)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    print(text.split("## table2")[0] if "## table2" in text else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
