/* VERDICT: holds
 * A lock-free counter: two threads each add one with __sync_fetch_and_add.
 * The read and the write of one addition are indivisible, so no addition
 * is lost and the count is two once both threads are joined; each thread
 * also sees a distinct old value. */
#include <pthread.h>
#include <assert.h>

int hits;
int seen[2];

void *bump(void *arg) {
    int old = __sync_fetch_and_add(&hits, 1);
    seen[old] = 1;
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, bump, 0);
    pthread_create(&t2, 0, bump, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(hits == 2);
    assert(seen[0] == 1 && seen[1] == 1);
    return 0;
}
