"""Litmus tests: distaff's execution counts beside GenMC's, under RC11 and SC.

    python bench/litmus_bench.py [--genmc /work/peers/genmc/genmc] [--out bench/results/litmus.md]

Every litmus test of ``tests/c11/test_litmus.py`` (with the count worked
out by hand) is written as C (``tests/c11/litmus.py``'s ``c_text``) and
counted by ``distaff check --count-executions`` (in process) and by GenMC
(``--rc11`` / ``--sc``, race detection off: the tests race on nothing),
when GenMC is installed; distaff's runs and time beside them. A row whose
counts differ is marked. Not a test: GenMC is a measuring instrument the
repository does not need.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GENMC = os.environ.get("GENMC", "/work/peers/genmc/genmc")


def genmc_count(genmc: str, path: Path, model: str) -> tuple[int | None, float, str]:
    t0 = time.monotonic()
    try:
        run = subprocess.run([genmc, f"--{model}", "--disable-race-detection", "--disable-estimation", str(path)],
                             capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, time.monotonic() - t0, type(e).__name__
    m = re.search(r"Number of complete executions explored: (\d+)", run.stdout + run.stderr)
    return (int(m.group(1)) if m else None), time.monotonic() - t0, "" if m else (run.stdout + run.stderr)[-300:]


def main(argv: list[str] | None = None) -> int:
    from distaff.analysis.executions import count_executions
    from distaff.analysis.frontend import parse_program
    from distaff.analysis.options import Options
    from tests.c11.litmus import c_text
    from tests.c11.test_litmus import LITMUS

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--genmc", default=GENMC)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    have_genmc = os.access(args.genmc, os.X_OK)
    tmp = Path(tempfile.mkdtemp(prefix="distaff-litmus-"))
    rows, differ = [], 0
    for name, (test, rc11, sc) in LITMUS.items():
        path = tmp / (re.sub(r"\W", "_", name) + ".c")
        path.write_text(c_text(test))
        program = parse_program(path.read_text(), str(path))
        cells = [name]
        for model, hand in (("rc11", rc11), ("sc", sc)):
            t0 = time.monotonic()
            got = count_executions(program, Options(memory_model=model))
            took = time.monotonic() - t0
            peer, peer_s, why = genmc_count(args.genmc, path, model) if have_genmc else (None, 0.0, "not installed")
            mark = "" if got.executions == hand and (peer is None or peer == hand) else " **differs**"
            differ += bool(mark)
            cells += [str(hand), f"{got.executions}{mark}", f"{got.stats.runs}", f"{took:.2f}",
                      str(peer) if peer is not None else "–", f"{peer_s:.2f}" if peer is not None else "–"]
        rows.append("| " + " | ".join(cells) + " |")
    head = [
        f"## {time.strftime('%Y-%m-%d')}: {len(rows)} litmus tests",
        "",
        f"`python bench/litmus_bench.py` on {platform.machine()} {platform.system()}; GenMC: "
        f"{args.genmc if have_genmc else 'not installed'}. Counts: executions (GenMC: complete executions "
        "explored); runs and seconds are distaff's (in process, after the imports).",
        "",
        "| test | RC11 by hand | distaff | runs | s | GenMC | s | SC by hand | distaff | runs | s | GenMC | s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    text = "\n".join(head + rows + ["", f"Rows that differ: {differ}.", ""])
    print(text)
    if args.out:
        with open(args.out, "a") as f:
            f.write(text + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
