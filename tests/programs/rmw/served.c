/* VERDICT: holds
 * Three workers each serve two requests: served++ and pending-- on signed
 * atomic ints (C's arithmetic, whose overflow is checked), plus a wrapping
 * fetch_add of the bytes. Increments of one sign commute with each other,
 * decrements with each other: one run. */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_int served;
atomic_int pending = 6;
atomic_uint bytes;

void *worker(void *arg) {
    for (int i = 0; i < 2; i++) {
        served++;
        pending -= 1;
        atomic_fetch_add(&bytes, 10);
    }
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(served == 6 && pending == 0 && bytes == 60);
    return 0;
}
