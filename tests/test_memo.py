"""One policy for what is memoised per program object (distaff.analysis.memo)."""

from __future__ import annotations

from distaff.analysis.memo import ProgramMemo


def test_the_program_memo_keeps_the_last_entries_for_the_very_object():
    class P:  # programs are compared by identity, never by value
        pass

    memo, a, b, c = ProgramMemo(keep=2), P(), P(), P()
    memo.put(a, "A")
    memo.put(b, "B", key="k")
    assert memo.get(b) is None and memo.get(b, "k") == "B" and memo.get(a) == "A"
    memo.put(c, "C")  # a was used last: b goes
    assert memo.get(b, "k") is None and memo.get(a) == "A" and memo.get(c) == "C" and len(memo) == 2
