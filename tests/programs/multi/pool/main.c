/* VERDICT: holds
   Two pool threads (pool.c) run the tasks (tasks.c); after the join every
   task was done exactly once. */
#include <assert.h>
#include "pool.h"

extern int done[TASKS];
void *run_tasks(void *arg);

int main(void) {
    pool_start(2, run_tasks);
    pool_join();
    int sum = 0;
    for (int t = 0; t < TASKS; t++) {
        assert(done[t] <= 1);
        sum += done[t];
    }
    assert(sum == TASKS);
    return 0;
}
