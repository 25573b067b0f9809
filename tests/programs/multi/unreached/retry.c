/* VERDICT 10: unknown
   A retry policy nothing calls: main.c never uses it, and no other file of
   the database has a main. No run executes this assertion, which is not the
   same as showing it holds: the check says it is not reached by the linked
   program, undecided. */
#include <assert.h>

int retry_delay(int attempt) {
    int delay = 1 << attempt;
    assert(delay > attempt);
    return delay;
}
