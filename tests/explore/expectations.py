"""What a test program in tests/programs/ says about itself.

The header comment of a program carries its expectations, one per line:

* ``VERDICT: holds`` / ``violated`` / ``unreachable`` / ``bounded`` (no
  violation within the unwind bound) / ``bound-reached`` (not reached within
  the bound) -- every assertion of the file has that verdict;
* ``VERDICT <line>: <verdict>`` -- the assertion on that line has it;
* ``FINDING: deadlock``, ``FINDING: stuck`` or ``FINDING: error <line> <message start>`` -- a
  finding the check must report (``FINDING: none`` -- none may be reported);
* ``RUNS: baseline=N dpor<=N dpor-ag<=N`` -- runs per assertion in a mode,
  exact (``=``) or an upper bound (``<=``);
* ``UNWIND: N`` -- the unwind bound the expectations hold for (the check's
  default when absent): spin loops are explored to it in every mode.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"


@dataclass
class Expectations:
    path: Path
    verdict: str | None = None
    verdicts: dict[int, str] = field(default_factory=dict)
    findings: list[tuple[str, int | None, str]] = field(default_factory=list)
    no_findings: bool = False
    runs: dict[str, tuple[str, int]] = field(default_factory=dict)
    unwind: int | None = None

    def verdict_at(self, line: int) -> str | None:
        return self.verdicts.get(line, self.verdict)


def read(name: str) -> Expectations:
    path = PROGRAMS / name
    text = path.read_text()
    header = text.split("*/", 1)[0]
    e = Expectations(path)
    for raw in header.splitlines():
        line = raw.strip().lstrip("/*").strip()
        m = re.match(r"VERDICT(?:\s+(\d+))?:\s*([a-z-]+)", line)
        if m:
            if m.group(1):
                e.verdicts[int(m.group(1))] = m.group(2)
            else:
                e.verdict = m.group(2)
            continue
        m = re.match(r"FINDING:\s*(deadlock|stuck|error|none)(?:\s+(\d+))?\s*(.*)", line)
        if m:
            if m.group(1) == "none":
                e.no_findings = True
            else:
                e.findings.append((m.group(1), int(m.group(2)) if m.group(2) else None, m.group(3).strip()))
            continue
        m = re.match(r"UNWIND:\s*(\d+)", line)
        if m:
            e.unwind = int(m.group(1))
            continue
        m = re.match(r"RUNS:\s*(.*)", line)
        if m:
            for mode, rel, n in re.findall(r"([a-z-]+)\s*(<=|=)\s*(\d+)", m.group(1)):
                e.runs[mode] = (rel, int(n))
    return e
