"""The IR's classes as constants of the compiled core.

Compiled code finds a name imported from an interpreted module (the IR is
one) in its module's globals at every use, a dictionary lookup, and tests
``isinstance`` with it through Python's generic check; a ``Final`` name of a
compiled module it reads from a C static. So the engine's hot paths test
``type(x) is LOAD`` here rather than ``isinstance(x, Load)``: one pointer
comparison. The IR's classes have no subclasses, so the test is exact.
"""

from __future__ import annotations

from typing import Final

from distaff.analysis import ir

# instructions
ASSIGN: Final = ir.Assign
LOAD: Final = ir.Load
STORE: Final = ir.Store
BRANCH: Final = ir.Branch
JUMP: Final = ir.Jump
CALL: Final = ir.Call
RETURN: Final = ir.Return
INTRINSIC: Final = ir.Intrinsic

# expressions
REG: Final = ir.Reg
CONST: Final = ir.Const
ADDR: Final = ir.Addr
UNARY: Final = ir.Unary
BINARY: Final = ir.Binary
CAST: Final = ir.Cast
PTR_ADD: Final = ir.PtrAdd
PTR_DIFF: Final = ir.PtrDiff
ITE: Final = ir.Ite

# types
VOID_TYPE: Final = ir.VoidType
INT_TYPE: Final = ir.IntType
PTR_TYPE: Final = ir.PtrType

# kinds of objects an address names (members of an enum, read the same way)
FUNCTION_OBJECT: Final = ir.ObjKind.FUNCTION
STACK_OBJECT: Final = ir.ObjKind.STACK
