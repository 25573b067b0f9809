"""The C front end: text of a translation unit to an :class:`ir.Program`.

``parse_program`` = preprocess -> tree-sitter parse -> lower -> escape
analysis. It never raises on any input: syntax errors and C outside what
distaff covers become findings with source ranges, and the rest of the file
is still lowered.
"""

from __future__ import annotations

from analysis.ir import DataModel, Finding, FindingKind, Program, Span


def parse_program(
    text: str,
    path: str = "<buffer>",
    *,
    data_model: DataModel = DataModel.LP64,
    read_include=None,
) -> Program:
    """Lower C source ``text`` (an unsaved buffer or a file's contents) named
    ``path``. ``read_include(name, from_path) -> str | None`` reads local
    ``#include "name"`` files (None: not read)."""
    from analysis.frontend.lower import lower_unit
    from analysis.frontend.parse import parse
    from analysis.frontend.preprocess import preprocess
    from analysis.static.escape import classify

    try:
        pre = preprocess(text, path, data_model=data_model, read_include=read_include)
        tree = parse(pre.text.encode("utf-8", "surrogatepass"))
        program = lower_unit(tree.root_node, pre, path, data_model)
    except Exception as e:  # noqa: BLE001 - the last line of defence
        span = Span(path, 1, 1, 1, 1)
        return Program(path, data_model, (), (), (), (Finding(FindingKind.UNSUPPORTED, f"internal: {type(e).__name__}: {e}", span),))
    try:
        return classify(program)
    except Exception as e:  # noqa: BLE001
        return Program(
            program.path, program.data_model, program.globals, program.functions, program.threads,
            program.findings + (Finding(FindingKind.UNSUPPORTED, f"internal (escape analysis): {e}", Span(path, 1, 1, 1, 1)),),
            program.externals, program.entry,
        )


__all__ = ["parse_program"]
