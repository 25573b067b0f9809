/* VERDICT: holds
   The pool's threads run run_tasks: each takes task numbers until they run
   out and marks its task done. The counter hands each number out once, so no
   task is done twice. */
#include <assert.h>
#include "pool.h"

int done[TASKS];

void *run_tasks(void *arg) {
    for (;;) {
        int task = pool_next_task();
        if (task >= TASKS)
            break;
        int before = done[task];
        done[task] = before + 1;
        assert(done[task] == 1);
    }
    return 0;
}
