#include <pthread.h>
#include "queue.h"

static int slots[QUEUE_SLOTS];
static int head, tail, count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;

void queue_put(int job) {
    pthread_mutex_lock(&lock);
    slots[tail] = job;
    tail = (tail + 1) % QUEUE_SLOTS;
    count++;
    pthread_cond_signal(&nonempty);
    pthread_mutex_unlock(&lock);
}

int queue_take(void) {
    pthread_mutex_lock(&lock);
    while (count == 0)
        pthread_cond_wait(&nonempty, &lock);
    int job = slots[head];
    head = (head + 1) % QUEUE_SLOTS;
    count--;
    pthread_mutex_unlock(&lock);
    return job;
}
