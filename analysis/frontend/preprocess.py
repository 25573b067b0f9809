"""Placeholder: the preprocessor is being written (see issue 2). Contract:

preprocess(text, path, *, data_model=DataModel.LP64, read_include=None, defines=None)
    -> Preprocessed(text: str, findings: tuple[ir.Finding, ...], position(row, byte_col) -> (file, line, col))
"""
from __future__ import annotations

from dataclasses import dataclass

from analysis.ir import DataModel, Finding


@dataclass(frozen=True)
class Preprocessed:
    text: str
    path: str
    findings: tuple[Finding, ...] = ()

    def position(self, row: int, byte_col: int) -> tuple[str, int, int]:
        """Map a 0-based tree-sitter point (row, byte column) of ``text`` to a
        1-based (file, line, column) in the original sources."""
        line = self.text.split("\n")[row] if row < self.text.count("\n") + 1 else ""
        col = len(line.encode()[:byte_col].decode(errors="ignore"))
        return self.path, row + 1, col + 1


def preprocess(text, path, *, data_model=DataModel.LP64, read_include=None, defines=None):
    return Preprocessed(text, path)
