"""The progress line of ``distaff check``: on a terminal (a tmux pane, read
while the check runs) it shows the file, assertions decided of all, runs and
elapsed time, and is gone before the results are printed; with stderr piped
nothing of it is written."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from distaff.analysis.ir import Span
from distaff.analysis.report import AssertionResult, Stats, Status
from distaff.server import cli

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = "tests/programs/limits/three_timeouts.c"  # three checks of 1.5 s each with the flags below
FLAGS = ["--assertion-timeout", "1.5", "--no-findings"]
LINE = re.compile(r"distaff: checking " + re.escape(PROGRAM) + r": ([0-3])/3 assertions(, (\d+) runs?)?, 00:0\d")


def tmux_or_skip() -> str:
    tmux = shutil.which("tmux")
    if tmux is None:
        if os.environ.get("CI"):
            pytest.fail("tmux is missing on CI (editors/ci-setup.sh installs it)")
        pytest.skip("tmux is not installed: the progress line needs a terminal (apt-get install tmux)")
    return tmux


class FakeTerminal:
    def __init__(self, tty):
        self.tty, self.written = tty, []

    def isatty(self):
        return self.tty

    def write(self, s):
        self.written.append(s)

    def flush(self):
        pass


def decided(runs: int) -> AssertionResult:
    return AssertionResult("a", Span("prog.c", 1, 1, 1, 2), "x", Status.HOLDS, stats=Stats(runs=runs))


def test_progress_draws_only_on_a_terminal_and_clears_its_line():
    for tty in (False, True):
        term = FakeTerminal(tty)
        with cli.Progress(term, delay=0.0, interval=0.01) as progress:
            progress.start_file("prog.c", 3)
            progress.decided(decided(5))
            progress.decided(decided(7))
            time.sleep(0.2)
        if not tty:
            assert term.written == []
        else:
            text = "".join(term.written)
            assert "distaff: checking prog.c: 2/3 assertions, 12 runs, 00:00" in text
            assert text.endswith("\r") and text.rstrip("\r").endswith(" ")  # the line blanked, cursor at its start


def test_on_a_terminal_the_progress_line_shows_while_checking_and_leaves_the_results_clean(tmp_path):
    tmux = tmux_or_skip()
    socket = f"distaff-progress-{os.getpid()}"  # a server of its own, never the user's
    base = [tmux, "-L", socket, "-f", os.devnull]
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "distaff", "check", *FLAGS, PROGRAM])
    script = f"cd {shlex.quote(str(ROOT))} && {command}; echo \"exit status $?\"; sleep 120"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("TMUX", None)
    subprocess.run([*base, "new-session", "-d", "-s", "check", "-x", "150", "-y", "20", script],
                   check=True, env=env, timeout=30)
    panes = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            pane = subprocess.run([*base, "capture-pane", "-p", "-t", "check"], capture_output=True, text=True,
                                  timeout=30).stdout
            panes.append(pane)
            if "exit status" in pane:
                break
            time.sleep(0.1)
    finally:
        subprocess.run([*base, "kill-server"], capture_output=True, timeout=30)
    final = panes[-1]
    assert "exit status 3" in final, final
    shown = [m for pane in panes for m in LINE.finditer(pane)]
    assert shown, "no progress line in any of %d captures:\n%s" % (len(panes), panes[len(panes) // 2])
    assert any(m[1] in "12" and m[3] for m in shown), [m[0] for m in shown]  # some decided, with their runs
    lines = [line for line in final.splitlines() if line.strip()]
    assert len(lines) == 5, final
    assert all(line.startswith(f"{PROGRAM}:2") for line in lines[:3]), final
    assert lines[3].startswith(f"{PROGRAM}: 3 assertions: 3 unknown;") and lines[4] == "exit status 3", final


def test_with_stderr_piped_nothing_of_the_progress_line_is_written():
    p = subprocess.run([sys.executable, "-m", "distaff", "check", *FLAGS, PROGRAM], cwd=ROOT,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=120)
    assert p.returncode == 3, p.stdout + p.stderr
    assert p.stderr == ""
    assert "\r" not in p.stdout and "\x1b" not in p.stdout and "checking" not in p.stdout
    assert p.stdout.count("undecided (timeout after 1.5 s)") == 3
