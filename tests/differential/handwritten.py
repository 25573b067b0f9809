"""Hand-written programs of the generated shape, and shorthands to write them."""

from tests.differential import cprog as C

g, x0 = C.Global("g"), C.Local("x0")


def k(v):
    return C.Const(v)


def cmp(op, a, b):
    return C.Bin(op, a, b)


def two_threads(body1, body2, *, globals_=(("g", 0),), mutexes=(), inputs=(),
                pre=(), post=(), locals1=(), locals2=()):
    """main: pre; create t1, t2; join both; post."""
    main = tuple(pre) + (C.Create(0, "t1"), C.Create(1, "t2"), C.Join(0), C.Join(1)) + tuple(post)
    return C.number_assertions(C.Program(
        globals=tuple(globals_), mutexes=tuple(mutexes),
        routines=(C.Routine("t1", tuple(locals1), tuple(body1)),
                  C.Routine("t2", tuple(locals2), tuple(body2))),
        inputs=tuple(inputs), main_locals=(), main=main))


def fig2(first, second):
    """The assertion-guided paper's Figure 2 with t1 writing ``first`` then ``second``."""
    a, b = C.Local("a"), C.Local("b")
    return two_threads(
        [C.Store("g", k(first)), C.Store("g", k(second))],
        [C.Assign("a", g), C.Assign("b", g), C.Assert(0, cmp("<=", a, b))],
        inputs=[C.Input("x0", 8, 12)], locals2=("a", "b"),
        pre=[C.Store("g", x0), C.ReturnIf(cmp(">", x0, k(10)))])


def threads(routines, started, *, globals_=(("g", 0),), mutexes=("m",), conds=("c",), post=(),
            sems=(), rwlocks=()):
    """main: create one thread per name in ``started`` (routines by name, a
    routine may run in several threads), join them all in order; post.
    ``routines`` maps a routine's name to (locals, body)."""
    n = len(started)
    main = tuple(C.Create(h, r) for h, r in enumerate(started)) + tuple(C.Join(h) for h in range(n))
    return C.number_assertions(C.Program(
        globals=tuple(globals_), mutexes=tuple(mutexes),
        routines=tuple(C.Routine(name, tuple(ls), tuple(body)) for name, (ls, body) in routines.items()),
        inputs=(), main_locals=(), main=main + tuple(post), conds=tuple(conds), sems=tuple(sems),
        rwlocks=tuple(rwlocks)))
