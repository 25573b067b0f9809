/* VERDICT 9: holds
   A worker takes one job and counts it; main only ever posts positive jobs. */
#include <assert.h>
#include "queue.h"
#include "stats.h"

void *worker(void *arg) {
    int job = queue_take();
    assert(job > 0);
    stats_count(job);
    return 0;
}
