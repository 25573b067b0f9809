/* VERDICT 13: holds
   The worker loop: takes jobs until the queue is empty, adds each to the
   statistics. Every job main pushes is positive, so the assertion holds; this
   file has no main, so only the linked program can say so. */
#include <assert.h>
#include "queue.h"
#include "stats.h"
#include "worker.h"

void *worker(void *arg) {
    int job;
    while ((job = queue_pop()) >= 0) {
        assert(job > 0);
        stats_add(job);
    }
    return 0;
}
