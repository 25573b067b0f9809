"""Rewrites of preprocessed text that no macro can make, keeping the map to
the sources: GNU case ranges (``case 1 ... 5:``), which tree-sitter-c does
not parse, become ``case __distaff_case_range(1, 5):`` (see
:mod:`distaff.analysis.frontend.gnu`).

An edit replaces a range of an output row. Text after it keeps mapping to
where it came from; the replacement maps, as a macro expansion does, to the
source point where the replaced text started (and its end to where that text
ended).
"""

from __future__ import annotations

import dataclasses

from distaff.analysis.frontend.gnu import CASE_RANGE
from distaff.analysis.frontend.pp_positions import Preprocessed
from distaff.analysis.frontend.pp_tokens import _BLANK, _TOKEN

# tokens that end the search for the parts of a case label
_STOP = frozenset({";", "{", "}"})


def rewrite(pre: Preprocessed) -> Preprocessed:
    """``pre`` with its case ranges rewritten (``pre`` itself when it has none)."""
    text = pre.text
    if "..." not in text or "case" not in text or not pre._rows:
        return pre
    edits = case_range_edits(text)
    return apply(pre, edits) if edits else pre


def case_range_edits(text: str) -> list[tuple[int, int, str]]:
    """Edits ``(start, end, replacement)`` (character offsets in ``text``)
    that turn each ``case A ... B:`` into ``case __distaff_case_range(A, B):``."""
    toks = [(m.group(m.lastgroup), m.start(m.lastgroup)) for m in _TOKEN.finditer(text)
            if m.lastgroup not in _BLANK]
    edits: list[tuple[int, int, str]] = []
    for k, (tok, start) in enumerate(toks):
        if tok != "...":
            continue
        case = _case_before(toks, k)
        colon = _colon_after(toks, k)
        if case is None or colon is None:
            continue
        after_case = toks[case][1] + len("case")
        edits += [(after_case, after_case, f" {CASE_RANGE}("), (start, start + 3, ","),
                  (toks[colon][1], toks[colon][1], ")")]
    return edits


def _case_before(toks: list, k: int) -> int | None:
    depth = 0
    for j in range(k - 1, -1, -1):
        tok = toks[j][0]
        if tok in (")", "]"):
            depth += 1
        elif tok in ("(", "["):
            if depth == 0:
                return None
            depth -= 1
        elif depth == 0 and (tok in _STOP or tok == ":" or tok == "..."):
            return None
        elif depth == 0 and tok == "case":
            return j
    return None


def _colon_after(toks: list, k: int) -> int | None:
    depth = conditional = 0
    for j in range(k + 1, len(toks)):
        tok = toks[j][0]
        if tok in ("(", "["):
            depth += 1
        elif tok in (")", "]"):
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and (tok in _STOP or tok == "..."):
            return None
        elif depth == 0 and tok == "?":
            conditional += 1
        elif depth == 0 and tok == ":":
            if not conditional:
                return j
            conditional -= 1
    return None


def apply(pre: Preprocessed, edits: list[tuple[int, int, str]]) -> Preprocessed:
    """``pre`` with ``edits`` (non-overlapping, each within one row) made."""
    lines = list(pre._lines) if pre._lines else pre.text.split("\n")
    rows = list(pre._rows)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    by_row: dict[int, list[tuple[int, int, str]]] = {}
    for start, end, new in sorted(edits):
        row = _row_of(starts, start)
        by_row.setdefault(row, []).append((start - starts[row], end - starts[row], new))
    for row, row_edits in by_row.items():
        lines[row], mapping = _edit_row(pre, row, lines[row], row_edits)
        if rows:
            file_index, _, _ = rows[row]
            rows[row] = (file_index, mapping, lines[row].isascii())
    return dataclasses.replace(pre, text="\n".join(lines), _rows=tuple(rows), _lines=tuple(lines))


def _row_of(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _bytes(line: str, chars: int) -> int:
    return len(line[:chars].encode("utf-8", "surrogatepass"))


def _edit_row(pre: Preprocessed, row: int, line: str, edits: list[tuple[int, int, str]]):
    """The edited row's text and its map: (offsets, segments) as
    :class:`Preprocessed` keeps them."""
    offsets: list[int] = []
    segments: list[tuple[int, int, bool]] = []

    def add(new_offset: int, old_byte: int, verbatim: bool | None = None) -> None:
        """A segment starting at ``new_offset`` that stands for the source
        point of old byte ``old_byte`` (verbatim when the old text there was)."""
        _, src_line, src_col = pre.position(row, old_byte)
        if verbatim is None:
            verbatim = _verbatim_at(pre, row, old_byte)
        if offsets and offsets[-1] == new_offset:
            segments[-1] = (src_line, src_col, verbatim)
            return
        offsets.append(new_offset)
        segments.append((src_line, src_col, verbatim))

    out: list[str] = []
    size = 0  # bytes of the new row so far
    done = 0  # characters of the old row consumed
    for start, end, new in edits:
        kept = line[done:start]
        if kept:
            _copy_segments(pre, row, line, done, start, size, add)
        out.append(kept)
        size += _bytes(kept, len(kept))
        add(size, _bytes(line, start), False)
        out.append(new)
        size += _bytes(new, len(new))
        done = end
    if done < len(line) or not offsets:
        _copy_segments(pre, row, line, done, len(line), size, add)
    out.append(line[done:])
    return "".join(out), (tuple(offsets), tuple(segments))


def _copy_segments(pre: Preprocessed, row: int, line: str, start: int, end: int, at: int, add) -> None:
    """Map characters ``start:end`` of the old row, copied to new byte ``at``
    on: a segment where they start and at each old segment boundary inside."""
    first, last = _bytes(line, start), _bytes(line, end)
    add(at, first)
    mapping = pre._rows[row][1] if pre._rows else row + 1
    if type(mapping) is int:
        return
    for off in mapping[0]:
        if first < off < last:
            add(at + off - first, off)


def _verbatim_at(pre: Preprocessed, row: int, byte: int) -> bool:
    if not pre._rows:
        return True
    mapping = pre._rows[row][1]
    if type(mapping) is int:
        return True
    offsets, segments = mapping
    i = max(k for k, off in enumerate(offsets) if off <= byte)
    return segments[i][2]
