"""The C front end: text of a translation unit to an :class:`ir.Program`.

``parse_program`` = preprocess -> tree-sitter parse -> lower -> escape
analysis. It never raises on any input: syntax errors and C outside what
distaff covers become findings with source ranges, and the rest of the file
is still lowered.

Conventions of the programs it makes, beyond what :mod:`distaff.analysis.ir` fixes:

* Registers: C locals and parameters keep their C names (a shadowing local
  gets ``x.1``), temporaries are ``%tN``, unnamed parameters ``%argN``. An
  address-taken parameter is copied on entry to a stack object ``x.addr``.
  A local declared without initialiser gets no instruction: reading it before
  a write reads an unassigned register or uninitialised stack memory.
* A Store's value is a register, a constant or an address, never a compound
  expression (``g = g + 1`` is Load, Assign, Store).
* Constants hold signed values for signed types, non-negative ones for
  unsigned and pointer types.
* A function that runs off its end returns ``None``; ``main`` returns 0.
* Globals without initialiser, ``extern`` ones never defined included, are
  zero. Static locals are globals named ``function.name``; string literals
  are ``.str.N``; compound literals are stack objects (globals at file
  scope) named ``.compound``, ``.compound.1`` ...
* A variable-length array is a register of the element pointer type holding
  the address an ALLOCA (``name="vla"``) returned. Struct assignment copies
  scalar by scalar, or (beyond 32 scalars, or a union) is a MEMCPY named
  ``"struct copy"``.
* Structs and unions passed by value go through memory
  (:mod:`.lower_aggregate`): an argument is copied into a caller's stack
  temporary (``.arg``) whose address is passed, and a parameter of struct
  type is a pointer register to it; a struct result is written through a
  hidden first parameter ``%ret`` to the caller's temporary (``.ret``).
* ``__builtin_unreachable()`` is an ABORT named so: the engine reports a run
  that reaches it as a run-time error. GNU forms tree-sitter cannot parse
  (``typeof`` of an expression, ``offsetof`` of a nested member, case
  ranges ...) are rewritten first (:mod:`.gnu`).
* Values distaff cannot compute are NONDET intrinsics: ``name="float"`` for
  anything floating-point, ``"unsupported"``/``"error"`` next to a finding.
* GCC's ``__sync_*``/``__atomic_*`` builtins and C11's ``atomic_*`` names
  are ATOMIC_BEGIN, their Loads/Stores, ATOMIC_END (:mod:`.lower_atomic`);
  fences emit nothing.
* An intrinsic has a ``dst`` when C uses its value (always for MALLOC,
  CALLOC, ALLOCA, THREAD_SELF). pthreads helpers with no effect to model
  (attribute objects, ``pthread_detach``) emit nothing and give 0.
"""

from __future__ import annotations

import dataclasses

from distaff.analysis.frontend.linkage import Linkage, linkage_of
from distaff.analysis.frontend.lower import lower_unit
from distaff.analysis.frontend.parse import parse
from distaff.analysis.frontend.preprocess import preprocess
from distaff.analysis.frontend.printable import printable
from distaff.analysis.ir import DataModel, Finding, FindingKind, Program, Span
from distaff.analysis.static.escape import classify
from distaff.analysis.static.facts import remember
from distaff.analysis.static.pointsto import points_to


def parse_program(
    text: str,
    path: str = "<buffer>",
    *,
    data_model: DataModel = DataModel.LP64,
    read_include=None,
    flags=None,
) -> Program:
    """Lower C source ``text`` (an unsaved buffer or a file's contents) named
    ``path``, then classify memory accesses with the escape analysis.
    ``read_include(name, from_path) -> str | None`` reads local
    ``#include "name"`` files (None: not read); ``flags`` are the file's
    :class:`~distaff.analysis.frontend.build_flags.BuildFlags` (-I, -D, ...)."""

    return with_escape(lower_source(text, path, data_model=data_model, read_include=read_include, flags=flags))


def with_escape(program: Program) -> Program:
    """``program`` with every memory access classified by the escape
    analysis (the last step of :func:`parse_program`, and of linking several
    units into one program). Never raises: when the analysis fails, every
    access stays GLOBAL and a finding says why."""
    try:
        pts = points_to(program)
        classified = classify(program, pts)
        remember(classified, pts)  # a check of it need not solve points-to again
        return classified
    except Exception as e:  # noqa: BLE001 - unclassified (all GLOBAL) is still sound
        finding = Finding(FindingKind.UNSUPPORTED, f"internal (escape analysis): {e}", _file_span(program.path))
        return dataclasses.replace(program, findings=program.findings + (finding,), _index={})


def lower_source(
    text: str,
    path: str = "<buffer>",
    *,
    data_model: DataModel = DataModel.LP64,
    read_include=None,
    flags=None,
) -> Program:
    """:func:`parse_program` without the escape analysis: every Load and
    Store keeps the front end's conservative GLOBAL kind. Never raises; text
    that is not text (:func:`binary`) is one syntax finding."""

    return translation_unit(text, path, data_model=data_model, read_include=read_include, flags=flags).program


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class TranslationUnit:
    """One C file as a linker sees it: its program as :func:`lower_source`
    makes it (no escape analysis yet: that runs over the linked program) and
    the :class:`~distaff.analysis.frontend.linkage.Linkage` of its file-scope names."""

    path: str
    program: Program
    linkage: Linkage


def translation_unit(
    text: str,
    path: str = "<buffer>",
    *,
    data_model: DataModel = DataModel.LP64,
    read_include=None,
    flags=None,
) -> TranslationUnit:
    """The :class:`TranslationUnit` of C source ``text`` named ``path``
    (arguments as :func:`parse_program`'s). Never raises."""

    if binary(text):
        program = Program(path, data_model, (), (), (), (Finding(FindingKind.SYNTAX, BINARY, _file_span(path)),))
        return TranslationUnit(path, program, Linkage())
    try:
        pre = preprocess(text, path, data_model=data_model, read_include=read_include, flags=flags)
        tree = parse(pre.text.encode("utf-8", "surrogatepass"))
        program = lower_unit(tree.root_node, pre, path, data_model)
    except Exception as e:  # noqa: BLE001 - the last line of defence

        finding = Finding(FindingKind.UNSUPPORTED, printable(f"internal: {type(e).__name__}: {e}"), _file_span(path))
        return TranslationUnit(path, Program(path, data_model, (), (), (), (finding,)), Linkage())
    try:
        linkage = linkage_of(tree.root_node, pre.position)
    except Exception:  # noqa: BLE001 - every name external: linking may then see a duplicate
        linkage = Linkage()
    return TranslationUnit(path, program, linkage)


BINARY = "not C source: the file holds binary data"
_TEXT_CONTROLS = frozenset("\t\n\r\f\v")


def binary(text: str) -> bool:
    """Whether ``text`` (decoded with replacement characters for bytes that
    are not UTF-8) is binary data rather than source: more than a tenth of its
    first 4,096 characters are NULs, other control characters or
    replacements."""
    head = text[:4096]
    odd = sum(1 for c in head if (c < " " and c not in _TEXT_CONTROLS) or c in "\x7f\ufffd")
    return odd * 10 > len(head)


def _file_span(path: str) -> Span:
    return Span(path, 1, 1, 1, 1)


__all__ = [
    "BINARY", "TranslationUnit", "binary", "lower_source", "parse_program", "translation_unit", "with_escape",
]
