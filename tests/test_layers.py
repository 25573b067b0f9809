"""The import graph of analysis/ and server/ has no cycles.

Every import of our own modules counts, wherever it is written (a function-level
import hides a cycle from the start-up order; it does not remove it), except those
under ``if TYPE_CHECKING:``, which never run. Units are the sub-packages of
``distaff.analysis`` (``distaff.analysis.symex``, ...), its top-level modules
(``distaff.analysis.check``, ...) and ``distaff.server``; within a unit, modules may
not import each other in a circle either. Nothing imports ``analysis`` or ``server``
by those names: installed, they exist only inside ``distaff``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = ("analysis", "server")


def _module_name(path: Path) -> str:
    """The installed name: analysis/symex/engine.py is distaff.analysis.symex.engine."""
    parts = ["distaff", *path.relative_to(ROOT).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for top in OURS for p in sorted((ROOT / top).rglob("*.py"))}


def _runtime_imports(tree: ast.AST):
    """(node, imported names) of every import outside ``if TYPE_CHECKING:``."""
    def walk(node):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            for child in node.orelse:
                yield from walk(child)
            return
        if isinstance(node, ast.Import):
            yield node, [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node, [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for child in ast.iter_child_nodes(node):
            yield from walk(child)
    yield from walk(tree)


def _graph():
    """Module -> the modules of ours it imports, and the function-level imports seen."""
    modules = _modules()
    edges: dict[str, set[str]] = {m: set() for m in modules}
    nested = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(n) for n in tree.body}
        for node, targets in _runtime_imports(tree):
            found = {t for t in targets if t in modules and t != name}
            if not found:
                continue
            # "from distaff.analysis.symex import sync" names the module distaff.analysis.symex.sync
            edges[name] |= {t for t in found if not any(o.startswith(t + ".") for o in found)}
            if id(node) not in top and not all((name, t) in LAZY for t in found):
                nested.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return edges, nested


def _unit(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[1] == "analysis" and len(parts) > 2 else ".".join(parts[:2])


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """Some cycle of ``edges`` (its nodes in order), or None."""
    colour: dict[str, int] = {}
    path: list[str] = []

    def visit(n):
        colour[n] = 1
        path.append(n)
        for m in sorted(edges.get(n, ())):
            if colour.get(m) == 1:
                return path[path.index(m):] + [m]
            if m not in colour and (found := visit(m)):
                return found
        colour[n] = 2
        path.pop()
        return None

    for n in sorted(edges):
        if n not in colour and (found := visit(n)):
            return found
    return None


def test_the_units_import_each_other_without_a_cycle():
    edges, _ = _graph()
    units: dict[str, set[str]] = {}
    for m, targets in edges.items():
        units.setdefault(_unit(m), set()).update(_unit(t) for t in targets if _unit(t) != _unit(m))
    assert _cycle(units) is None, " -> ".join(_cycle(units))


def test_no_module_of_ours_imports_itself_through_others():
    edges, _ = _graph()
    assert _cycle(edges) is None, " -> ".join(_cycle(edges))


# Function-level imports allowed, each for what it keeps out of a small check's
# start (the context's analyses are a third of the command line's imports):
# the module imported, and the module that imports it so. They still count in
# the graph above.
LAZY = {
    ("distaff.analysis.subcheck", "distaff.analysis.context.initial"),  # only a check from a context
    ("distaff.analysis.subcheck", "distaff.analysis.summaries.guided"),  # only a guided exploration (plain_first)
    ("distaff.server.cli", "distaff.analysis.replay"),  # only --replay
    ("distaff.server.api", "distaff.analysis.playback"),  # only a reproducer
}


def test_our_modules_are_imported_at_the_top_of_a_module():
    _, nested = _graph()
    assert nested == []


def test_the_check_sits_above_the_engine_and_the_engine_below_the_reductions():
    # the layering the rest of the code relies on, stated once
    edges, _ = _graph()
    reach: dict[str, set[str]] = {}

    def below(u):
        if u not in reach:
            reach[u] = set()
            for m, targets in edges.items():
                if _unit(m) == u:
                    for t in targets:
                        if _unit(t) != u:
                            reach[u] |= {_unit(t)} | below(_unit(t))
        return reach[u]

    a = "distaff.analysis."
    assert a + "symex" in below(a + "explore")
    assert not below(a + "symex") & {a + "explore", a + "summaries", a + "context", a + "check", "distaff.server"}
    assert not below(a + "explore") & {a + "summaries", a + "context", a + "check"}
    assert "distaff.server" not in below(a + "check")


def test_our_modules_are_imported_by_their_installed_names():
    bare = []
    for name, path in _modules().items():
        for node, targets in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if any(t.split(".")[0] in OURS for t in targets):
                bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert bare == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None

