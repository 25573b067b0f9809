/* VERDICT 11: holds
   The same names as fast.c's, static here too: this count only ever holds
   what slow_run adds. */
#include <assert.h>
#include "counters.h"

static int count;

static void bump(int by) {
    count += by;
    assert(count <= LIMIT);
}

void *slow_run(void *arg) {
    bump(2);
    bump(2);
    return 0;
}

int slow_count(void) {
    return count;
}
