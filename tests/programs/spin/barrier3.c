/* A sense-reversing barrier for three threads, used twice: each arrival
 * flips its own sense and takes a ticket with an atomic decrement; the last
 * one resets the count and publishes the new sense, the others spin until
 * they see it. Between the two rounds every thread has published its phase-1
 * value, so each reads all three.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define N 3

atomic_int remaining = N;
atomic_int sense;
int value[N];

static void barrier(int *local_sense) {
    *local_sense = !*local_sense;
    if (atomic_fetch_sub(&remaining, 1) == 1) {
        atomic_store(&remaining, N);
        atomic_store(&sense, *local_sense);
    } else {
        while (atomic_load(&sense) != *local_sense)
            ;
    }
}

void *worker(void *arg) {
    int me = (int)(long)arg;
    int local_sense = 0;
    value[me] = me + 1;
    barrier(&local_sense);
    int sum = value[0] + value[1] + value[2];
    assert(sum == 6);
    barrier(&local_sense);
    value[me] = 0;
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
