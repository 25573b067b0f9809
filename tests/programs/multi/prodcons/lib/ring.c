/* VERDICT: holds
   The library: a ring of RING_SLOTS values under one mutex, with a condition
   for each way of waiting. Its own assertions hold for any user that only
   calls ring_put and ring_get. */
#include <assert.h>
#include <pthread.h>
#include "ring.h"

static int slots[RING_SLOTS];
static int count, first;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;

void ring_put(int value) {
    pthread_mutex_lock(&lock);
    while (count == RING_SLOTS)
        pthread_cond_wait(&not_full, &lock);
    assert(count < RING_SLOTS);
    slots[(first + count) % RING_SLOTS] = value;
    count++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&lock);
}

int ring_get(void) {
    pthread_mutex_lock(&lock);
    while (count == 0)
        pthread_cond_wait(&not_empty, &lock);
    assert(count > 0);
    int value = slots[first];
    first = (first + 1) % RING_SLOTS;
    count--;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&lock);
    return value;
}

int ring_size(void) {
    pthread_mutex_lock(&lock);
    int n = count;
    pthread_mutex_unlock(&lock);
    return n;
}
