/* VERDICT 19: violated
   Two workers (worker.c) drain a queue of two jobs (queue.c) and add them to
   the statistics (stats.c). stats_add has no lock: a worker can overwrite the
   other's update, so the total can be 1 or 2 instead of 3. */
#include <assert.h>
#include <pthread.h>
#include "queue.h"
#include "stats.h"
#include "worker.h"

int main(void) {
    pthread_t a, b;
    queue_push(1);
    queue_push(2);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(stats_total() == 3);
    return 0;
}
