/* A thread pool: its threads, and the task counter they share under a lock.
   The routine comes from the caller, through a function pointer. */
#include <pthread.h>
#include "pool.h"

static pthread_t threads[MAX_THREADS];
static int started;
static int next_task;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void pool_start(int n, void *(*routine)(void *)) {
    for (int i = 0; i < n && started < MAX_THREADS; i++) {
        pthread_create(&threads[started], 0, routine, 0);
        started++;
    }
}

void pool_join(void) {
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], 0);
}

int pool_next_task(void) {
    pthread_mutex_lock(&lock);
    int task = next_task++;
    pthread_mutex_unlock(&lock);
    return task;
}
