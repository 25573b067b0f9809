"""What a check reports: verdicts, findings, traces and statistics.

These are frozen, JSON-able dataclasses: they cross process boundaries (worker
pools, Dask), go to the CLI's JSON and to the language server's diagnostics.
:class:`Status` is ordered so that merging the verdicts of parts of one check
is ``max``: a violation found anywhere wins over "unknown", which wins over
"no violation within the bound", which wins over the proofs "holds" and
"unreachable".

Three answers are kept apart (the README's "What the model covers"): a proof
(HOLDS, UNREACHABLE: every execution explored, no thread stopped by the bound,
no budget ran out); BOUNDED, no violation within the bound (runs reached the
assertion and all were explored, but the bound stopped some thread); and an
undecided answer (UNKNOWN), among them "not reached within the bound"
(reason BOUND: no explored run executed the assertion because the bound
stopped a thread first).
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field, fields

from distaff.analysis.ir import FindingKind, Span


class Status(enum.IntEnum):
    UNREACHABLE = 0  # proof: no execution reaches the assertion
    HOLDS = 1  # proof: every execution was explored and none violates it
    BOUNDED = 2  # no violation within the bound: the bound stopped some thread (not a proof)
    UNKNOWN = 3  # undecided: a budget ran out, the bound kept every run from it, ...
    VIOLATED = 4  # a run violates it; it carries a counterexample

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def proof(self) -> bool:
        """Every execution was explored: HOLDS or UNREACHABLE."""
        return self in (Status.HOLDS, Status.UNREACHABLE)


class Reason(enum.Enum):
    """Why a check ended without exploring everything (status UNKNOWN)."""

    TIMEOUT = "timeout"
    MAX_RUNS = "max-runs"
    CANCELLED = "cancelled"
    SOLVER = "solver-unknown"
    SKIPPED = "skipped"  # not checked: the file has syntax errors, or the user asked
    CRASHED = "crashed"  # the worker died; the message says how
    UNSUPPORTED = "unsupported"  # the program uses C the engine does not cover; the message names it
    BOUND = "bound-reached"  # not reached within the bound: the bound stopped a thread before any run reached it
    # the violation found depends on a C library function distaff does not model; the message names it
    UNMODELLED = "unmodelled"
    MEMORY = "memory-limit"  # the sub-check's process reached Options.max_memory_mb
    # no main runs it: the program the assertion's file links into has no entry reaching it; the message says why
    NO_ENTRY = "no-entry"


@dataclass(frozen=True, slots=True)
class Stats:
    """Counters of one check (the README's "Runs and statistics").

    ``runs = full_runs + pruned_runs``. ``counters`` holds the optimisations'
    own counts (cache hits, independence splits, sleep-set blocks, ...).
    ``steps`` and ``events`` measure the engine's work: instructions run, and
    the visible operations among them that partial order reduction sees;
    :meth:`rate` divides by the exploration time (``time_s`` less
    ``static_time_s``), :meth:`share` by the whole."""

    runs: int = 0
    full_runs: int = 0
    pruned_runs: int = 0
    bound_cuts: int = 0
    solver_calls: int = 0
    solver_time_s: float = 0.0
    time_s: float = 0.0
    counters: tuple[tuple[str, int], ...] = ()
    steps: int = 0  # instructions the engine executed
    events: int = 0  # visible operations (scheduling steps) among them
    static_time_s: float = 0.0  # of time_s: the static analyses and the initial state before exploring

    @property
    def explore_time_s(self) -> float:
        return max(0.0, self.time_s - self.static_time_s)

    def rate(self, count: int) -> float:
        """``count`` per second of exploration (0 when none was timed)."""
        t = self.explore_time_s
        return count / t if t > 0 else 0.0

    def share(self, seconds: float) -> float:
        """``seconds`` as a fraction of the whole time."""
        return seconds / self.time_s if self.time_s > 0 else 0.0

    def counter(self, name: str) -> int:
        return dict(self.counters).get(name, 0)

    def __add__(self, other: "Stats") -> "Stats":
        merged = dict(self.counters)
        for k, v in other.counters:
            merged[k] = merged.get(k, 0) + v
        return Stats(
            runs=self.runs + other.runs,
            full_runs=self.full_runs + other.full_runs,
            pruned_runs=self.pruned_runs + other.pruned_runs,
            bound_cuts=self.bound_cuts + other.bound_cuts,
            solver_calls=self.solver_calls + other.solver_calls,
            solver_time_s=self.solver_time_s + other.solver_time_s,
            time_s=self.time_s + other.time_s,
            counters=tuple(sorted(merged.items())),
            steps=self.steps + other.steps,
            events=self.events + other.events,
            static_time_s=self.static_time_s + other.static_time_s,
        )


@dataclass(frozen=True, slots=True)
class Input:
    """A failing input: the symbol ``name`` (e.g. ``x@main:12``) took ``value``;
    ``span`` is where the symbol was introduced (a nondet call, a parameter of
    main, an external call); ``text`` is how it reads when it is not an
    integer, else empty: a floating value as C writes it (``0.1f``; ``value``
    is its bit pattern), a command-line argument as its C string (``"9"``)."""

    name: str
    value: int
    span: Span
    text: str = ""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a schedule: thread ``thread`` (its name, e.g. ``main`` or
    ``t1#1``, and number ``tid``) executed the statement at ``span``; ``action``
    says what it did in words a C programmer reads ("read x == 10",
    "write x = 20", "lock m", "x > 10 is true", "create thread t1#1")."""

    tid: int
    thread: str
    span: Span
    action: str


@dataclass(frozen=True, slots=True)
class Trace:
    """A counterexample: the inputs and the steps that lead to the finding.
    ``schedule`` is the sequence of thread ids chosen at each interleaving
    point and ``choices`` the branch outcomes: with the inputs they replay the
    run deterministically. ``free_waits``: the run's condition waits returned
    at the schedule's choice (:mod:`distaff.analysis.symex.sync`); a replay
    runs them so."""

    inputs: tuple[Input, ...]
    steps: tuple[Step, ...]
    schedule: tuple[int, ...] = ()
    choices: tuple[int, ...] = ()
    free_waits: bool = False


@dataclass(frozen=True, slots=True)
class BoundStop:
    """Where the unwind bound stopped a thread: the loop at ``line`` of
    ``function`` (``what``: ``loop``, ``creation loop`` for one that starts
    threads, ``recursion`` of the function defined there, ``free loops`` for
    a run whose loops over concrete values ran past their cap), ``times``
    over the paths explored."""

    function: str
    line: int
    what: str
    times: int = 1


@dataclass(frozen=True, slots=True)
class AssertionResult:
    """The verdict on one assertion. ``unwind`` is the bound the answer
    speaks of; ``stops`` where that bound stopped a thread (BOUNDED, and
    UNKNOWN for reason BOUND); ``reached_paths`` on how many explored paths
    the assertion was executed (runs, and paths a later failed assumption
    dropped). ``finished_unwind``: for an undecided answer of
    a deepening check whose budget ran out, the deepest bound whose search
    finished with no violation (0: none). ``invariants``: for a proof of the
    thread-modular prover, the invariants it rests on."""

    id: str
    span: Span
    text: str
    status: Status
    reason: Reason | None = None
    message: str = ""
    trace: Trace | None = None
    stats: Stats = field(default_factory=Stats)
    unwind: int = 0
    mode: str = ""
    summaries: tuple[StatementSummary, ...] = ()
    context: str = ""  # empty for a whole-program check; else which context and ingredients
    # a violation that relies on the results of the program's own functions
    # without a body here (any value was assumed for them): real only if they
    # can return those values
    depends_on: tuple[str, ...] = ()
    stops: tuple[BoundStop, ...] = ()
    reached_paths: int = 0
    finished_unwind: int = 0
    # a proof for any number of threads (analysis/modular): each shared
    # object's invariant it rests on, (name, "in [0, 4]")
    invariants: tuple[tuple[str, str], ...] = ()

    @property
    def bounded(self) -> bool:
        """The bound stopped a thread: BOUNDED, or not reached within the bound."""
        return self.status is Status.BOUNDED or self.reason is Reason.BOUND


@dataclass(frozen=True, slots=True)
class StatementSummary:
    """A predicate summary learned at a statement (mode dpor-ag): ``expr`` is the
    summary printed as a C expression over program variables (the disjunction
    of what was learned there, simplified), ``pruned_runs`` how many runs it
    cut short. The language server shows it on hover."""

    span: Span
    expr: str
    pruned_runs: int = 0
    raw: str = ""  # the parts as learned, before simplifying their disjunction ("" when the same)


@dataclass(frozen=True, slots=True)
class Finding:
    """``depends_on``: as for :class:`AssertionResult`, the program's own
    body-less functions whose results the counterexample relies on."""

    kind: FindingKind
    span: Span
    message: str
    trace: Trace | None = None
    depends_on: tuple[str, ...] = ()


class SearchEnd(enum.Enum):
    """How the search for findings (deadlocks, stuck threads, run-time errors
    outside any assertion's check) ended. Only FINISHED and COVERED mean every
    finding within the bound was met; the rest say why it may have missed some."""

    FINISHED = "finished"  # it explored every run (within the unwind bound)
    COVERED = "covered"  # not run: a sub-check explored every run, and met every finding on the way
    CUT = "cut"  # its budget ran out first (Options.findings_timeout_s, or what --timeout left)
    CANCELLED = "cancelled"
    CRASHED = "crashed"  # its worker died; ``message`` says how
    OFF = "off"  # not asked for (Options.findings False, or a property check)
    SKIPPED = "skipped"  # not run: the program has syntax errors

    @property
    def complete(self) -> bool:
        return self in (SearchEnd.FINISHED, SearchEnd.COVERED)


@dataclass(frozen=True, slots=True)
class FindingsSearch:
    """How the search for findings went: ``end``, in words ``message``; its
    ``runs`` and wall ``time_s`` (0 when it did not run), ``budget_s`` what it
    was given (None: no limit), ``bounded`` when the unwind bound stopped a
    thread on some run (finished within the bound, not over every execution).
    check() yields exactly one, after every assertion."""

    end: SearchEnd
    message: str = ""
    runs: int = 0
    time_s: float = 0.0
    budget_s: float | None = None
    bounded: bool = False

    @property
    def complete(self) -> bool:
        return self.end.complete


# --------------------------------------------------------------------------
# JSON


def to_json(obj):
    """A plain JSON value for any report type (enums by value, spans as dicts)."""
    if isinstance(obj, enum.Enum):
        return obj.label if isinstance(obj, Status) else obj.value
    if hasattr(obj, "__dataclass_fields__"):
        out = {}
        for f in fields(obj):
            v = getattr(obj, f.name)
            if f.name == "counters":
                out[f.name] = dict(v)
            else:
                out[f.name] = to_json(v)
        return out
    if isinstance(obj, (list, tuple)):
        return [to_json(x) for x in obj]
    return obj


def _span(d) -> Span:
    return Span(**d)


def trace_from_json(d) -> Trace | None:
    if d is None:
        return None
    return Trace(
        inputs=tuple(Input(i["name"], i["value"], _span(i["span"]), i.get("text", "")) for i in d["inputs"]),
        steps=tuple(Step(s["tid"], s["thread"], _span(s["span"]), s["action"]) for s in d["steps"]),
        schedule=tuple(d.get("schedule", ())),
        choices=tuple(d.get("choices", ())),
        free_waits=bool(d.get("free_waits", False)),
    )


def stats_from_json(d) -> Stats:
    d = dict(d)
    d["counters"] = tuple(sorted(d.get("counters", {}).items()))
    return Stats(**d)


__all__ = [
    "AssertionResult", "BoundStop", "Finding", "FindingKind", "FindingsSearch", "SearchEnd", "Input", "Reason", "Stats", "Status",
    "Step", "StatementSummary", "Trace", "asdict", "to_json", "trace_from_json", "stats_from_json",
]
