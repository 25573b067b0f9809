/* VERDICT 19: holds
   Three workers (worker.c) each take one job from the queue (queue.c) and
   count it (stats.c); main posts three jobs, joins the workers and checks
   the count. The scale issue's three-worker queue with a statistics file. */
#include <assert.h>
#include <pthread.h>
#include "queue.h"
#include "stats.h"

void *worker(void *arg);

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 1; i <= 3; i++)
        queue_put(i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(stats_jobs() == 3);
    return 0;
}
