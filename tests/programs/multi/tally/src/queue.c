/* A job queue under one lock: the build gives its size (-DQUEUE_SIZE). */
#include <pthread.h>
#include "queue.h"

static int jobs[QUEUE_SIZE];
static int head, tail;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void queue_push(int job) {
    pthread_mutex_lock(&lock);
    jobs[tail % QUEUE_SIZE] = job;
    tail++;
    pthread_mutex_unlock(&lock);
}

int queue_pop(void) {
    int job = -1;
    pthread_mutex_lock(&lock);
    if (head < tail) {
        job = jobs[head % QUEUE_SIZE];
        head++;
    }
    pthread_mutex_unlock(&lock);
    return job;
}
