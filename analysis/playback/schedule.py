"""A counterexample as a native schedule: the cues a reproducer forces.

:func:`schedule_of` replays a violation's trace (:func:`distaff.analysis.replay.replay_run`)
and turns the run's record into :class:`Cue` s, one per operation the native
runtime (``runtime.c``) can recognise and hold back until its turn:

* a read or write of a global the program names at file scope, or of a block
  a ``malloc``/``calloc`` of the run returned (the runtime learns its address
  from the allocation's cue);
* the allocation and ``free`` of such a block, ``memset``/``memcpy`` on them;
* a ``__VERIFIER_nondet_*`` call (its cue carries the value to return);
* thread creation, join, exit and end; mutex, condition variable, barrier,
  semaphore and rwlock operations, and the attempts the run saw block.

Everything else runs freely natively: accesses to locals (also locals other
threads reach through a pointer: their addresses are not known before the
run, and the reproducer says so in ``unforced``), branches, calls. A run
from a program context cannot be played natively (no native state matches
the context); nor can operations the runtime does not wrap (C11 threads,
spin locks): :class:`NotReproducible` says which.
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis import ir
from distaff.analysis.replay import replay_run
from distaff.analysis.report import Trace
from distaff.analysis.symex import arguments
from distaff.analysis.symex.state import cons_list
from distaff.analysis.symex.trace import build_trace, model_value, small_model

ETIMEDOUT = 110  # Linux's
# the comparisons whose result's magnitude the engine leaves open (the sign is the C library's)
STRING_RESULTS = frozenset({"strcmp", "strncmp", "memcmp"})
SERIAL_THREAD = -1  # PTHREAD_BARRIER_SERIAL_THREAD


class NotReproducible(ValueError):
    """The counterexample cannot be played natively; the message says why."""


@dataclass(frozen=True, slots=True)
class Target:
    """Memory the runtime watches: a file-scope global (``name``, found by
    ``&name``) or a heap block (``name`` its allocation site, found when the
    block's allocation cue runs)."""

    name: str
    heap: bool


@dataclass(frozen=True, slots=True)
class Cue:
    """One operation of the schedule, in the counterexample's order. ``kind``
    is one of :data:`KINDS`; ``target``/``target2`` index
    :attr:`Schedule.targets` (-1: none; ``memcpy``'s source and destination);
    ``value``: the input returned, the created thread's number, the result a
    try/timed operation or a barrier gives, or where the piece of a
    ``memset``/``memcpy`` starts; ``size``: the piece's bytes (a long double
    input's sign and exponent, its value the significand); ``last``: the
    operation's last piece."""

    tid: int
    kind: str
    line: int
    text: str
    target: int = -1
    target2: int = -1
    value: int = 0
    size: int = 0
    last: bool = True


# the runtime's cue kinds, in its enum's order (runtime.c: DK_*)
KINDS = ("read", "write", "alloc", "free", "memset", "memcpy", "input", "blocked", "end", "create", "join",
         "exit", "lock", "trylock", "unlock", "wait", "relock", "wake", "barrier", "sem_wait", "sem_post",
         "rdlock", "wrlock")


@dataclass(frozen=True, slots=True)
class Schedule:
    """What a reproducer needs: the cues, the memory they name, the threads'
    names by number, the failing statement's line, the nondet functions to
    define (name, C type) and what is left unforced (sentences).
    ``command_line``: when ``main`` takes ``argc`` (and ``argv``), the
    counterexample's arguments after the program's name, and how many
    parameters ``main`` has."""

    cues: tuple[Cue, ...]
    targets: tuple[Target, ...]
    threads: tuple[str, ...]
    line: int
    inputs: tuple[tuple[str, str], ...]
    unforced: tuple[str, ...]
    command_line: tuple[bytes, ...] | None = None
    main_params: int = 0


# synchronization built-ins by IR operation: the cue kind (None: runs freely,
# as initialisation and queries order nothing the schedule needs)
_SYNC = {
    "thread_create": "create", "thread_join": "join", "thread_exit": "exit",
    "mutex_lock": "lock", "mutex_trylock": "trylock", "mutex_unlock": "unlock",
    "cond_wait": "wait", "cond_signal": "wake", "cond_broadcast": "wake",
    "barrier_wait": "barrier", "sem_wait": "sem_wait", "sem_trywait": "sem_wait", "sem_post": "sem_post",
    "rwlock_rdlock": "rdlock", "rwlock_tryrdlock": "rdlock", "rwlock_wrlock": "wrlock",
    "rwlock_trywrlock": "wrlock", "rwlock_unlock": "unlock",
}
# the library functions runtime.c wraps (a cue of another would never be taken)
WRAPPED = frozenset({
    "pthread_create", "pthread_join", "pthread_exit", "pthread_mutex_lock", "pthread_mutex_trylock",
    "pthread_mutex_timedlock", "pthread_mutex_unlock", "pthread_cond_wait", "pthread_cond_timedwait",
    "pthread_cond_signal", "pthread_cond_broadcast", "pthread_barrier_wait", "sem_wait", "sem_trywait",
    "sem_timedwait", "sem_post", "pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "pthread_rwlock_tryrdlock",
    "pthread_rwlock_trywrlock", "pthread_rwlock_unlock", "pthread_spin_lock", "pthread_spin_trylock",
    "pthread_spin_unlock", "thrd_create", "thrd_join", "mtx_lock", "mtx_trylock", "mtx_timedlock", "mtx_unlock",
    "cnd_wait", "cnd_signal", "cnd_broadcast",
})

# __VERIFIER_nondet_T: T's C spelling (others: the suffix itself, a typedef the program has)
_NONDET_C = {
    "int": "int", "uint": "unsigned int", "unsigned_int": "unsigned int", "unsigned": "unsigned int",
    "char": "char", "uchar": "unsigned char", "unsigned_char": "unsigned char", "short": "short",
    "ushort": "unsigned short", "unsigned_short": "unsigned short", "long": "long", "ulong": "unsigned long",
    "unsigned_long": "unsigned long", "longlong": "long long", "long_long": "long long",
    "ulonglong": "unsigned long long", "unsigned_long_long": "unsigned long long", "bool": "_Bool",
    "_Bool": "_Bool", "long_double": "long double",
    "pointer": "void *", "pchar": "char *", "unsigned_char_ptr": "unsigned char *",
    "int8": "signed char", "uint8": "unsigned char", "int16": "short", "uint16": "unsigned short",
    "int32": "int", "uint32": "unsigned int", "int64": "long long", "uint64": "unsigned long long",
}


def nondet_c_type(name: str) -> str:
    suffix = name.removeprefix("__VERIFIER_nondet_")
    return _NONDET_C.get(suffix, suffix)


def schedule_of(program: ir.Program, trace: Trace, options, target: str | None = None) -> Schedule:
    """The schedule of a violation's counterexample (see the module docstring).
    Raises NotReproducible, or ValueError when the trace does not fit the
    program."""
    run = replay_run(program, trace, options, target)
    E, st = run.engine, run.state
    L = E.layout
    model = small_model(E, st)  # one model: the steps' words and the cues' objects and values
    rendered = build_trace(st, L, model).steps
    names = tuple(t.name for t in st.threads)
    by_name = {n: tid for tid, n in enumerate(names)}
    targets: list[Target] = []
    target_of: dict[int, int] = {}  # object id -> index in targets
    unforced: dict[str, None] = {}
    inputs: dict[str, str] = {}

    locals_by: dict[str, set[int]] = {}  # locals' names -> the threads that access them

    def obj_target(p, tid: int) -> int:
        oid = model_value(model, p) >> L.off_bits
        if oid in target_of:
            return target_of[oid]
        obj = st.memory.get(oid)
        if obj is None:
            return -1
        var = program.global_var(obj.name) if obj.kind == "global" else None
        if var is not None and var.thread_local:
            return -1  # each thread its own copy: nothing to order
        if var is not None and obj.name.isidentifier():
            targets.append(Target(obj.name, False))
            target_of[oid] = len(targets) - 1
            return target_of[oid]
        if obj.kind == "global":
            unforced[f"accesses to {obj.name} (a static local) run unforced"] = None
        elif obj.kind in ("stack", "alloca"):
            locals_by.setdefault(obj.name, set()).add(tid)
        return -1

    cues: list[Cue] = []
    records = cons_list(st.steps)
    for rec, step in zip(records, rendered):
        op, line = rec.op, rec.span.line
        text = step.action
        kind, args = (op[0], op[1:]) if op else ("", ())
        cue = None
        if kind in ("read", "write"):
            t = obj_target(args[0], rec.tid)
            if t >= 0:
                cue = Cue(rec.tid, kind, line, text, t)
        elif kind == "alloc":
            oid = model_value(model, args[0]) >> L.off_bits
            obj = st.memory.get(oid)
            if obj is not None and obj.kind == "heap":
                targets.append(Target(obj.name, True))
                target_of[oid] = len(targets) - 1
                cue = Cue(rec.tid, "alloc", line, text, target_of[oid])
        elif kind == "free":
            cue = Cue(rec.tid, "free", line, text)
        elif kind == "memset":
            t = obj_target(args[0], rec.tid)
            lo, hi, n = args[1:]
            if t >= 0:
                cue = Cue(rec.tid, "memset", line, text, t, value=lo, size=hi - lo, last=hi >= n)
        elif kind == "memcpy":
            s, d = obj_target(args[0], rec.tid), obj_target(args[1], rec.tid)
            lo, hi, n = args[2:]
            if s >= 0 or d >= 0:
                cue = Cue(rec.tid, "memcpy", line, text, s, d, value=lo, size=hi - lo, last=hi >= n)
        elif kind == "input":
            v, name, opv = args
            if opv == ir.Op.NONDET.value and name.startswith("__VERIFIER_nondet_"):
                full = model_value(model, v)
                # a long double's 80 bits: the significand in value, sign and exponent in size
                high = full >> 64 & 0xFFFF if nondet_c_type(name) == "long double" else 0
                cue = Cue(rec.tid, "input", line, text, value=full & ((1 << 64) - 1), size=high)
                inputs[name] = nondet_c_type(name)
            elif name not in STRING_RESULTS:
                unforced[f"{name}() is the real one natively (any value was assumed here)"] = None
        elif kind == "blocked":
            if args[0] in _SYNC:
                cue = Cue(rec.tid, "blocked", line, text)
        elif kind == "end":
            if rec.tid != 0:
                cue = Cue(rec.tid, "end", line, text)
        elif kind == "sync":
            cue = _sync_cue(rec.tid, args[0], args[1], line, text, by_name)
        if cue is not None:
            cues.append(cue)
    if not cues:
        raise NotReproducible("the counterexample has no step a native run can be held to")
    last = rendered[-1].span.line if rendered else 0
    for f in program.functions:  # the ones the run did not reach must link too
        for i in f.body:
            if isinstance(i, ir.Intrinsic) and i.op is ir.Op.NONDET and i.name.startswith("__VERIFIER_nondet_"):
                inputs.setdefault(i.name, nondet_c_type(i.name))
    for name, tids in locals_by.items():
        if len(tids) > 1:  # shared through a pointer
            unforced[f"accesses to the local {name} (shared through a pointer) run unforced: its address "
                     "is known only natively"] = None
    main = program.function(program.entry)
    params = len(main.params) if main is not None else 0
    return Schedule(tuple(cues), tuple(targets), names, last, tuple(sorted(inputs.items())), tuple(unforced),
                    command_line_of(trace) if params else None, params)


def command_line_of(trace: Trace) -> tuple[bytes, ...]:
    """The arguments after the program's name in ``trace``'s command line."""
    argc = next((i.value for i in trace.inputs if arguments.is_argc(i.name)), 1)
    given = {arguments.argument_index(i.name): i.value for i in trace.inputs}
    return tuple(arguments.argument_bytes(given.get(k, 0), max(8, given.get(k, 0).bit_length() + 7) // 8 * 8)
                 for k in range(1, argc))


def _sync_cue(tid: int, opv: str, name: str, line: int, text: str, by_name: dict[str, int]) -> Cue | None:
    kind = _SYNC.get(opv)
    if kind is None:
        return None
    if name and name not in WRAPPED:
        raise NotReproducible(f"reproducers do not wrap {name} yet (line {line})")
    value = 0
    if kind == "create":
        value = by_name.get(text.removeprefix("create ").strip(), -1)
    elif kind == "wait" and text.startswith("woken"):
        kind = "relock"
        value = ETIMEDOUT if "timed out" in text else 0
    elif kind == "lock" and "timed out" in text:
        value = ETIMEDOUT
    elif kind == "sem_wait" and name == "sem_timedwait" and "timed out" in text:
        value = 1
    elif kind == "barrier":
        value = SERIAL_THREAD if "last to arrive" in text else 0
    return Cue(tid, kind, line, text, value=value)


__all__ = ["Cue", "KINDS", "NotReproducible", "Schedule", "Target", "schedule_of"]
