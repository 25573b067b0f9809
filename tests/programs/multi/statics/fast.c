/* VERDICT 12: holds
   A counter of its own: count and bump are static, as in slow.c, which has
   helpers of the same names (and its own LIMIT from the build). Linked as one
   count, the two threads' increments would add up past LIMIT. */
#include <assert.h>
#include "counters.h"

static int count;

static void bump(int by) {
    count += by;
    assert(count <= LIMIT);
}

void *fast_run(void *arg) {
    bump(1);
    return 0;
}

int fast_count(void) {
    return count;
}
