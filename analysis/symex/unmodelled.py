"""What a run's outcome depends on that the program text does not fix.

A run that ends in a violation, a run-time error or a deadlock is a real
execution only as far as the values it used are real. Values that stand for a
body-less function (its result, or what it wrote through a pointer) are fresh
symbols whose ``origin`` names the function (:class:`~distaff.analysis.symex.state.Symbol`,
``MemObject.havoc``); effects distaff knows it skipped are in ``State.taint``.

A run that went through C distaff does not cover (the front end's
UNSUPPORTED findings: a construct marked in a function body when it runs,
one outside every function from the start) is tainted with it, as
:func:`unsupported_here` names it: nothing found on it is vouched for.

A run from a program context ("check from here") also uses values the
context left unknown: their symbols' origin is ``context:`` and what they
stand for. An outcome that depends on one is possible from the context, not
shown to happen in the program.

The outcome depends on such a function when one of its symbols occurs in the
run's path condition: every branch taken, every value fixed and the failing
condition itself are constraints there (a choice the engine made without
adding one holds whatever the symbol's value). A symbol that occurs nowhere in
it could take any value and the run would go the same way.
"""

from __future__ import annotations

from distaff.analysis import ir
from distaff.analysis.symex.state import State, cons_list

# the origin of a symbol a program context made for a value it does not know
# (a shared cell, a count, which creation made a thread): "context:<what>"
CONTEXT = "context:"
# a taint of C the front end does not cover: "unsupported:<message> (line N)"
UNSUPPORTED = "unsupported:"


def unsupported_here(program: ir.Program, span: ir.Span) -> str:
    """The taint of the unsupported construct at ``span`` (the front end's
    finding there names it)."""
    found = next((f for f in program.findings if f.kind is ir.FindingKind.UNSUPPORTED and f.span == span), None)
    return f"{UNSUPPORTED}{found.message if found is not None else 'C distaff does not cover'} (line {span.line})"


def unsupported_everywhere(program: ir.Program) -> tuple[str, ...]:
    """The taints every run of ``program`` starts with: its unsupported
    constructs outside every function (a declaration's approximation, a
    header not read), each run inherits."""
    out = []
    for f in program.findings:
        if f.kind is ir.FindingKind.UNSUPPORTED and not any(
                span_within(f.span, fn.span) for fn in program.functions):
            out.append(f"{UNSUPPORTED}{f.message} (line {f.span.line})")
    return tuple(dict.fromkeys(out))


def span_within(inner: ir.Span, outer: ir.Span) -> bool:
    """Whether ``inner`` lies inside ``outer``."""
    return inner.file == outer.file and ((outer.line, outer.col) <= (inner.line, inner.col)
            and (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col))


def unsupported_on(depends: tuple[str, ...]) -> tuple[str, ...]:
    """What ``depends`` names of the unsupported constructs the run went through."""
    return tuple(d[len(UNSUPPORTED):] for d in depends if d.startswith(UNSUPPORTED))


def depends_on(st: State) -> tuple[str, ...]:
    """The body-less functions (and skipped effects) the path condition of
    ``st`` depends on, in the order the run met them."""
    syms: set[str] = set()
    c = st.pc
    # a context's own assumptions (which instance is which, counts below
    # their bounds) are not something the outcome depends on
    stop = st.ctx.premises if st.ctx is not None else None
    while c is not None and c is not stop:
        syms |= c.syms
        c = c.parent
    out = dict.fromkeys(st.taint)
    if syms:
        for sym in cons_list(st.symbols):
            if sym.origin and sym.name in syms:
                out[sym.origin] = None
        for obj in st.memory.objs.values():
            if obj.havoc and f"{obj.name}@{obj.oid}[]" in syms:  # its contents as an array
                out[obj.havoc] = None
    return tuple(out)


def library_dependences(depends: tuple[str, ...], user_externals: tuple[str, ...]) -> tuple[str, ...]:
    """The entries of ``depends`` that are not the program's own body-less
    functions: C library functions distaff does not model (or effects it skipped)."""
    return tuple(d for d in depends if d not in user_externals and not d.startswith(CONTEXT))


def context_unknowns(depends: tuple[str, ...]) -> tuple[str, ...]:
    """What of the context's unknown values ``depends`` names."""
    return tuple(d[len(CONTEXT):] for d in depends if d.startswith(CONTEXT))


def values_of(names) -> str:
    """"the value of `x`" / "the values of `x`, `y` and `z`"."""
    shown = " and ".join(f"`{n}`" for n in names) if len(names) < 3 else \
        ", ".join(f"`{n}`" for n in names[:-1]) + f" and `{names[-1]}`"
    return f"the value{'' if len(names) == 1 else 's'} of {shown}"


def phrase(names: tuple[str, ...], library: bool) -> str:
    """How a result says what it depends on: "depends on `atoi`, which distaff
    does not model" / "depends on `foo()`, which has no body here" / "goes
    through what distaff does not cover: inline assembly (line 4)"."""
    if library:
        parts = []
        unsupported = unsupported_on(names)
        if unsupported:
            parts.append(f"goes through what distaff does not cover: {'; '.join(unsupported)}")
        names = tuple(n for n in names if not n.startswith(UNSUPPORTED))
        if names:
            shown = " and ".join(f"`{n}`" if n.isidentifier() else n for n in names)
            parts.append(f"depends on {shown}, which distaff does not model")
        return "; ".join(parts)
    unknown = context_unknowns(names)
    own = [n for n in names if not n.startswith(CONTEXT)]
    parts = []
    if unknown:
        parts.append(f"possible from this context: it depends on {values_of(unknown)} here, "
                     "which the context does not know")
    if own:
        shown = " and ".join(f"`{n}()`" for n in own)
        verb = "has" if len(own) == 1 else "have"
        parts.append(f"depends on {shown}, which {verb} no body here")
    return "; ".join(parts)
