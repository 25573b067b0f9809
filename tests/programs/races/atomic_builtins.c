/* RACES: none
 * Workers count with the atomic builtins and an atomic function; main reads
 * the counters after joining. Accesses inside atomic regions never race. */
#include <pthread.h>
#include <assert.h>

int hits;
int total;

void __VERIFIER_atomic_add(int k)
{
    total = total + k;
}

void *worker(void *arg)
{
    (void)arg;
    __sync_fetch_and_add(&hits, 1);
    __atomic_fetch_add(&hits, 1, __ATOMIC_SEQ_CST);
    __VERIFIER_atomic_add(3);
    return 0;
}

int main(void)
{
    pthread_t t1, t2;
    pthread_create(&t1, 0, worker, 0);
    pthread_create(&t2, 0, worker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(hits == 4 && total == 6);
    return 0;
}
