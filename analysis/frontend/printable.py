"""Source text made safe to show: what the front end quotes from the buffer in
a message (a syntax error's unexpected text, an asserted expression, an
``#error`` line) goes to terminals, editors and JSON, where a raw control
byte could move the cursor, recolour the screen or end a line early."""

from __future__ import annotations

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\"}


def printable(text: str) -> str:
    """``text`` with every character that is not printable (C0/C1 controls,
    DEL, Unicode format and separator characters other than a space, lone
    surrogates) written as a C-style escape: ``\\t``, ``\\x1b``, ``\\u202e``.
    Printable text, including non-ASCII letters, is returned unchanged, and a
    backslash is doubled only when something else had to be escaped, so
    ordinary C text quotes as written."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable() and ch != "\\":
            out.append(ch)
        elif ch in _NAMED:
            out.append(_NAMED[ch])
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return "".join(out)
