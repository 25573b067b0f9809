/* VERDICT: violated
 * Like stats_counters.c, but the worker that finds the request counter at 0
 * calls itself first: that fetch_add's old value is used, so the order of
 * the increments matters, and main's guess of who came first is wrong in
 * some run. */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_uint requests;
int first = -1;

void *worker(void *arg) {
    int id = (int)(long)arg;
    if (atomic_fetch_add(&requests, 1) == 0)
        first = id;
    atomic_fetch_add(&requests, 1);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(requests == 6);
    assert(first == 0);
    return 0;
}
