"""tree-sitter-c parsing of (preprocessed) text, and its syntax errors.

One :class:`tree_sitter.Parser` is made per thread and reused: building it is
the costly part, parsing a buffer is cheap. Text is parsed from memory, so
unsaved editor buffers parse the same way as files.
"""

from __future__ import annotations

import threading

import tree_sitter as ts
import tree_sitter_c as tsc

from distaff.analysis.frontend.printable import printable

LANGUAGE = ts.Language(tsc.language())
_local = threading.local()


class F:
    """Field ids of the C grammar (``node.child_by_field_id(F.left)`` is
    cheaper than looking the field up by name on every call)."""


for _i in range(1, LANGUAGE.field_count + 1):
    _name = LANGUAGE.field_name_for_id(_i)
    if _name:
        setattr(F, _name, _i)


def parser() -> ts.Parser:
    p = getattr(_local, "parser", None)
    if p is None:
        p = _local.parser = ts.Parser(LANGUAGE)
    return p


def parse(source: bytes) -> ts.Tree:
    """The concrete syntax tree of ``source`` (UTF-8 bytes)."""
    return parser().parse(source)


def syntax_errors(root: ts.Node) -> list[tuple[ts.Node, str]]:
    """ERROR and MISSING nodes under ``root``, outermost first, each with a
    message. Subtrees without errors are skipped, so this is cheap on
    well-formed input."""
    out: list[tuple[ts.Node, str]] = []
    if not root.has_error:
        return out
    stack = [root]
    while stack:
        n = stack.pop()
        if n.is_missing:
            out.append((n, f"syntax error: missing '{n.type}'"))
            continue
        if n.is_error:
            text = n.text.decode("utf-8", "replace") if n.text is not None else ""
            first = printable(text.strip().split("\n", 1)[0][:40])
            out.append((n, f"syntax error: unexpected '{first}'" if first else "syntax error"))
            continue
        if n.has_error:
            stack.extend(reversed(n.children))
    return out
