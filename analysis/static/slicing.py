"""The static slice of an assertion (assertion-guided paper, §6.1).

The slice of an assertion is every instruction that may affect whether it is
reached or what its condition evaluates to: the closure of

* control dependence within a function (post-dominators), and across calls:
  an instruction of ``g`` pulls in every call site and thread creation site
  that may run ``g``, which are in turn control dependent on their own
  function's branches;
* data dependence on registers (reaching definitions), across calls (a used
  parameter pulls in the matching argument at every call site, and the
  ``pthread_create`` argument for a routine's first parameter; a used call
  result pulls in the callees' return statements);
* data dependence on memory, via points-to: a read pulls in every write, in
  any function, that may write an overlapping location. For shared locations
  this is the interference dependence between threads; it is also used,
  flow-insensitively, for thread-local memory.

Conservatively, these are in every slice with their own dependences: all
synchronization (``ir.SYNC_OPS``, which includes thread create and join),
ASSUME, EXIT, ABORT, every call, and (unless ``other_assertions=False``) the
other assertions, since a failing assertion ends its run like an abort.

The explorer asks :meth:`Slice.contains` at each branch and global operation:
one outside the slice is a Type A or Type B pivot point (§6.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from distaff.analysis.ir import Call, Intrinsic, Op, Program, Return, SYNC_OPS, regs_of
from distaff.analysis.memo import ProgramMemo
from distaff.analysis.static import access
from distaff.analysis.static.budget import poll
from distaff.analysis.liveness import used
from distaff.analysis.static.defuse import ENTRY

if TYPE_CHECKING:
    from distaff.analysis.static.facts import Facts

_ALWAYS = SYNC_OPS | {Op.ASSUME, Op.EXIT, Op.ABORT}
ALL_MEMORY = ("all memory",)  # the read key of a read that may read anything


@dataclass(frozen=True, slots=True)
class Slice:
    """The instructions in the slice of ``assertion`` (an AssertionSite id),
    per function, sorted by function name: equal slices compare and hash
    equal, so a slice can key a cache of results."""

    assertion: str
    pcs: tuple[tuple[str, frozenset[int]], ...]
    _index: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def contains(self, func: str, pc: int) -> bool:
        if not self._index:
            self._index.update(self.pcs)
        return pc in self._index.get(func, ())

    def functions(self) -> dict[str, frozenset[int]]:
        return dict(self.pcs)

    def __len__(self) -> int:
        return sum(len(p) for _, p in self.pcs)


def find_assertion(program: Program, assertion_id: str) -> tuple[str, int]:
    """``(func, pc)`` of the assertion with this id; ValueError if none."""
    known = _SITES.get(program)
    if known is None:
        known = _SITES.put(program, {s.id: (s.func, s.pc) for s in program.assertions()})
    site = known.get(assertion_id)
    if site is None:
        raise ValueError(f"no assertion {assertion_id!r} in {program.path}")
    return site


_SITES = ProgramMemo(keep=4)  # assertion id -> (func, pc)


def slice_of(program: Program, assertion_id: str, facts: "Facts", *,
             other_assertions: bool = True) -> Slice:
    """The slice of the assertion ``assertion_id`` of ``program`` (the program
    ``facts`` was computed for)."""
    func, pc = find_assertion(program, assertion_id)
    base = facts.slice_base(other_assertions)
    if pc in base.pcs.get(func, ()):  # nothing to add: every such slice is the base
        return Slice(assertion_id, base.frozen())
    slicer = base.copy()
    slicer.add(func, pc)
    slicer.run()
    return Slice(assertion_id, slicer.frozen())


def base_slicer(program: Program, facts: "Facts", other_assertions: bool,
                partial: "_Slicer | None" = None) -> "_Slicer":
    """The closure of what is in every slice; each assertion's slice continues
    from a copy of it. (With ``other_assertions``, every assertion is in it,
    so all slices of a program are this one.) ``partial``: a slicer from
    :func:`base_seeds` to run to its end (if the budget runs out meanwhile,
    it stays consistent and a later call continues it)."""
    slicer = partial if partial is not None else base_seeds(program, facts, other_assertions)
    slicer.run()
    return slicer


def base_seeds(program: Program, facts: "Facts", other_assertions: bool) -> "_Slicer":
    """A slicer holding what every slice starts from, not yet closed."""
    slicer = _Slicer(program, facts)
    for f in program.functions:
        for i, instr in enumerate(f.body):
            if isinstance(instr, Call) or (
                isinstance(instr, Intrinsic)
                and (instr.op in _ALWAYS or (other_assertions and instr.op is Op.ASSERT))
            ):
                slicer.add(f.name, i)
    return slicer


class _Slicer:
    def __init__(self, program: Program, facts: "Facts") -> None:
        self.program = program
        self.facts = facts
        self.ptr_bytes = program.data_model.pointer_bits // 8
        self.pcs: dict[str, set[int]] = {}
        self.work: list[tuple[str, int]] = []
        self.entered: set[str] = set()
        self.params: set[tuple[str, int]] = set()
        self.param_work: list[tuple[str, int]] = []
        self.returns: set[str] = set()
        self.thread_results = False
        self.reads: set = set()  # (object, offset, size), or ALL_MEMORY: their writers are in
        self._frozen = None

    def copy(self) -> "_Slicer":
        other = _Slicer(self.program, self.facts)
        other.pcs = {f: set(p) for f, p in self.pcs.items()}
        other.work = list(self.work)
        other.entered = set(self.entered)
        other.params = set(self.params)
        other.param_work = list(self.param_work)
        other.returns = set(self.returns)
        other.thread_results = self.thread_results
        other.reads = set(self.reads)
        return other

    def frozen(self) -> tuple[tuple[str, frozenset[int]], ...]:
        """The pcs as :attr:`Slice.pcs` holds them (made once: call it on a
        closed slicer only)."""
        if self._frozen is None:
            self._frozen = tuple(sorted((f, frozenset(p)) for f, p in self.pcs.items()))
        return self._frozen

    def add(self, func: str, pc: int) -> None:
        pcs = self.pcs.setdefault(func, set())
        if pc not in pcs:
            pcs.add(pc)
            self.work.append((func, pc))

    def run(self) -> None:
        """Close the slice. The budget is polled only between two steps, so
        when it runs out the slicer is consistent and ``run`` may be called
        again to go on."""
        visits = 0
        while self.work or self.param_work:
            if self.param_work:
                self._pass_param(*self.param_work.pop())
            else:
                self._visit(*self.work.pop())
            visits += 1
            if not visits & 255:
                poll()

    def _visit(self, func: str, pc: int) -> None:
        facts = self.facts
        f = self.program.function(func)
        instr = f.body[pc]
        for b in facts.control_dependences(func)[pc]:
            self.add(func, b)
        if func not in self.entered:
            self.entered.add(func)
            for site in facts.calls.call_sites_of(func) + facts.calls.create_sites_of(func):
                self.add(*site)
        if isinstance(instr, Call):
            regs = regs_of(instr.callee)
        elif isinstance(instr, Intrinsic) and instr.op is Op.THREAD_CREATE:
            regs = frozenset().union(*(regs_of(a) for a in instr.args[:3]))
        else:
            regs = used(instr)
        for r in regs:
            self._need_reg(func, pc, r)
        ops = access.operands(instr, self.ptr_bytes)
        for operand, locs in zip(ops, facts.points_to.operand_ids(func, pc)):
            if operand.role is access.Role.READ:
                self._need_read(locs, operand.size)

    def _need_read(self, locs: frozenset, size: int | None) -> None:
        """Every writer of what a read of ``size`` bytes at ``locs`` reads,
        with the values they write. Each (object, offset, size) is looked up
        once per slice: the many reads of one global do not rescan its
        writers."""
        writers = self.facts.writers
        if writers.reads_everything(locs):
            keys = [ALL_MEMORY]
        else:
            keys = [(o, k, size) for o, k in locs]
        for key in keys:
            if key in self.reads:
                continue
            self.reads.add(key)
            sites = writers.all_sites if key is ALL_MEMORY else writers.writers(frozenset((key[:2],)), size)
            for site in sites:
                self.add(*site)
                self._need_written_value(*site)

    def _need_reg(self, func: str, pc: int, reg: str) -> None:
        f = self.program.function(func)
        for d in self.facts.reaching_definitions(func).reaching(pc, reg):
            if d == ENTRY:
                for i, p in enumerate(f.params):
                    if p.name == reg:
                        self._need_param(func, i)
                continue
            self.add(func, d)
            if isinstance(f.body[d], Call):
                for callee in self.facts.calls.callees_at(func, d):
                    self._need_return(callee)

    def _need_param(self, func: str, index: int) -> None:
        # queued, not followed at once: a long call chain would nest as deep
        if (func, index) not in self.params:
            self.params.add((func, index))
            self.param_work.append((func, index))

    def _pass_param(self, func: str, index: int) -> None:
        calls = self.facts.calls
        for site in calls.call_sites_of(func):
            call = self.program.function(site[0]).body[site[1]]
            self.add(*site)
            if index < len(call.args):
                for r in regs_of(call.args[index]):
                    self._need_reg(site[0], site[1], r)
        if index == 0:
            for site in calls.create_sites_of(func):
                create = self.program.function(site[0]).body[site[1]]
                self.add(*site)
                if len(create.args) >= 4:
                    for r in regs_of(create.args[3]):
                        self._need_reg(site[0], site[1], r)

    def _need_return(self, func: str) -> None:
        if func in self.returns:
            return
        self.returns.add(func)
        f = self.program.function(func)
        if f is None:
            return
        for pc, instr in enumerate(f.body):
            if isinstance(instr, Return):
                self.add(func, pc)

    def _need_written_value(self, func: str, pc: int) -> None:
        # A join writes what the joined thread returned: its routine's returns.
        instr = self.program.function(func).body[pc]
        if isinstance(instr, Intrinsic) and instr.op is Op.THREAD_JOIN and not self.thread_results:
            self.thread_results = True
            for routines in self.facts.calls.creates.values():
                for r in routines:
                    self._need_return(r)
