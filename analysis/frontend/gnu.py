"""How GNU C that tree-sitter-c 0.24 cannot parse reaches the lowering.

tree-sitter-c reads ``typeof`` only around a type name, the second argument
of ``offsetof`` only as one field name, ``__builtin_types_compatible_p`` only
with expressions as arguments, and a case range (``case 1 ... 5:``) not at
all. The preprocessor rewrites these to C it parses, in names no program
uses (they start with ``__distaff_``), and the lowering gives them their GNU
meaning:

* ``typeof(X)`` (and ``__typeof__``, ``__typeof``, ``typeof_unqual`` ...) is
  ``struct __distaff_typeof { char __distaff_e[sizeof(X)]; }``: a type
  specifier wherever ``typeof`` may stand, holding ``X`` as the operand of a
  ``sizeof``, which may be a type or an expression. The lowering takes the
  type of that operand and defines no struct (:data:`TYPEOF_TAG`).
* ``offsetof(T, M)`` and ``__builtin_offsetof(T, M)`` are
  ``__distaff_offsetof(sizeof(T), M)``: ``M``, a member designator such as
  ``a.b[2]``, is an expression there (:data:`OFFSETOF`).
* ``__builtin_types_compatible_p(A, B)`` is
  ``__distaff_types_compatible(sizeof(A), sizeof(B))`` (:data:`TYPES_COMPATIBLE`).
* ``case A ... B:`` is ``case __distaff_case_range(A, B):``
  (:data:`CASE_RANGE`), rewritten after preprocessing
  (:mod:`distaff.analysis.frontend.pp_rewrite`), since ``...`` is no macro.

A ``#define`` of the program's own for one of these names replaces the
built-in one, as it replaces any predefined macro.
"""

from __future__ import annotations

TYPEOF_TAG = "__distaff_typeof"
OFFSETOF = "__distaff_offsetof"
TYPES_COMPATIBLE = "__distaff_types_compatible"
CASE_RANGE = "__distaff_case_range"

_TYPEOF_BODY = f"struct {TYPEOF_TAG} {{ char __distaff_e[sizeof(__VA_ARGS__)]; }}"
TYPEOF_SPELLINGS = ("typeof", "__typeof__", "__typeof", "typeof_unqual", "__typeof_unqual__", "__typeof_unqual")

# predefined macros, one "NAME(PARAMS) BODY" a line, as pp_builtins writes them
MACROS = "\n".join(
    [f"{name}(...) {_TYPEOF_BODY}" for name in TYPEOF_SPELLINGS]
    + [
        f"__builtin_offsetof(t, m) {OFFSETOF}(sizeof(t), m)",
        f"offsetof(t, m) {OFFSETOF}(sizeof(t), m)",
        f"__builtin_types_compatible_p(a, b) {TYPES_COMPATIBLE}(sizeof(a), sizeof(b))",
    ]
)


def _closing(text: str, start: int) -> int:
    """The index of the parenthesis closing the one at ``start``."""
    depth = 0
    for k in range(start, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return -1


def _sizeof_operand(text: str, at: int) -> tuple[str, int] | None:
    """``X`` of the ``sizeof ( X )`` starting at ``at``, and the index after it."""
    if not text.startswith("sizeof", at):
        return None
    open_ = text.find("(", at)
    close = _closing(text, open_)
    return (text[open_ + 1:close].strip(), close + 1) if open_ >= 0 and close >= 0 else None


# what the preprocessor writes for ``_Complex`` and ``__complex__``, which
# tree-sitter-c does not parse: clang's ``_Nonnull``, the one qualifier it
# parses wherever C allows ``_Complex`` and programs for gcc do not write;
# type lowering reads it as complex
COMPLEX_MARK = "_Nonnull"


def readable(text: str) -> str:
    """Condition text as the program wrote it where a rewrite above stands in
    it (``typeof(x)``, ``offsetof(T, m)`` ..., and ``_Complex`` for
    :data:`COMPLEX_MARK`), for messages; other text as it is."""
    text = text.replace(COMPLEX_MARK, "_Complex")
    if "__distaff_" not in text:
        return text
    typeof_head = f"struct {TYPEOF_TAG} {{ char __distaff_e ["
    for _ in range(text.count("__distaff_")):
        k = text.find(typeof_head)
        if k >= 0:
            got = _sizeof_operand(text, k + len(typeof_head) + 1)
            end = text.find("}", got[1]) if got is not None else -1
            if end < 0:
                return text
            text = f"{text[:k]}typeof({got[0]}){text[end + 1:]}"
            continue
        for name, shown in ((OFFSETOF, "offsetof"), (TYPES_COMPATIBLE, "__builtin_types_compatible_p")):
            k = text.find(name)
            if k < 0:
                continue
            open_ = text.find("(", k)
            close = _closing(text, open_)
            at = open_ + 1
            while at < len(text) and text[at] == " ":
                at += 1
            first = _sizeof_operand(text, at)
            if close < 0 or first is None:
                return text
            rest = text[first[1]:close].strip().removeprefix(",").strip()
            second = _sizeof_operand(rest, 0) if name == TYPES_COMPATIBLE else None
            other = second[0] if second is not None else rest
            text = f"{text[:k]}{shown}({first[0]}, {other}){text[close + 1:]}"
            break
    return text
