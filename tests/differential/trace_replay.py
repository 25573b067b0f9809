"""Replay an engine counterexample, step by step, in the oracle.

The engine's :class:`distaff.analysis.report.Trace` lists what each thread did, in
order, in words (``read g == 3``, ``write g = 4``, ``lock m``, ``create
t1#1``, ``join t1#1``, ``wait on c (unlock m)``, ``woken, lock m``, ``signal
c, waking t1#1``, ``broadcast c (no waiter)``, ``sem_wait s (1 -> 0)``, ``sem_post s (0 -> 1)``,
``rdlock rw``, ``wrlock rw``, ``unlock rw``, ``assert ... fails``). :func:`replay_violation` runs
the oracle along those steps: each step of a thread must be that thread's next
global operation in the oracle, reading and writing the same values, and the
run must end with the reported assertion failing. Steps the oracle has no
counterpart for (branches, returns, reads of ``pthread_t`` handles, blocking
attempts) are passed over; so are the oracle's reads the engine need not
perform (the right operand of a short-circuited ``&&``), its passing
assertion checks and its atomic begin and end (the engine does not list them).
Which of the oracle's reads an engine read is depends on whether C skipped
the reads before it: the replay tries each reading, so an engine read may
pass over reads the oracle marks as skippable (``read g?``).

Only the action texts above are relied on; a step whose action is not
recognised is passed over, so the replay can only get weaker, never wrong,
if the engine words its actions differently.
"""

from __future__ import annotations

import itertools
import re

from tests.differential import cprog as C
from tests.differential import oracle as O

_READ = re.compile(r"^read (\w+) == (-?\d+)$")
_WRITE = re.compile(r"^write (\w+) = (-?\d+)$")
_LOCK = re.compile(r"^(lock|unlock) (\w+)(?:, waking .*)?$")
_WAIT = re.compile(r"^wait on (\w+) \(unlock (\w+)")
_WOKEN = re.compile(r"^woken, lock (\w+)$")
_SIGNAL = re.compile(r"^(signal|broadcast) (\w+)(?:, waking (.*)| \(no waiter\))$")
_CREATE = re.compile(r"^create (?:thread )?(\S+)$")
_JOIN = re.compile(r"^join (\S+)$")
_FAILS = re.compile(r"^assert .* fails$")
_SEM = re.compile(r"^(sem_wait|sem_post) (\w+) \(")
_SEM_GAVE_UP = re.compile(r"^sem_timedwait (\w+): timed out$")
_RWLOCK = re.compile(r"^(rdlock|wrlock) (\w+)$")


class Mismatch(Exception):
    pass


def _in_cas(program: C.Program, t: int, compiled) -> bool:
    """Does thread ``t``'s routine (or main) contain a compare-and-swap loop?"""
    name = compiled.names[t].split("#")[0]
    bodies = [r.body for r in program.routines if r.name == name] or [program.main]
    return any(isinstance(s, C.CasAdd) for body in bodies for s in C.walk(body))


def replay_violation(program: C.Program, rendered: C.Rendered, trace, label: int,
                     inputs: dict) -> str | None:
    """None if ``trace`` (with the failing ``inputs``, by our input names) is a
    run of ``program`` in the oracle ending in the failure of assertion
    ``label``; otherwise why not (for the first input completion tried, when
    the trace leaves inputs out)."""
    missing = [i for i in program.inputs if i.name not in inputs]
    first_reason = None
    for values in itertools.product(*(range(i.lo, i.hi + 1) for i in missing)):
        full = dict(inputs, **{i.name: v for i, v in zip(missing, values)})
        try:
            _replay(program, trace, label, full)
            return None
        except Mismatch as e:
            first_reason = first_reason or f"inputs {full}: {e}"
    return first_reason or "no input completion"


def _replay(program, trace, label, inputs) -> None:
    compiled = O.compile_program(program)
    sems, rwlocks = O.sync_slots(program)
    gnames = [g for g, _ in program.globals]
    if any(not i.lo <= inputs[i.name] <= i.hi for i in program.inputs):
        raise Mismatch("an input outside its assumed domain")
    state, exited = O._initial(compiled, tuple(inputs[i.name] for i in program.inputs))
    if exited:
        raise Mismatch("main returns before any thread runs")
    slots = {"main": 0}

    passable = (O.READ, O.ASSERT, O.ATOMIC_BEGIN, O.ATOMIC_END)

    def advance(state, t, matches, what, choice=lambda state: 0):
        """Take thread t's transitions up to the one ``matches`` accepts
        (passing over reads, passing assertion checks and atomic brackets);
        the transition taken (with ``choice(state)`` as its choice) and the
        state after it."""
        seen = set()
        while True:
            th = state[0][t]
            if th is None or th[1] is O.DONE:
                raise Mismatch(f"{compiled.names[t]} has nothing left to do at {what}")
            if state in seen:  # a spin loop's reads, round after round: the op never comes
                raise Mismatch(f"{what}: the oracle's {compiled.names[t]} spins before it")
            seen.add(state)
            op = compiled.codes[t].ops[th[0]]
            if matches(op):
                return op, O._step(compiled, state, t, choice(state))
            step = O._step(compiled, state, t)
            if op[0] not in passable:
                raise Mismatch(f"{what}: the oracle's {compiled.names[t]} does "
                               f"{compiled.codes[t].texts[th[0]]!r} next")
            if step.kind == "violated":
                raise Mismatch(f"{what}: an assertion of {compiled.names[t]} fails first")
            state = step.state

    def finish(state, t, what):
        """Thread t's state run to its end through reads and passing checks."""
        seen = set()
        while state[0][t] is not None and state[0][t][1] is not O.DONE:
            if state in seen:
                raise Mismatch(f"{what}: {compiled.names[t]} spins for ever in the oracle")
            seen.add(state)
            op = compiled.codes[t].ops[state[0][t][0]]
            step = O._step(compiled, state, t)
            if op[0] not in passable or step.kind != "next":
                raise Mismatch(f"{what}: {compiled.names[t]} has not ended in the oracle")
            state = step.state
        return state

    def leave_atomic(state, t, what):
        """The state once the thread in an atomic region other than t has
        left it: the engine lists no step for the region's end."""
        owner = state[4]
        seen = set()
        while owner not in (O.NOBODY, t):
            if state in seen:
                raise Mismatch(f"{what}: {compiled.names[owner]} spins inside an atomic block")
            seen.add(state)
            th = state[0][owner]
            op = compiled.codes[owner].ops[th[0]] if th[1] is not O.DONE else None
            step = O._step(compiled, state, owner)
            if op is None or op[0] not in passable or step.kind != "next":
                raise Mismatch(f"{what}: {compiled.names[owner]} is inside an atomic block")
            state = step.state
            owner = state[4]
        return state

    def reads_of(state, t, g, what):
        """The oracle's reads of global g thread t may do next, each as
        (transition, state after it): the first read of g, and past each
        read C may skip, the next one."""
        out = []
        seen = set()
        while True:
            th = state[0][t]
            if th is None or th[1] is O.DONE or state in seen:  # ended, or spinning on other reads
                break
            seen.add(state)
            pc = th[0]
            op = compiled.codes[t].ops[pc]
            if op[0] == O.READ and op[1] == g:
                out.append(O._step(compiled, state, t))
                if not compiled.codes[t].texts[pc].endswith("?"):
                    break
            elif op[0] not in passable:
                break
            step = O._step(compiled, state, t)
            if step.kind != "next":
                break
            state = step.state
        if not out:
            advance(state, t, lambda op: op[0] == O.READ and op[1] == g, what)  # raises its mismatch
        return out

    steps = list(trace.steps)

    def run(k, state, slots):
        """Replay ``steps[k:]`` from ``state``; returns normally once the
        reported assertion fails, raises Mismatch otherwise."""
        while k < len(steps):
            s = steps[k]
            k += 1
            action = s.action.strip()
            if s.thread not in slots:
                continue  # a thread not created in the replay so far: mismatch comes later
            t = slots[s.thread]
            what = f"step {s.thread}: {action!r} (line {s.span.line})"
            state = leave_atomic(state, t, what)
            m = _READ.match(action)
            if m and m.group(1) in gnames:
                first = None
                for step in reads_of(state, t, gnames.index(m.group(1)), what):
                    try:
                        if step.value != int(m.group(2)):
                            raise Mismatch(f"{what}: the oracle reads {step.value}")
                        if step.kind != "next":
                            raise Mismatch(f"{what}: the oracle's run ends here ({step.kind})")
                        return run(k, step.state, dict(slots))
                    except Mismatch as e:
                        first = first or e
                raise first
            state = one(state, t, action, what, slots)
            if state is None:
                return
        raise Mismatch("the trace does not end with the assertion failing")

    def one(state, t, action, what, slots):
        """The state after the engine's step ``action`` of thread t (not a
        read); None once the reported assertion has failed."""
        if m := _WRITE.match(action):
            if m.group(1) not in gnames:
                return state
            g = gnames.index(m.group(1))
            op, step = advance(state, t, lambda op: op[0] == O.WRITE and op[1] == g, what)
            if step.value != int(m.group(2)):
                if state[1][g] == int(m.group(2)) and _in_cas(program, t, compiled):
                    # a compare-and-swap that failed stores the value it
                    # found (the engine lowers it so); the oracle's only reads
                    return state
                raise Mismatch(f"{what}: the oracle writes {step.value}")
        elif (m := _LOCK.match(action)) and m.group(1) == "unlock" and m.group(2) in program.rwlocks:
            lock = rwlocks[m.group(2)]
            op, step = advance(state, t, lambda op: op[0] == O.RWUNLOCK and op[1] == lock, what)
        elif m := _LOCK.match(action):
            if m.group(2) not in program.mutexes:
                return state
            code = O.LOCK if m.group(1) == "lock" else O.UNLOCK
            mu = program.mutexes.index(m.group(2))
            op, step = advance(state, t, lambda op: op[0] == code and op[1] == mu, what)
            if step.kind == "blocked":
                raise Mismatch(f"{what}: the mutex is held")
        elif m := _SEM.match(action):
            if m.group(2) not in sems:
                return state
            code = O.SEM_WAIT if m.group(1) == "sem_wait" else O.SEM_POST
            sem = sems[m.group(2)]
            op, step = advance(state, t, lambda op: op[0] == code and op[1] == sem, what)
            if step.kind == "blocked":
                raise Mismatch(f"{what}: the semaphore is 0")
        elif m := _SEM_GAVE_UP.match(action):
            if m.group(1) not in sems:
                return state
            sem = sems[m.group(1)]
            op, step = advance(state, t, lambda op: op[0] == O.SEM_WAIT and op[1] == sem, what,
                               lambda state: 1)
            if step.kind == "blocked":
                raise Mismatch(f"{what}: the oracle's wait cannot give up (the semaphore is not 0)")
        elif m := _RWLOCK.match(action):
            if m.group(2) not in rwlocks:
                return state
            code = O.WRLOCK if m.group(1) == "wrlock" else O.RDLOCK
            lock = rwlocks[m.group(2)]
            op, step = advance(state, t, lambda op: op[0] == code and op[1] == lock, what)
            if step.kind == "blocked":
                raise Mismatch(f"{what}: the rwlock is held")
        elif m := _WAIT.match(action):
            if m.group(1) not in program.conds:
                return state
            c = program.conds.index(m.group(1))
            # (a free wait that awaited says "woken spuriously once `g` changes")
            spurious = ", woken spuriously" in action
            op, step = advance(state, t, lambda op: op[0] == O.WAIT and op[1] == c, what,
                               lambda state: 1 if spurious else 0)
        elif m := _WOKEN.match(action):
            if m.group(1) not in program.mutexes:
                return state
            mu = program.mutexes.index(m.group(1))
            op, step = advance(state, t, lambda op: op[0] == O.REACQUIRE and op[1] == mu, what)
            if step.kind == "blocked":
                raise Mismatch(f"{what}: not woken, or the mutex is held")
        elif m := _SIGNAL.match(action):
            if m.group(2) not in program.conds:
                return state
            c = program.conds.index(m.group(2))
            names = [n.strip() for n in (m.group(3) or "").split(",") if n.strip()]
            if any(n not in slots for n in names):
                raise Mismatch(f"{what}: wakes a thread never created")
            woken = sorted(slots[n] for n in names)
            broadcast = m.group(1) == "broadcast"

            def choice(state):
                asleep = O.sleepers(state, c)
                if broadcast or not woken:
                    return 0
                if woken[0] not in asleep:
                    raise Mismatch(f"{what}: {names[0]} is not waiting on {m.group(2)}")
                return asleep.index(woken[0])

            op, step = advance(state, t, lambda op: op[0] == O.SIGNAL and op[1] == c
                               and op[2] == broadcast, what, choice)
            got = sorted(u for u, was in enumerate(state[3]) if was == c and step.state
                         and step.state[3][u] != c)
            if got != woken:
                raise Mismatch(f"{what}: the oracle wakes {[compiled.names[u] for u in got]}")
        elif m := _CREATE.match(action):
            op, step = advance(state, t, lambda op: op[0] == O.CREATE, what)
            slots[m.group(1)] = op[1]
        elif m := _JOIN.match(action):
            if m.group(1) not in slots:
                raise Mismatch(f"{what}: joins a thread never created")
            u = slots[m.group(1)]
            state = finish(state, u, what)
            op, step = advance(state, t, lambda op: op[0] == O.JOIN and op[1] == u, what)
            if step.kind == "blocked":
                raise Mismatch(f"{what}: the joined thread has not ended")
        elif _FAILS.match(action):
            op, step = advance(state, t, lambda op: op[0] == O.ASSERT and op[1] == label, what)
            if step.kind != "violated":
                raise Mismatch(f"{what}: the assertion holds in the oracle")
            return None
        else:
            return state
        if step.kind != "next":
            raise Mismatch(f"{what}: the oracle's run ends here ({step.kind})")
        return step.state

    run(0, state, slots)
