"""The branches that decide whether an error call runs.

An ``assert(c)`` is executed when ``c`` is evaluated, whatever the outcome;
an error call (``if (!c) reach_error();``) runs only when it fails, so
"a run executed it" needs another meaning: a run executed it when it took a
branch that decides whether the call runs (``!c``). Those are the *guards*:
the branches the call is control dependent on in its function; when it
depends on none there (a function that calls ``reach_error()``
unconditionally), the guards of that function's call sites, transitively.
A check that stopped threads at the unwind bound tells "no violation within
the bound" (a guard was evaluated) from "not reached within the bound" (none
was) by them.
"""

from __future__ import annotations

from distaff.analysis import ir
from distaff.analysis.static.cfg import control_dependences


def guards(program: ir.Program, site: ir.AssertionSite) -> dict[str, frozenset[int]]:
    """Function name -> pcs of the branches that guard ``site`` (see the
    module docstring); empty when nothing decides whether it runs."""
    deps: dict[str, tuple[tuple[int, ...], ...]] = {}
    out: dict[str, set[int]] = {}
    seen = {(site.func, site.pc)}
    work = [(site.func, site.pc)]
    while work:
        name, pc = work.pop()
        func = program.function(name)
        if func is None:
            continue
        if name not in deps:
            deps[name] = control_dependences(func)
        branches = [b for b in deps[name][pc] if isinstance(func.body[b], ir.Branch)]
        if branches:
            out.setdefault(name, set()).update(branches)
            continue
        for caller in program.functions:  # decided where the function is called
            for cpc, i in enumerate(caller.body):
                if (isinstance(i, ir.Call) and isinstance(i.callee, ir.Addr) and i.callee.name == name
                        and (caller.name, cpc) not in seen):
                    seen.add((caller.name, cpc))
                    work.append((caller.name, cpc))
    return {name: frozenset(pcs) for name, pcs in out.items()}


__all__ = ["guards"]
